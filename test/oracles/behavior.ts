// Reference page-behavior and forms reports: every event of the range read one by one, pages by
// the WHATWG URL parser, selectors walked up the element chain, visits as (session or actor, local
// day), medians by sorting. Plain and slow on purpose; the whole ranked list, never a page of it.

import { actorResolver, compareText, groupBy, localDateOf, matchesAll, median, type Filter, type OracleEvent } from './common.js';

export interface ReportInput {
  date_from: string;
  date_to: string;
  filters?: Filter[];
}

/** The page an absolute URL belongs to (docs/behavior.md#shared-definitions), via the URL parser. */
export function pageOfUrl(url: string | null): string | null {
  if (!url) return null;
  const u = new URL(url);
  const hashRoute = u.hash.startsWith('#/') || u.hash.startsWith('#!');
  const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') || '/' : '/';
  return `${u.protocol}//${u.host}${path}${hashRoute ? u.hash : ''}`;
}

type Chain = Array<{ tag: string; id?: string; classes?: string[]; nth_child: number; text?: string; attributes?: Record<string, string> }>;

/** The tracker's selector of a chain's target, for chains of plain identifiers. */
export function selectorOf(chain: Chain): string {
  const steps: string[] = [];
  for (const e of chain) {
    if (steps.length === 6) return steps.reverse().join(' > ');
    if (e.id) return [...steps, `${e.tag}#${e.id}`].reverse().join(' > ');
    if (e.attributes?.name && ['input', 'select', 'textarea'].includes(e.tag)) return [...steps, `${e.tag}[name="${e.attributes.name}"]`].reverse().join(' > ');
    steps.push(
      `${e.tag}${(e.classes ?? [])
        .slice(0, 3)
        .map((c) => `.${c}`)
        .join('')}:nth-child(${e.nth_child})`,
    );
  }
  if (steps.length < 6) steps.push('body');
  return steps.reverse().join(' > ');
}

function inRange(events: OracleEvent[], q: ReportInput, tz: string): OracleEvent[] {
  return events.filter((e) => {
    const day = localDateOf(e.ts.getTime(), tz);
    return day >= q.date_from && day <= q.date_to && e.url !== null && matchesAll(e, q.filters);
  });
}

const numberProp = (e: OracleEvent, k: string): number | null => {
  const v = e.props[k];
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
};

function figures(list: OracleEvent[], actorOf: (d: string) => string) {
  const count = (name: string) => list.filter((e) => e.event === name).length;
  const clicks = count('pp.click');
  const depths = list
    .filter((e) => e.event === 'pp.scroll_depth')
    .map((e) => numberProp(e, 'percent'))
    .filter((v): v is number => v !== null);
  const reach = (p: number) => (depths.length === 0 ? null : depths.filter((d) => d >= p).length / depths.length);
  return {
    events: list.length,
    page_views: count('pp.page_view'),
    clicks,
    unique_clickers: new Set(list.filter((e) => e.event === 'pp.click').map((e) => actorOf(e.distinct_id))).size,
    rage_clicks: count('pp.rage_click'),
    rage_click_rate: clicks === 0 ? 0 : count('pp.rage_click') / clicks,
    dead_clicks: count('pp.dead_click'),
    dead_click_rate: clicks === 0 ? 0 : count('pp.dead_click') / clicks,
    scroll: {
      measured: depths.length,
      reach_25: reach(25),
      reach_50: reach(50),
      reach_75: reach(75),
      reach_100: reach(100),
      mean_depth: depths.length === 0 ? null : depths.reduce((a, b) => a + b, 0) / depths.length,
    },
  };
}

export function behaviorUrlsOracle(events: OracleEvent[], links: Array<[string, string]>, q: ReportInput, tz: string) {
  const actorOf = actorResolver(links);
  const pages = groupBy(inRange(events, q, tz), (e) => pageOfUrl(e.url)!);
  const items = [...pages].map(([url, list]) => ({ url, ...figures(list, actorOf) }));
  return items.sort((a, b) => b.events - a.events || compareText(a.url, b.url));
}

const BANDS: Array<[string, number, number | null]> = [
  ['mobile', 0, 767],
  ['tablet', 768, 1023],
  ['desktop', 1024, 1439],
  ['wide', 1440, null],
];

