// Paths: the routes units (actors, or their sessions) take after or before a selected event, as
// the most frequent whole routes and as a Sankey graph whose every step adds up. SQL builds each
// unit's route (items, repeats collapsed, anchored, cut); the routes come back grouped with their
// counts, and the graph is folded from them here, step by step away from the anchor.

import type { DuckDBListValue } from '@duckdb/node-api';
import { ValidationError } from '../http/errors.js';
import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { checkFilters, type FilterItem } from './filters.js';
import { checkRange, effectiveRange, type DateRange } from './ranges.js';
import { cleanedPathSql } from './pathCleaning.js';
import { actorOf, Binder, compareText, fieldText, filtersCondition, num, scanEvents, type BuiltSql } from './sql.js';

export interface PathsParams {
  date_from: string;
  date_to: string;
  selected_event: string;
  direction: 'before' | 'after';
  start_event?: string;
  end_event?: string;
  depth: number;
  min_count: number;
  mode: 'actor' | 'session';
  filters?: FilterItem[];
  breakdown?: { property: string; limit: number };
  exclude_events?: string[];
  top_n: number;
}

export interface PathRoute {
  items: string[];
  count: number;
  share: number;
}

export interface SankeyNode {
  /** Distance from the anchor in items: 0 is the anchor, negative before it. */
  step: number;
  /** An item, `$other` (items folded together) or `$end` (units whose route stopped). */
  item: string;
  count: number;
}

export interface SankeyLink {
  /** Indexes into `nodes`; links run forward in time. */
  source: number;
  target: number;
  value: number;
}

export interface PathsGraph {
  units: number;
  routes: PathRoute[];
  sankey: { nodes: SankeyNode[]; links: SankeyLink[] };
}

export interface PathsSegment extends PathsGraph {
  /** The breakdown value, `$none` for anchors without it, `$other` for values past the limit. */
  name: string;
  value: string | null;
}

export interface PathsResponse extends DateRange, PathsGraph {
  direction: PathsParams['direction'];
  counted: 'actors' | 'sessions';
  breakdown?: PathsSegment[];
}

export const PAGE_VIEW = 'pp.page_view';
export const OTHER = '$other';
export const END = '$end';
/** Events of an actor without a session id belong to one session until 30 minutes pass without one. */
export const SESSION_GAP_MS = 30 * 60_000;

// --- validation ------------------------------------------------------------------------------

export function validatePaths(p: PathsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  if (p.direction === 'after' && p.start_event !== undefined) {
    throw new ValidationError('start_event begins routes that lead to the selected event: it needs direction=before (use end_event with after)', 'start_event');
  }
  if (p.direction === 'before' && p.end_event !== undefined) {
    throw new ValidationError('end_event ends routes that leave the selected event: it needs direction=after (use start_event with before)', 'end_event');
  }
  const excluded = new Set(p.exclude_events ?? []);
  for (const field of ['selected_event', 'start_event', 'end_event'] as const) {
    const name = p[field];
    if (name !== undefined && excluded.has(name)) throw new ValidationError(`${field} ${JSON.stringify(name)} is also in exclude_events`, field);
  }
}

// --- SQL -------------------------------------------------------------------------------------

/**
 * One row per distinct (breakdown value, route) with the units that took it. An item is the event
 * name, or for a page view its cleaned path; a name matches an item when it is the item or when it
 * is `pp.page_view` and the item is a page view's. Events come in time order; simultaneous ones
 * start event first, then the selected event, other items, the end event, then by item and
 * breakdown value: never by uuid. Consecutive events with the same item (of the same kind) are
 * one item. The anchor is the unit's first selected event.
 */
