// Reference paths: each unit (an actor, or one of their sessions) as a list of its events in the
// range, in order; excluded items removed, repeats collapsed, anchored at the first selected event,
// cut to the window; then the top routes and the Sankey graph built one unit at a time.

import { actorResolver, compareText, fieldValue, groupBy, localDateOf, matchesAll, type Filter, type OracleEvent } from './common.js';

export interface PathsInput {
  date_from: string;
  date_to: string;
  selected_event: string;
  direction: 'before' | 'after';
  start_event?: string;
  end_event?: string;
  depth: number;
  min_count?: number;
  mode: 'actor' | 'session';
  filters?: Filter[];
  breakdown?: { property: string; limit?: number };
  exclude_events?: string[];
  top_n?: number;
}

export interface PathRule {
  pattern: string;
  alias: string;
}

interface Item {
  item: string;
  pageView: boolean;
  event: OracleEvent;
}

interface Unit {
  route: string[];
  value: string | null;
  actor: string;
}

const GAP_MS = 30 * 60_000;
const OTHER = '$other';
const END = '$end';

/** A rule's alias in JavaScript's replacement syntax: `\1` names a group, `$` is literal. */
const jsAlias = (alias: string) => alias.replaceAll('$', '$$$$').replace(/\\(\d)/g, '$$$1');

export function cleanPath(path: string, rules: PathRule[]): string {
  let p = path.replace(/\/+$/, '');
  if (p === '') p = '/';
  for (const r of rules) p = p.replace(new RegExp(r.pattern, 'gu'), jsAlias(r.alias));
  return p;
}

function itemOf(e: OracleEvent, rules: PathRule[]): Item {
  const pageView = e.event === 'pp.page_view';
  return { item: pageView && e.path !== null ? cleanPath(e.path, rules) : e.event, pageView, event: e };
}

const matches = (it: Item, name: string | undefined) => name !== undefined && (it.item === name || it.event.event === name);

/** Events of one actor split into sessions: by session id, or 30 minutes of inactivity without one. */
function sessionsOf(events: OracleEvent[]): OracleEvent[][] {
  const byId = groupBy(
    events.filter((e) => e.session_id !== null),
    (e) => e.session_id!,
  );
  const loose = events.filter((e) => e.session_id === null).sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const out = [...byId.values()];
  let current: OracleEvent[] = [];
  for (const e of loose) {
    if (current.length > 0 && e.ts.getTime() - current.at(-1)!.ts.getTime() > GAP_MS) {
      out.push(current);
      current = [];
    }
    current.push(e);
  }
  if (current.length > 0) out.push(current);
  return out;
}

function unitRoute(events: OracleEvent[], q: PathsInput, rules: PathRule[]): Omit<Unit, 'actor'> | null {
  const role = (it: Item) => (matches(it, q.start_event) ? 0 : matches(it, q.selected_event) ? 1 : matches(it, q.end_event) ? 3 : 2);
  const value = (it: Item) => (q.breakdown ? fieldValue(it.event, q.breakdown.property) : null);
  const byValue = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : compareText(a, b));
  const items = events
    .map((e) => itemOf(e, rules))
    .filter((it) => !(q.exclude_events ?? []).some((x) => matches(it, x)))
    .sort((a, b) => a.event.ts.getTime() - b.event.ts.getTime() || role(a) - role(b) || compareText(a.item, b.item) || byValue(value(a), value(b)));
  const collapsed = items.filter((it, i) => i === 0 || it.item !== items[i - 1]!.item || it.pageView !== items[i - 1]!.pageView);
  const anchor = collapsed.findIndex((it) => matches(it, q.selected_event));
  if (anchor < 0) return null;
  let window: Item[];
  if (q.direction === 'after') {
    window = collapsed.slice(anchor, anchor + q.depth + 1);
    const end = window.findIndex((it, i) => i > 0 && matches(it, q.end_event));
    if (end > 0) window = window.slice(0, end + 1);
  } else {
    window = collapsed.slice(Math.max(0, anchor - q.depth), anchor + 1);
    let start = -1;
    window.forEach((it, i) => {
      if (i < window.length - 1 && matches(it, q.start_event)) start = i;
    });
    if (start >= 0) window = window.slice(start);
  }
  return { route: window.map((it) => it.item), value: value(collapsed[anchor]!) };
}

function unitsOf(events: OracleEvent[], links: Array<[string, string]>, q: PathsInput, tz: string, rules: PathRule[]): Unit[] {
  const actorOf = actorResolver(links);
  const inRange = events.filter((e) => {
    const day = localDateOf(e.ts.getTime(), tz);
    return day >= q.date_from && day <= q.date_to && matchesAll(e, q.filters);
  });
  const units: Unit[] = [];
  for (const [actor, list] of groupBy(inRange, (e) => actorOf(e.distinct_id))) {
    for (const part of q.mode === 'actor' ? [list] : sessionsOf(list)) {
      const u = unitRoute(part, q, rules);
      if (u) units.push({ ...u, actor });
    }
  }
  return units;
}