export function pageBehaviorOracle(events: OracleEvent[], links: Array<[string, string]>, url: string, q: ReportInput, tz: string, mode: 'standard' | 'strict') {
  const actorOf = actorResolver(links);
  const page = pageOfUrl(url);
  const list = inRange(events, q, tz).filter((e) => pageOfUrl(e.url) === page);
  const clicks = list.filter((e) => e.event === 'pp.click');
  const placed = (e: OracleEvent) => (numberProp(e, 'vw') ?? 0) > 0 && numberProp(e, 'x') !== null && numberProp(e, 'y') !== null;
  const bands = BANDS.map(([band, min, max]) => {
    const mine = clicks.filter((e) => placed(e) && numberProp(e, 'vw')! >= min && (max === null || numberProp(e, 'vw')! <= max + 0.999999));
    const fixed = mine.filter((e) => e.props.fixed === true);
    const cells = new Map<string, number>();
    for (const e of mine.filter((c) => c.props.fixed !== true)) {
      const x = Math.min(98, Math.max(0, Math.floor((100 * numberProp(e, 'x')!) / numberProp(e, 'vw')! / 2) * 2));
      const y = Math.max(0, Math.floor(numberProp(e, 'y')! / 25) * 25);
      cells.set(`${x},${y}`, (cells.get(`${x},${y}`) ?? 0) + 1);
    }
    const list = [...cells].map(([k, n]) => ({ x: Number(k.split(',')[0]), y: Number(k.split(',')[1]), clicks: n }));
    list.sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x);
    return { band, min_width: min, max_width: max, clicks: mine.length, fixed_clicks: fixed.length, cells: list.slice(0, 5000), truncated: list.length > 5000 };
  });
  const elements = new Map<
    string,
    { selector: string; tag: string; texts: Map<string, number>; clicks: number; clickers: Set<string>; rage_clicks: number; dead_clicks: number; cells: Map<string, number> }
  >();
  for (const e of list.filter((x) => ['pp.click', 'pp.rage_click', 'pp.dead_click'].includes(x.event) && Array.isArray(x.elements) && x.elements.length > 0)) {
    const chain = e.elements as unknown as Chain;
    const selector = selectorOf(chain);
    const el = elements.get(selector) ?? { selector, tag: chain[0]!.tag, texts: new Map(), clicks: 0, clickers: new Set<string>(), rage_clicks: 0, dead_clicks: 0, cells: new Map() };
    elements.set(selector, el);
    if (e.event === 'pp.rage_click') el.rage_clicks += 1;
    else if (e.event === 'pp.dead_click') el.dead_clicks += 1;
    else {
      el.clicks += 1;
      el.clickers.add(actorOf(e.distinct_id));
      if (chain[0]!.text) el.texts.set(chain[0]!.text, (el.texts.get(chain[0]!.text) ?? 0) + 1);
      const ox = numberProp(e, 'ox');
      const oy = numberProp(e, 'oy');
      if (ox !== null && oy !== null) {
        const k = `${Math.min(90, Math.max(0, Math.floor(ox / 10) * 10))},${Math.min(90, Math.max(0, Math.floor(oy / 10) * 10))}`;
        el.cells.set(k, (el.cells.get(k) ?? 0) + 1);
      }
    }
  }
  const items = [...elements.values()].map((el) => {
    const texts = [...el.texts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
    const cells = [...el.cells].map(([k, n]) => ({ x: Number(k.split(',')[0]), y: Number(k.split(',')[1]), clicks: n }));
    cells.sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x);
    return {
      selector: el.selector,
      tag: el.tag,
      text: mode === 'standard' ? (texts[0]?.[0] ?? null) : null,
      clicks: el.clicks,
      unique_clickers: el.clickers.size,
      rage_clicks: el.rage_clicks,
      dead_clicks: el.dead_clicks,
      cells,
    };
  });
  items.sort((a, b) => b.clicks - a.clicks || b.rage_clicks - a.rage_clicks || b.dead_clicks - a.dead_clicks || compareText(a.selector, b.selector));
  const unplaced = clicks.filter((e) => !placed(e)).length;
  return { url: page, summary: figures(list, actorOf), heatmap: { x_step_percent: 2, y_step_px: 25, unplaced, bands }, items };
}

const FORM_EVENTS = ['pp.form_start', 'pp.form_submit', 'pp.form_abandon'];