export function pathsSql(p: PathsParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const pageView = b.bind(PAGE_VIEW);
  const columns: Record<string, string> = { actor: actorOf('key'), t: 'epoch_ms(e.ts)', event: 'e.event', path: 'e.path' };
  if (p.mode === 'session') columns.sid = 'e.session_id';
  if (p.breakdown) columns.bval = fieldText(b, p.breakdown.property);
  const names = (list: string[]) => list.map((x) => b.bind(x)).join(', ');
  const exclude = p.exclude_events ?? [];
  // An excluded event still counts as activity between sessions; in actor mode, excluded event
  // names can leave in the scan already.
  const scanExcludes = exclude.length > 0 && p.mode === 'actor';
  const where = [filtersCondition(b, p.filters, ctx.segments), ...(scanExcludes ? [`e.event NOT IN (${names(exclude)})`] : [])];
  const scan = scanEvents(b, columns, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, where });
  const unit = p.mode === 'session' ? 'actor, skey' : 'actor';
  const after = p.direction === 'after';
  const ctes: string[] = [`raw AS (${scan})`];
  let rows = 'raw';
  if (p.mode === 'session') {
    // Session-less events split where 30 minutes pass without one (per actor); others by their id.
    const gap = b.bind(SESSION_GAP_MS);
    ctes.push(`gaps AS (SELECT *, CASE WHEN sid IS NULL AND t - lag(t) OVER (PARTITION BY actor, sid IS NULL ORDER BY t) <= ${gap} THEN 0 ELSE 1 END AS fresh FROM raw)`);
    ctes.push(`ss AS (SELECT *, CASE WHEN sid IS NULL THEN 'g' || CAST(sum(fresh) OVER (PARTITION BY actor, sid IS NULL ORDER BY t ROWS UNBOUNDED PRECEDING) AS VARCHAR) ELSE 's' || sid END AS skey FROM gaps)`);
    rows = 'ss';
  }
  // Each distinct page path is cleaned once (rules are regular expressions). Anchors are found on
  // the raw rows through the few paths that clean to the selected (or an excluded) name; only the
  // anchored units' rows on the anchor's side are then given their items and ordered.
  ctes.push(`pages AS (SELECT path, ${cleanedPathSql(b, ctx.pathCleaning.rules, 'path')} AS cleaned FROM (SELECT DISTINCT path FROM raw WHERE event = ${pageView} AND path IS NOT NULL))`);
  const rawIs = (list: string[]) => `(event IN (${names(list)}) OR coalesce(event = ${pageView} AND path IN (SELECT path FROM pages WHERE cleaned IN (${names(list)})), false))`;
  const rawExcluded = exclude.length > 0 ? ` AND NOT ${rawIs(exclude)}` : '';
  ctes.push(`anc AS (SELECT ${unit}, min(t) AS at FROM ${rows} WHERE ${rawIs([p.selected_event])}${rawExcluded} GROUP BY ${unit})`);
  const item = `CASE WHEN r.event = ${pageView} AND r.path IS NOT NULL THEN pages.cleaned ELSE r.event END`;
  ctes.push(`ev AS (SELECT r.*, ${item} AS item FROM ${rows} r JOIN anc USING (${unit}) LEFT JOIN pages ON pages.path = r.path WHERE r.t ${after ? '>=' : '<='} anc.at)`);
  const matches = (name: string) => `(item = ${b.bind(name)} OR event = ${b.bind(name)})`;
  const sel = matches(p.selected_event);
  const isStart = p.start_event !== undefined ? matches(p.start_event) : 'false';
  const isEnd = p.end_event !== undefined ? matches(p.end_event) : 'false';
  const role = `CASE WHEN ${isStart} THEN 0 WHEN ${sel} THEN 1 WHEN ${isEnd} THEN 3 ELSE 2 END`;
  const order = ['t', 'role', 'item', ...(p.breakdown ? ['bval NULLS LAST'] : [])].join(', ');
  const bval = p.breakdown ? 'bval' : 'CAST(NULL AS VARCHAR) AS bval';
  const kept = exclude.length > 0 ? `WHERE NOT (${exclude.map(matches).join(' OR ')})` : '';
  ctes.push(`near AS (SELECT ${unit}, t, item, event = ${pageView} AS pv, ${bval}, ${role} AS role, ${sel} AS sel, ${isStart} AS is_start, ${isEnd} AS is_end FROM ev ${kept})`);
  ctes.push(`seq AS (SELECT *, lag(item) OVER w AS prev_item, lag(pv) OVER w AS prev_pv FROM near WINDOW w AS (PARTITION BY ${unit} ORDER BY ${order}))`);
  ctes.push(`col AS (SELECT * FROM seq WHERE prev_item IS NULL OR prev_item <> item OR prev_pv <> pv)`);
  // One more pass over the collapsed items gives the anchor row its neighbours: the next (or
  // previous) `depth` items and whether each is an end (start) item. After, the anchor is the first
  // item from its instant on; before, items of its instant may follow it, so it is the first
  // selected one.
  const ks = Array.from({ length: p.depth }, (_, i) => i + 1);
  const shift = after ? 'lead' : 'lag';
  const edge = after ? (p.end_event !== undefined ? 'is_end' : undefined) : p.start_event !== undefined ? 'is_start' : undefined;
  const neighbours = ks.map((k) => `${shift}(item, ${k}) OVER w AS i${k}${edge ? `, ${shift}(${edge}, ${k}) OVER w AS c${k}` : ''}`);
  const anchor = after ? 'row_number() OVER w = 1' : `sel AND sum(CASE WHEN sel THEN 1 ELSE 0 END) OVER (w ROWS UNBOUNDED PRECEDING) = 1`;
  ctes.push(`nb AS (SELECT bval, item, ${neighbours.join(', ')}, ${anchor} AS is_anchor FROM col WINDOW w AS (PARTITION BY ${unit} ORDER BY ${order}))`);
  // The route in time order; cut at the first end item after the anchor (the last start item before it).
  const cut = edge ? `CASE ${ks.map((k) => `WHEN c${k} THEN ${k}`).join(' ')} ELSE ${p.depth} END` : String(p.depth);
  const items = after ? ['item', ...ks.map((k) => `i${k}`)] : [...ks.map((k) => `i${k}`).reverse(), 'item'];
  const full = `list_value(${items.join(', ')})`;
  const sliced = after ? `list_slice(${full}, 1, ${cut} + 1)` : `list_slice(${full}, ${p.depth + 1} - ${cut}, ${p.depth + 1})`;
  ctes.push(`routes AS (SELECT bval, list_filter(${sliced}, x -> x IS NOT NULL) AS items FROM nb WHERE is_anchor)`);
  return { sql: `WITH ${ctes.join(',\n')}\nSELECT bval, items, count(*) AS n FROM routes GROUP BY bval, items`, params: b.values };
}