const routeOrder = (a: string[], b: string[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareText(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
};

function graph(units: Unit[], q: PathsInput) {
  const topN = q.top_n ?? 20;
  const minCount = q.min_count ?? 1;
  const counts = new Map<string, { items: string[]; count: number }>();
  for (const u of units) {
    const key = JSON.stringify(u.route);
    const c = counts.get(key) ?? { items: u.route, count: 0 };
    c.count += 1;
    counts.set(key, c);
  }
  const routes = [...counts.values()]
    .filter((r) => r.count >= minCount)
    .sort((a, b) => b.count - a.count || routeOrder(a.items, b.items))
    .slice(0, topN)
    .map((r) => ({ ...r, share: r.count / units.length }));

  // The graph: every unit carries its folded item per step; nodes are (step, folded item).
  const after = q.direction === 'after';
  const at = (u: Unit, k: number) => (k < u.route.length ? u.route[after ? k : u.route.length - 1 - k]! : END);
  const folded: string[][] = units.map(() => []);
  let alive = units.map((_, i) => i);
  for (let k = 0; k <= q.depth && alive.length > 0; k++) {
    const tally = new Map<string, number>();
    for (const i of alive) if (at(units[i]!, k) !== END) tally.set(at(units[i]!, k), (tally.get(at(units[i]!, k)) ?? 0) + 1);
    const top = [...tally.entries()]
      .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
      .slice(0, topN)
      .map((e) => e[0]);
    for (const i of alive) {
      const it = at(units[i]!, k);
      folded[i]![k] = it === END || top.includes(it) ? it : OTHER;
    }
    if (k > 0) {
      const linkOf = (i: number) => `${folded[i]![k - 1]}\n${folded[i]![k]}`;
      const linkCounts = new Map<string, number>();
      for (const i of alive) linkCounts.set(linkOf(i), (linkCounts.get(linkOf(i)) ?? 0) + 1);
      const thin = alive.filter((i) => folded[i]![k] !== END && folded[i]![k] !== OTHER && linkCounts.get(linkOf(i))! < minCount);
      for (const i of thin) folded[i]![k] = OTHER;
    }
    alive = alive.filter((i) => folded[i]![k] !== END);
  }
  const nodeList: Array<{ step: number; item: string; count: number }> = [];
  const depthOf = (u: number) => folded[u]!.length;
  for (let k = 0; k <= q.depth; k++) {
    const step = after ? k : -k;
    const tally = new Map<string, number>();
    units.forEach((_, i) => {
      if (k < depthOf(i)) tally.set(folded[i]![k]!, (tally.get(folded[i]![k]!) ?? 0) + 1);
    });
    const rank = (it: string) => (it === END ? 2 : it === OTHER ? 1 : 0);
    const sorted = [...tally.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1] || compareText(a[0], b[0]));
    for (const [item, count] of sorted) nodeList.push({ step, item, count });
  }
  nodeList.sort((a, b) => a.step - b.step); // stable: keeps each step's order
  const indexOf = (step: number, item: string) => nodeList.findIndex((n) => n.step === step && n.item === item);
  const linkTally = new Map<string, { source: number; target: number; value: number }>();
  units.forEach((_, i) => {
    for (let k = 1; k < depthOf(i); k++) {
      const near = indexOf(after ? k - 1 : -(k - 1), folded[i]![k - 1]!);
      const far = indexOf(after ? k : -k, folded[i]![k]!);
      const [source, target] = after ? [near, far] : [far, near];
      const key = `${source}:${target}`;
      const l = linkTally.get(key) ?? { source, target, value: 0 };
      l.value += 1;
      linkTally.set(key, l);
    }
  });
  const links = [...linkTally.values()].sort((a, b) => a.source - b.source || a.target - b.target);
  return { units: units.length, routes, sankey: { nodes: nodeList, links }, folded };
}

export function pathsOracle(events: OracleEvent[], links: Array<[string, string]>, q: PathsInput, tz: string, rules: PathRule[] = []) {
  const units = unitsOf(events, links, q, tz, rules);
  const result: Record<string, unknown> = {
    date_from: q.date_from,
    date_to: q.date_to,
    direction: q.direction,
    counted: q.mode === 'actor' ? 'actors' : 'sessions',
    ...withoutFolded(graph(units, q)),
  };
  if (q.breakdown) {
    const limit = q.breakdown.limit ?? 5;
    const byValue = new Map<string | null, Unit[]>();
    for (const u of units) byValue.set(u.value, [...(byValue.get(u.value) ?? []), u]);
    const ranked = [...byValue.keys()].sort((a, b) => byValue.get(b)!.length - byValue.get(a)!.length || (a === null ? 1 : b === null ? -1 : compareText(a, b)));
    const segments = ranked.slice(0, limit).map((v) => ({ name: v ?? '$none', value: v, ...withoutFolded(graph(byValue.get(v)!, q)) }));
    if (ranked.length > limit)
      segments.push({
        name: '$other',
        value: null,
        ...withoutFolded(
          graph(
            ranked.slice(limit).flatMap((v) => byValue.get(v)!),
            q,
          ),
        ),
      });
    result.breakdown = segments;
  }
  return result;
}

const withoutFolded = ({ folded: _f, ...g }: ReturnType<typeof graph>) => g;

/** A node (step, item) of the whole graph, or with `next_item` the link from it to step + 1. */
export interface PathsSpot {
  step: number;
  item: string;
  next_item?: string;
}

/**
 * The actors whose units pass through a node (or along a link) of the whole graph, by actor id in
 * byte order, with the units counted there: each unit's folded item at a step is its node there.
 */
export function pathsActorsOracle(events: OracleEvent[], links: Array<[string, string]>, q: PathsInput, tz: string, rules: PathRule[], spot: PathsSpot) {
  const units = unitsOf(events, links, q, tz, rules);
  const { folded } = graph(units, q);
  const at = Math.abs(spot.step);
  const next = Math.abs(spot.step + 1);
  const through = units.filter((_, i) => folded[i]![at] === spot.item && (spot.next_item === undefined || folded[i]![next] === spot.next_item));
  const actors = [...new Set(through.map((u) => u.actor))].sort(compareText);
  return { units: through.length, actors };
}
