// Reference Web summary: events of the range per actor in time order, split into visits at gaps over
// 30 minutes; visits kept with a page view and an event matching every filter; totals, the daily
// series and the tables counted by plain loops. Ties order by (time, path, entry properties).

import { actorResolver, addDays, compareText, datesFrom, localDateOf, matchesAll, type Filter, type OracleEvent } from './common.js';

const GAP = 30 * 60 * 1000;
const LIVE = 5 * 60 * 1000;
const DIMS = [
  ['channels', '$channel'],
  ['referrers', '$referring_domain'],
  ['campaigns', '$utm_campaign'],
  ['countries', '$country'],
  ['browsers', '$browser'],
  ['operating_systems', '$os'],
  ['devices', '$device_type'],
] as const;

interface Query {
  date_from: string;
  date_to: string;
  filters?: Filter[];
  limit?: number;
}

interface Visit {
  actor: string;
  events: OracleEvent[];
}

const isView = (e: OracleEvent) => e.event === 'pp.page_view';
const pathOf = (e: OracleEvent) => e.path ?? '';
const propText = (e: OracleEvent, key: string) => {
  const v = e.props[key];
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
};
const dimsOf = (e: OracleEvent) => DIMS.map(([, key]) => propText(e, key));

function visitsOf(events: OracleEvent[], links: Array<[string, string]>, from: string, to: string, tz: string, filters: Filter[] | undefined): Visit[] {
  const actorOf = actorResolver(links);
  const byActor = new Map<string, OracleEvent[]>();
  for (const e of events) {
    const d = localDateOf(e.ts.getTime(), tz);
    if (d < from || d > to) continue;
    const a = actorOf(e.distinct_id);
    byActor.set(a, [...(byActor.get(a) ?? []), e]);
  }
  const visits: Visit[] = [];
  for (const [actor, list] of byActor) {
    list.sort((a, b) => a.ts.getTime() - b.ts.getTime());
    let cur: Visit | undefined;
    let last = -Infinity;
    for (const e of list) {
      if (!cur || e.ts.getTime() - last > GAP) visits.push((cur = { actor, events: [] }));
      cur.events.push(e);
      last = e.ts.getTime();
    }
  }
  return visits.filter((v) => v.events.some(isView) && v.events.some((e) => matchesAll(e, filters)));
}

/** The first (or last) page view by (time, path, entry properties). */
function edge(v: Visit, last: boolean): OracleEvent {
  const views = v.events.filter(isView);
  const key = (e: OracleEvent) => [e.ts.getTime(), pathOf(e), last ? '' : dimsOf(e).join('\u0001')] as const;
  const cmp = (a: OracleEvent, b: OracleEvent) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || compareText(x[1], y[1]) || compareText(x[2], y[2]);
  };
  views.sort(cmp);
  return last ? views[views.length - 1]! : views[0]!;
}

function totalsOf(visits: Visit[]) {
  const n = visits.length;
  const views = visits.reduce((s, v) => s + v.events.filter(isView).length, 0);
  const bounces = visits.filter((v) => v.events.length === 1).length;
  const duration = visits.reduce((s, v) => s + (v.events[v.events.length - 1]!.ts.getTime() - v.events[0]!.ts.getTime()), 0);
  return {
    visitors: new Set(visits.map((v) => v.actor)).size,
    visits: n,
    page_views: views,
    views_per_visit: n === 0 ? null : views / n,
    bounce_rate: n === 0 ? null : bounces / n,
    visit_duration: n === 0 ? null : duration / n / 1000,
  };
}

interface Row {
  value: string | null;
  visitors: number;
  visits: number;
  page_views: number;
}

function table(groups: Map<string, { actors: Set<string>; visits: Set<Visit>; views: number }>, limit: number): Row[] {
  const rows: Row[] = [...groups].map(([value, g]) => ({ value: value === '' ? null : value, visitors: g.actors.size, visits: g.visits.size, page_views: g.views }));
  rows.sort((a, b) => b.visitors - a.visitors || b.visits - a.visits || b.page_views - a.page_views || (a.value === null ? 1 : b.value === null ? -1 : compareText(a.value, b.value)));
  return rows.slice(0, limit);
}

function byVisit(visits: Visit[], valueOf: (v: Visit) => string, limit: number): Row[] {
  const groups = new Map<string, { actors: Set<string>; visits: Set<Visit>; views: number }>();
  for (const v of visits) {
    const k = valueOf(v);
    const g = groups.get(k) ?? { actors: new Set(), visits: new Set(), views: 0 };
    g.actors.add(v.actor);
    g.visits.add(v);
    g.views += v.events.filter(isView).length;
    groups.set(k, g);
  }
  return table(groups, limit);
}

export function webSummaryOracle(events: OracleEvent[], links: Array<[string, string]>, q: Query, tz: string, now: Date) {
  const limit = q.limit ?? 10;
  const visits = visitsOf(events, links, q.date_from, q.date_to, tz, q.filters);
  const days = datesFrom(q.date_from, q.date_to).length;
  const prevFrom = addDays(q.date_from, -days);
  const prevTo = addDays(q.date_from, -1);
  const totals = totalsOf(visits);
  const previous = totalsOf(visitsOf(events, links, prevFrom, prevTo, tz, q.filters));
  const change = Object.fromEntries(
    (Object.keys(totals) as Array<keyof typeof totals>).map((k) => {
      const [a, b] = [totals[k], previous[k]];
      return [k, a === null || b === null || b === 0 ? null : (a - b) / b];
    }),
  );
  const pageGroups = new Map<string, { actors: Set<string>; visits: Set<Visit>; views: number }>();
  for (const v of visits) {
    for (const e of v.events.filter(isView)) {
      const g = pageGroups.get(pathOf(e)) ?? { actors: new Set(), visits: new Set(), views: 0 };
      g.actors.add(v.actor);
      g.visits.add(v);
      g.views += 1;
      pageGroups.set(pathOf(e), g);
    }
  }
  const dayOf = (v: Visit) => localDateOf(v.events[0]!.ts.getTime(), tz);
  const actorOf = actorResolver(links);
  const live = new Set(events.filter((e) => e.ts.getTime() > now.getTime() - LIVE && e.ts.getTime() <= now.getTime() && matchesAll(e, q.filters)).map((e) => actorOf(e.distinct_id)));
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    totals,
    previous: { ...previous, date_from: prevFrom, date_to: prevTo },
    change,
    series: datesFrom(q.date_from, q.date_to).map((bucket) => {
      const on = visits.filter((v) => dayOf(v) === bucket);
      const t = totalsOf(on);
      return { bucket, visitors: t.visitors, visits: t.visits, page_views: t.page_views };
    }),
    pages: table(pageGroups, limit),
    entry_pages: byVisit(visits, (v) => pathOf(edge(v, false)), limit),
    exit_pages: byVisit(visits, (v) => pathOf(edge(v, true)), limit),
    ...Object.fromEntries(DIMS.map(([name, key]) => [name, byVisit(visits, (v) => propText(edge(v, false), key), limit)])),
    live_visitors: live.size,
  };
}