// --- execution -------------------------------------------------------------------------------

interface RouteCount {
  bval: string | null;
  items: string[];
  n: number;
}

export async function runPaths(store: EventStore, p: PathsParams, ctx: QueryContext): Promise<{ range: DateRange; rows: RouteCount[] }> {
  const range = effectiveRange(p, ctx);
  const q = pathsSql(p, range, ctx);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  // One string per distinct item, so the graph's maps hash each item once.
  const pool = new Map<string, string>();
  const interned = (v: unknown) => {
    const text = String(v);
    const known = pool.get(text);
    if (known !== undefined) return known;
    pool.set(text, text);
    return text;
  };
  return { range, rows: rows.map((r: Row) => ({ bval: (r.bval as string | null) ?? null, items: (r.items as DuckDBListValue).items.map(interned), n: num(r.n) })) };
}

// --- shaping ---------------------------------------------------------------------------------

/** Routes by their items, one item at a time; a route that is a prefix of another comes first. */
export function compareRoutes(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareText(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** The most frequent routes: count ≥ min_count, at most top_n, ties by the route's items. */
function topRoutes(routes: RouteCount[], p: PathsParams, units: number): PathRoute[] {
  return routes
    .filter((r) => r.n >= p.min_count)
    .sort((a, b) => b.n - a.n || compareRoutes(a.items, b.items))
    .slice(0, p.top_n)
    .map((r) => ({ items: r.items, count: r.n, share: r.n / units }));
}

/**
 * The Sankey graph, built outwards from the anchor. At each step the top_n items (by units, ties
 * by item) keep their name and the rest fold into `$other`; a unit whose route stopped goes to
 * `$end`; a link carrying fewer than min_count units into a named item goes to `$other` instead.
 * So each step's nodes add up to the units still on their route one step nearer the anchor.
 */
function sankeyOf(routes: RouteCount[], p: PathsParams): PathsGraph['sankey'] {
  const after = p.direction === 'after';
  // Items become small integers (0 is $end, 1 is $other), so each step's tallies are array reads.
  const names = [END, OTHER];
  const ids = new Map(names.map((name, id) => [name, id]));
  const idOf = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    return id;
  };
  const outwards = routes.map((r) => (after ? r.items : [...r.items].reverse()).map(idOf));
  const units = routes.map((r) => r.n);
  const rankOf = (id: number) => (id === 0 ? 2 : id === 1 ? 1 : 0);
  const nodes: SankeyNode[] = [];
  const links: Array<{ from: number; to: number; value: number }> = [];
  const folded = new Int32Array(routes.length);
  const nodeOf = new Int32Array(routes.length).fill(-1);
  let live = routes.map((_, i) => i);
  for (let k = 0; k <= p.depth && live.length > 0; k++) {
    const raw = new Float64Array(names.length);
    for (const i of live) {
      const id = outwards[i]![k];
      if (id !== undefined) raw[id]! += units[i]!;
    }
    const kept = new Uint8Array(names.length);
    const present = [...raw.keys()].filter((id) => raw[id]! > 0);
    present.sort((x, y) => raw[y]! - raw[x]! || compareText(names[x]!, names[y]!));
    for (const id of present.slice(0, p.top_n)) kept[id] = 1;
    for (const i of live) {
      const id = outwards[i]![k];
      folded[i] = id === undefined ? 0 : kept[id] ? id : 1;
    }
    if (k > 0) {
      // A link below min_count into a named item goes to $other of this step instead.
      const carried = new Map<number, number>();
      const key = (i: number) => nodeOf[i]! * names.length + folded[i]!;
      for (const i of live) carried.set(key(i), (carried.get(key(i)) ?? 0) + units[i]!);
      for (const i of live) if (folded[i]! > 1 && carried.get(key(i))! < p.min_count) folded[i] = 1;
    }
    const counts = new Float64Array(names.length);
    for (const i of live) counts[folded[i]!]! += units[i]!;
    const step = after ? k : -k;
    const ordered = [...counts.keys()].filter((id) => counts[id]! > 0);
    ordered.sort((x, y) => rankOf(x) - rankOf(y) || counts[y]! - counts[x]! || compareText(names[x]!, names[y]!));
    const index = new Int32Array(names.length);
    for (const id of ordered) {
      index[id] = nodes.length;
      nodes.push({ step, item: names[id]!, count: counts[id]! });
    }
    if (k > 0) {
      const carried = new Map<number, { from: number; to: number; value: number }>();
      for (const i of live) {
        const from = nodeOf[i]!;
        const to = index[folded[i]!]!;
        const key = from * MAX_NODES + to;
        const link = carried.get(key) ?? { from, to, value: 0 };
        link.value += units[i]!;
        carried.set(key, link);
      }
      links.push(...carried.values());
    }
    live = live.filter((i) => folded[i] !== 0);
    for (const i of live) nodeOf[i] = index[folded[i]!]!;
  }
  // Nodes in step order; links forward in time (before the anchor: from the earlier step).
  const order = nodes.map((_, i) => i).sort((x, y) => nodes[x]!.step - nodes[y]!.step || x - y);
  const position = new Int32Array(nodes.length);
  order.forEach((old, i) => (position[old] = i));
  return {
    nodes: order.map((i) => nodes[i]!),
    links: links
      .map((l) => (after ? { source: position[l.from]!, target: position[l.to]!, value: l.value } : { source: position[l.to]!, target: position[l.from]!, value: l.value }))
      .sort((x, y) => x.source - y.source || x.target - y.target),
  };
}

/** More nodes than any graph has (21 steps of at most 100 items, $other and $end): link keys. */
const MAX_NODES = 4096;

function graphOf(routes: RouteCount[], p: PathsParams): PathsGraph {
  const units = routes.reduce((s, r) => s + r.n, 0);
  return { units, routes: topRoutes(routes, p, units), sankey: sankeyOf(routes, p) };
}

/** Routes with the same items merged (after the breakdown values were dropped or folded). */
function merged(rows: RouteCount[]): RouteCount[] {
  const byRoute = new Map<string, RouteCount>();
  for (const r of rows) {
    const key = r.items.join('\u0000');
    const m = byRoute.get(key);
    if (m) m.n += r.n;
    else byRoute.set(key, { bval: null, items: r.items, n: r.n });
  }
  return [...byRoute.values()];
}

function segmentsOf(rows: RouteCount[], p: PathsParams): PathsSegment[] {
  const totals = new Map<string | null, number>();
  for (const r of rows) totals.set(r.bval, (totals.get(r.bval) ?? 0) + r.n);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || (a[0] === null ? 1 : b[0] === null ? -1 : compareText(a[0], b[0])));
  const limit = p.breakdown!.limit;
  const segments: PathsSegment[] = ranked.slice(0, limit).map(([value]) => ({
    name: value === null ? '$none' : value,
    value,
    ...graphOf(rows.filter((r) => r.bval === value), p),
  }));
  if (ranked.length > limit) {
    const rest = new Set(ranked.slice(limit).map(([v]) => v));
    segments.push({ name: '$other', value: null, ...graphOf(merged(rows.filter((r) => rest.has(r.bval))), p) });
  }
  return segments;
}

export function shapePaths(run: { range: DateRange; rows: RouteCount[] }, p: PathsParams): PathsResponse {
  const response: PathsResponse = {
    ...run.range,
    direction: p.direction,
    counted: p.mode === 'actor' ? 'actors' : 'sessions',
    ...graphOf(merged(run.rows), p),
  };
  if (p.breakdown) response.breakdown = segmentsOf(run.rows, p);
  return response;
}