export function formsOracle(events: OracleEvent[], links: Array<[string, string]>, q: ReportInput, tz: string) {
  const actorOf = actorResolver(links);
  const list = inRange(events, q, tz);
  const unitOf = (e: OracleEvent) => `${e.session_id !== null ? `s:${e.session_id}` : `a:${actorOf(e.distinct_id)}`}|${localDateOf(e.ts.getTime(), tz)}`;
  const formEvents = list.filter((e) => FORM_EVENTS.includes(e.event) && typeof e.props.form === 'string');
  const forms = groupBy(formEvents, (e) => JSON.stringify([e.props.form, pageOfUrl(e.url)]));
  const items = [...forms].map(([key, evs]) => {
    const [form, page] = JSON.parse(key) as [string, string];
    const views = new Set(list.filter((e) => e.event === 'pp.page_view' && pageOfUrl(e.url) === page).map(unitOf)).size;
    const visits = [...groupBy(evs, unitOf).values()];
    const has = (v: OracleEvent[], name: string) => v.some((e) => e.event === name);
    const starts = visits.filter((v) => has(v, 'pp.form_start')).length;
    const submits = visits.filter((v) => has(v, 'pp.form_submit')).length;
    const abandons = visits.filter((v) => has(v, 'pp.form_abandon') && !has(v, 'pp.form_submit')).length;
    const converted = visits.filter((v) => has(v, 'pp.form_start') && has(v, 'pp.form_submit')).length;
    const submitEvents = evs.filter((e) => e.event === 'pp.form_submit');
    const rate = (n: number, d: number) => (d === 0 ? null : n / d);
    return {
      form,
      url: page,
      views,
      starts,
      starters: new Set(evs.filter((e) => e.event === 'pp.form_start').map((e) => actorOf(e.distinct_id))).size,
      submits,
      submitters: new Set(submitEvents.map((e) => actorOf(e.distinct_id))).size,
      resubmissions: submitEvents.length - submits,
      abandons,
      start_rate: rate(starts, views),
      conversion_rate: rate(converted, starts),
      abandonment_rate: rate(abandons, starts),
      median_time_to_submit_ms: median(submitEvents.map((e) => numberProp(e, 'duration_ms')).filter((v): v is number => v !== null)),
    };
  });
  return items.sort((a, b) => b.starts - a.starts || compareText(a.form, b.form) || compareText(a.url, b.url));
}

interface FieldStat {
  field: string;
  tag?: string;
  type?: string;
  time_ms?: number;
  focus_count?: number;
  to_change_ms?: number;
  corrections?: number;
}

export function formDetailOracle(events: OracleEvent[], form: string, url: string | undefined, q: ReportInput, tz: string) {
  const page = url === undefined ? null : pageOfUrl(url);
  const attempts = inRange(events, q, tz).filter((e) => (e.event === 'pp.form_submit' || e.event === 'pp.form_abandon') && e.props.form === form && (page === null || pageOfUrl(e.url) === page));
  const submitted = attempts.filter((e) => e.event === 'pp.form_submit');
  const abandoned = attempts.length - submitted.length;
  const names = new Set<string>();
  const statsOf = (e: OracleEvent) => (Array.isArray(e.props.fields) ? (e.props.fields as FieldStat[]) : []);
  for (const e of attempts) {
    for (const f of statsOf(e)) names.add(f.field);
    if (e.event === 'pp.form_abandon' && typeof e.props.last_field === 'string') names.add(e.props.last_field);
    if (e.event === 'pp.form_submit' && Array.isArray(e.props.blank_fields)) for (const b of e.props.blank_fields as string[]) names.add(b);
  }
  const items = [...names].map((field) => {
    const stats = attempts.flatMap((e) =>
      statsOf(e)
        .filter((f) => f.field === field)
        .map((f) => ({ e, f })),
    );
    const min = (vals: Array<string | undefined>) => vals.filter((v): v is string => typeof v === 'string').sort(compareText)[0] ?? null;
    const dropOffs = attempts.filter((e) => e.event === 'pp.form_abandon' && e.props.last_field === field).length;
    return {
      field,
      tag: min(stats.map((s) => s.f.tag)),
      type: min(stats.map((s) => s.f.type)),
      drop_offs: dropOffs,
      drop_off_rate: abandoned === 0 ? null : dropOffs / abandoned,
      interactions: new Set(stats.map((s) => s.e.uuid)).size,
      median_time_ms: median(stats.map((s) => s.f.time_ms).filter((v): v is number => typeof v === 'number')),
      median_to_change_ms: median(stats.map((s) => s.f.to_change_ms).filter((v): v is number => typeof v === 'number')),
      refocuses: stats.reduce((a, s) => a + Math.max((s.f.focus_count ?? 1) - 1, 0), 0),
      corrections: stats.reduce((a, s) => a + (s.f.corrections ?? 0), 0),
      left_blank: submitted.filter((e) => Array.isArray(e.props.blank_fields) && (e.props.blank_fields as string[]).includes(field)).length,
    };
  });
  items.sort((a, b) => b.drop_offs - a.drop_offs || b.interactions - a.interactions || compareText(a.field, b.field));
  return {
    form,
    url: page,
    attempts: attempts.length,
    submitted: submitted.length,
    abandoned,
    median_hesitation_ms: median(attempts.map((e) => numberProp(e, 'since_load_ms')).filter((v): v is number => v !== null)),
    items,
  };
}
