// Paths: the routes units (actors, or their sessions) take after or before a selected event, as
// the most frequent whole routes and as a Sankey graph whose every step adds up. SQL builds each
// unit's route (items, repeats collapsed, anchored, cut); the routes come back grouped with their
// counts, and the graph is folded from them here, step by step away from the anchor.

import type { DuckDBDataChunk, DuckDBMaterializedResult } from '@duckdb/node-api';
import { ValidationError } from '../http/errors.js';
import type { EventStore } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkRange, effectiveRange, type DateRange } from './ranges.js';
import { cleanedPagesSql } from './pathCleaning.js';
import { addDays } from '../engine/dates.js';
import { dayStartMs } from '../engine/localTime.js';
import { fieldText, filtersCondition } from '../engine/conditions.js';
import { Binder, compareText, type BuiltSql } from '../engine/sql.js';

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
 * The rows the routes are made of: per unit (an actor, or one of its sessions), its events on the
 * anchor's side with their items. An item is the event name, or for a page view its cleaned path;
 * a name matches an item when it is the item or when it is `pp.page_view` and the item is a page
 * view's. Excluded items are left out here; ordering, collapsing repeats and cutting the route
 * are routesOf's.
 *
 * Anchors are found first, from the selected events alone; only the anchored actors' events on the
 * anchor's side are then read and given their items. Items travel as small integers (`dict`,
 * numbered in the items' text order); one extra row carries their names.
 */
export function pathsSql(p: PathsParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const after = p.direction === 'after';
  const session = p.mode === 'session';
  const rules = ctx.pathCleaning.rules;
  const exclude = p.exclude_events ?? [];
  const names = (list: string[]) => list.map((x) => b.bind(x)).join(', ');
  const pageView = b.bind(PAGE_VIEW);
  const projectId = b.bind(ctx.projectId);
  // The range's local days as instants, so the scans compare timestamps only.
  const instant = (ms: number) => `CAST(${b.bind(new Date(ms).toISOString())} AS TIMESTAMPTZ)`;
  const since = instant(dayStartMs(range.date_from, ctx.timezone));
  const until = instant(dayStartMs(addDays(range.date_to, 1), ctx.timezone));
  const inRange = `e.project_id = ${projectId} AND e.ts >= ${since} AND e.ts < ${until} AND ${filtersCondition(b, p.filters, ctx.segments)}`;
  const ctes: string[] = [];

  // Which page views a name can match before items exist. Every stored path starts with `/`, and
  // so does its cleaning when every alias does: then a name without one is an event name only.
  // Other names go through the cleaned paths of the range.
  const slashKept = rules.every((r) => r.alias.startsWith('/'));
  const paged = (list: string[]) => list.filter((n) => !slashKept || n.startsWith('/'));
  const rangePages = paged([p.selected_event, ...exclude]).length > 0;
  if (rangePages) {
    ctes.push(`pages AS (${cleanedPagesSql(b, rules, `SELECT DISTINCT e.path FROM events e WHERE ${inRange} AND e.event = ${pageView} AND e.path IS NOT NULL`)})`);
  }
  const rawIs = (list: string[]) => {
    const pages = paged(list);
    const viaPages = pages.length > 0 ? ` OR coalesce(e.event = ${pageView} AND e.path IN (SELECT path FROM pages WHERE cleaned IN (${names(pages)})), false)` : '';
    return `(e.event IN (${names(list)})${viaPages})`;
  };
  const notExcluded = exclude.length > 0 ? ` AND NOT ${rawIs(exclude)}` : '';
  ctes.push(`hits AS (SELECT e.distinct_key, epoch_ms(e.ts) AS t FROM events e WHERE ${inRange} AND ${rawIs([p.selected_event])}${notExcluded})`);
  // Per anchored actor, the instant that bounds the events read: the anchor itself, or with
  // sessions (each anchored on its own) the first selected event after, the last one before.
  const bound = after || !session ? 'min' : 'max';
  ctes.push(`anc AS (SELECT actor, edge, row_number() OVER () AS a FROM (SELECT COALESCE(l.actor_key, h.distinct_key) AS actor, ${bound}(h.t) AS edge FROM hits h LEFT JOIN identity_links l ON l.project_id = ${projectId} AND l.distinct_key = h.distinct_key GROUP BY 1))`);
  // The keys whose events are an anchored actor's: those linked to it, and its own unless linked on.
  ctes.push(`keyed AS (SELECT l.distinct_key, anc.a, anc.edge FROM identity_links l JOIN anc ON l.actor_key = anc.actor WHERE l.project_id = ${projectId}
    UNION ALL SELECT anc.actor, anc.a, anc.edge FROM anc WHERE NOT EXISTS (SELECT 1 FROM identity_links l WHERE l.project_id = ${projectId} AND l.distinct_key = anc.actor))`);
  const columns = ['k.a', 'epoch_ms(e.ts) AS t', 'e.event', 'e.path', ...(session ? ['e.session_id AS sid'] : []), p.breakdown ? `${fieldText(b, p.breakdown.property)} AS bval` : 'CAST(NULL AS VARCHAR) AS bval'];
  // An excluded event still counts as activity between sessions; in actor mode, excluded event
  // names can leave right after the join. (`OR k.a IS NULL`, never true, keeps the test there: as
  // a scan filter it compared the name of every event in the range, several times the rows the
  // join keeps, and cost more than it saved.)
  const joinedExcludes = exclude.length > 0 && !session ? ` AND (e.event NOT IN (${names(exclude)}) OR k.a IS NULL)` : '';
  ctes.push(`ev AS (SELECT ${columns.join(', ')} FROM events e JOIN keyed k ON k.distinct_key = e.distinct_key WHERE ${inRange} AND epoch_ms(e.ts) ${after ? '>=' : '<='} k.edge${joinedExcludes})`);
  let rows = 'ev';
  if (session) {
    // Session-less events split where 30 minutes pass without one (per actor); others by their id.
    const gap = b.bind(SESSION_GAP_MS);
    ctes.push(`gaps AS (SELECT *, CASE WHEN sid IS NULL AND t - lag(t) OVER (PARTITION BY a, sid IS NULL ORDER BY t) <= ${gap} THEN 0 ELSE 1 END AS fresh FROM ev)`);
    ctes.push(`ss AS (SELECT *, CASE WHEN sid IS NULL THEN 'g' || CAST(sum(fresh) OVER (PARTITION BY a, sid IS NULL ORDER BY t ROWS UNBOUNDED PRECEDING) AS VARCHAR) ELSE 's' || sid END AS skey FROM gaps)`);
    rows = 'ss';
  }
  // Each distinct page path is cleaned once (rules are regular expressions).
  if (!rangePages) {
    ctes.push(`pages AS (${cleanedPagesSql(b, rules, `SELECT DISTINCT path FROM ev WHERE event = ${pageView} AND path IS NOT NULL`)})`);
  }
  ctes.push(`its AS (SELECT r.*, CASE WHEN r.event = ${pageView} AND r.path IS NOT NULL THEN pages.cleaned ELSE r.event END AS item, r.event = ${pageView} AS pv FROM ${rows} r LEFT JOIN pages ON pages.path = r.path)`);
  // What a name matches is a property of the item (a page view's event is pp.page_view, another's its item).
  const matches = (name: string) => `(item = ${b.bind(name)}${name === PAGE_VIEW ? ' OR pv' : ''})`;
  // The selected item anchors sessions here; start and end items are the server's (routesOf).
  const gone = exclude.length > 0 ? `(${exclude.map(matches).join(' OR ')})` : 'false';
  ctes.push(`dict AS (SELECT item, pv, CAST(row_number() OVER (ORDER BY item, pv) AS INTEGER) AS code, ${matches(p.selected_event)} AS sel, ${gone} AS gone FROM (SELECT DISTINCT item, pv FROM its))`);
  ctes.push(`coded AS (SELECT r.a${session ? ', r.skey' : ''}, r.t, r.bval, d.code, d.sel, d.gone FROM its r JOIN dict d USING (item, pv))`);
  let near = 'SELECT * FROM coded WHERE NOT gone';
  if (session) {
    ctes.push(`sanc AS (SELECT a, skey, min(t) AS at FROM coded WHERE sel AND NOT gone GROUP BY a, skey)`);
    near = `SELECT c.* FROM coded c JOIN sanc USING (a, skey) WHERE NOT c.gone AND c.t ${after ? '>=' : '<='} sanc.at`;
  }
  ctes.push(`near AS (${near})`);
  // Rows come unordered: a unit number (an actor, or in session mode one of its sessions), the time
  // and the item; the server orders each unit's few rows itself (routesOf), which costs less than
  // sorting them all here. Rows of unit 0 name the items: the item's number, its text (in bval)
  // and whether it is a page view's (t = 1). Every column but bval is never null, so the reader
  // needs no null checks, and no list travels with every row.
  let units = 'near';
  if (session) {
    ctes.push(`units AS (SELECT * EXCLUDE (a), dense_rank() OVER (ORDER BY a, skey) AS a FROM near)`);
    units = 'units';
  }
  const bval = p.breakdown ? 'bval' : 'CAST(NULL AS VARCHAR)';
  return {
    sql: `WITH ${ctes.join(',\n')}
SELECT CAST(a AS INTEGER) AS a, CAST(t AS DOUBLE) AS t, code, ${bval} AS bval FROM ${units}
UNION ALL SELECT 0, CAST(pv AS DOUBLE), code, item FROM dict`,
    params: b.values,
  };
}

// --- execution -------------------------------------------------------------------------------

interface RouteCount {
  bval: string | null;
  items: string[];
  /** The items as pathsSql numbers them (see PathsRun.names). */
  codes: number[];
  n: number;
}

export interface PathsRun {
  range: DateRange;
  rows: RouteCount[];
  /** Item names by code (from 1). */
  names: string[];
}

/** Result columns of pathsSql. */
const A = 0;
const T = 1;
const CODE = 2;
const BVAL = 3;

/** Below this many rows a unit's rows are ordered by insertion, above by merging. */
const SMALL_UNIT = 24;

/**
 * Each unit's route from its items in order: repeats collapsed, anchored at the first item after
 * (the first selected one before), `depth` items on, cut after the first end item (from the
 * nearest start item). Counted by (breakdown value of the anchor, route).
 *
 * The rows are read into typed arrays, grouped by unit with a counting sort, and each unit's rows
 * put in order: by time; simultaneous ones start item first, then the selected item, other items,
 * the end item, then by item (text order) and breakdown value (none last): never by uuid.
 *
 * Each loop is a function of its own, without closures, so that V8 optimizes it once and keeps it
 * from one request to the next (one large function was optimized and thrown away several times
 * per request over the first few requests, which then took twice as long).
 */
export function routesOf(result: DuckDBMaterializedResult, p: PathsParams): Pick<PathsRun, 'rows' | 'names'> {
  const after = p.direction === 'after';
  const chunks = Array.from({ length: result.chunkCount }, (_, c) => result.getChunk(c));
  const total = chunks.reduce((n, chunk) => n + chunk.rowCount, 0);
  const rows: Rows = {
    n: 0,
    units: 0,
    unitOf: new Int32Array(total),
    timeOf: new Float64Array(total),
    codeOf: new Int32Array(total),
    chunkOf: p.breakdown ? new Int32Array(total) : undefined,
    rowOf: p.breakdown ? new Int32Array(total) : undefined,
  };
  const names: string[] = [undefined as unknown as string];
  const pageViews: boolean[] = [false];
  for (const [c, chunk] of chunks.entries()) {
    if (!readChunk(chunk, c, rows)) continue;
    // This chunk has rows naming items (unit 0).
    const [a, t, code, text] = [A, T, CODE, BVAL].map((column) => chunk.getColumnVector(column));
    for (let r = 0; r < chunk.rowCount; r++) {
      if (a!.getItem(r) !== 0) continue;
      names[code!.getItem(r) as number] = text!.getItem(r) as string;
      pageViews[code!.getItem(r) as number] = t!.getItem(r) === 1;
    }
  }
  const { chunkOf, rowOf } = rows;
  // A kept row's breakdown value, read from its chunk only where an order or a route needs it.
  const bvalOf = (i: number): string | null => chunks[chunkOf![i]!]!.getColumnVector(BVAL).getItem(rowOf![i]!) as string | null;

  const marks = (name: string | undefined) => Uint8Array.from(names, (item, code) => (name !== undefined && code > 0 && (item === name || (pageViews[code] && name === PAGE_VIEW)) ? 1 : 0));
  const sel = marks(p.selected_event);
  const edge = marks(after ? p.end_event : p.start_event);
  const role = Uint8Array.from(names, (_, code) => (code === 0 ? 0 : !after && edge[code] ? 0 : sel[code] ? 1 : after && edge[code] ? 3 : 2));
  const walk: Walk = {
    after,
    depth: p.depth,
    timeOf: rows.timeOf,
    codeOf: rows.codeOf,
    role,
    sel,
    edge,
    order: new Int32Array(rows.n),
    starts: new Int32Array(rows.units + 2),
    spare: new Int32Array(0),
    tie: p.breakdown ? (x, y) => compareValues(bvalOf(x), bvalOf(y)) : undefined,
    codes: new Int32Array(64),
    from: new Int32Array(64),
    first: 0,
    end: 0,
    anchor: 0,
  };
  groupByUnit(rows, walk.order, walk.starts);
  return { rows: countRoutes(walk, rows.units, names, p.breakdown ? bvalOf : undefined), names };
}

/**
 * Every unit's route counted: without a breakdown on its node of the route tree, with one by
 * node and the anchor's value. In the order each was first seen.
 */
function countRoutes(walk: Walk, units: number, names: readonly string[], bvalOf: ((row: number) => string | null) | undefined): RouteCount[] {
  const { starts } = walk;
  const tree = new RouteTree();
  const firstSeen: number[] = [];
  const byValue = new Map<string, RouteCount>();
  const counted: RouteCount[] = [];
  for (let u = 1; u <= units; u++) {
    if (!routeOfUnit(walk, starts[u]!, starts[u + 1]!)) continue;
    const node = tree.nodeOf(walk.codes, walk.first, walk.end);
    if (!bvalOf) {
      if (tree.units[node]!++ === 0) firstSeen.push(node);
      continue;
    }
    const bval = bvalOf(walk.from[walk.first + walk.anchor]!);
    const key = bval === null ? `${node}` : `${node}:${bval}`;
    const known = byValue.get(key);
    if (known) known.n++;
    else {
      const codes = tree.codesOf(node);
      const count = { bval, items: codes.map((c) => names[c]!), codes, n: 1 };
      byValue.set(key, count);
      counted.push(count);
    }
  }
  for (const node of firstSeen) {
    const codes = tree.codesOf(node);
    counted.push({ bval: null, items: codes.map((c) => names[c]!), codes, n: tree.units[node]! });
  }
  return counted;
}

/** The result's rows as routesOf reads them: unit, time and item by row number. */
interface Rows {
  n: number;
  units: number;
  unitOf: Int32Array;
  timeOf: Float64Array;
  codeOf: Int32Array;
  /** Where a row's breakdown value is (with a breakdown only). */
  chunkOf: Int32Array | undefined;
  rowOf: Int32Array | undefined;
}

/** Appends a chunk's rows to `rows`, but those of unit 0 (the items' names): true when it has some. */
function readChunk(chunk: DuckDBDataChunk, c: number, rows: Rows): boolean {
  const a = chunk.getColumnVector(A);
  const t = chunk.getColumnVector(T);
  const code = chunk.getColumnVector(CODE);
  const { unitOf, timeOf, codeOf, chunkOf, rowOf } = rows;
  const count = chunk.rowCount; // a call into DuckDB each time it is read
  let n = rows.n;
  let units = rows.units;
  let named = false;
  for (let r = 0; r < count; r++) {
    const unit = a.getItem(r) as number;
    if (unit === 0) {
      named = true;
      continue;
    }
    unitOf[n] = unit;
    timeOf[n] = t.getItem(r) as number;
    codeOf[n] = code.getItem(r) as number;
    if (chunkOf) {
      chunkOf[n] = c;
      rowOf![n] = r;
    }
    n++;
    if (unit > units) units = unit;
  }
  rows.n = n;
  rows.units = units;
  return named;
}

/** Row numbers grouped by unit into `order` (a counting sort); unit u's are at [starts[u], starts[u + 1]). */
function groupByUnit(rows: Rows, order: Int32Array, starts: Int32Array): void {
  const { n, units, unitOf } = rows;
  for (let i = 0; i < n; i++) starts[unitOf[i]! + 1]!++;
  for (let u = 1; u <= units + 1; u++) starts[u]! += starts[u - 1]!;
  const fill = starts.slice();
  for (let i = 0; i < n; i++) order[fill[unitOf[i]!]!++] = i;
}

/** What routeOfUnit reads, and where it leaves a unit's route. */
interface Walk extends Ordering {
  after: boolean;
  depth: number;
  /** By item: whether it is the selected one, an edge (start or end). */
  sel: Uint8Array;
  edge: Uint8Array;
  /** Where each unit's rows start in `order` (unit u's from starts[u]). */
  starts: Int32Array;
  /**
   * The unit's route is codes[first, end) (its items), from[first, end) the row each comes from,
   * and its anchor is codes[first + anchor]. Both arrays grow to the largest unit's rows.
   */
  codes: Int32Array;
  from: Int32Array;
  first: number;
  end: number;
  anchor: number;
}

/** What ordering a unit's rows reads, and where it puts them. */
interface Ordering {
  timeOf: Float64Array;
  codeOf: Int32Array;
  /** By item: its place among simultaneous rows. */
  role: Uint8Array;
  /** Row numbers grouped by unit; each unit's are put in order here. */
  order: Int32Array;
  /** Room for merging a large unit's rows. */
  spare: Int32Array;
  /** The last tie-break between two rows (their breakdown values), when there is one. */
  tie: ((x: number, y: number) => number) | undefined;
}

/** The order of rows x and y: negative when x comes first. */
function compareRows(w: Ordering, x: number, y: number): number {
  const { timeOf, role, codeOf } = w;
  const d = timeOf[x]! - timeOf[y]! || role[codeOf[x]!]! - role[codeOf[y]!]! || codeOf[x]! - codeOf[y]!;
  return d !== 0 || w.tie === undefined ? d : w.tie(x, y);
}

/** Puts `order[s, e)` in order: by insertion when small or already nearly in order, else by merging. */
function orderUnit(w: Ordering, s: number, e: number): void {
  const order = w.order;
  if (e - s > SMALL_UNIT) {
    let inversions = 0;
    for (let k = s + 1; k < e; k++) if (compareRows(w, order[k - 1]!, order[k]!) > 0) inversions++;
    if (inversions === 0) return;
    if (inversions > 8) return mergeUnit(w, s, e);
  }
  for (let i = s + 1; i < e; i++) {
    const x = order[i]!;
    let j = i - 1;
    while (j >= s && compareRows(w, order[j]!, x) > 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = x;
  }
}

/** Row numbers 0…n-1 in the order routesOf puts one unit's rows (by time, role of the item, item), for tests. */
export function unitOrder(timeOf: Float64Array, codeOf: Int32Array, role: Uint8Array): Int32Array {
  const order = Int32Array.from(timeOf, (_, i) => i);
  orderUnit({ timeOf, codeOf, role, order, spare: new Int32Array(0), tie: undefined }, 0, order.length);
  return order;
}

/** A bottom-up merge sort of `order[s, e)`. */
function mergeUnit(w: Ordering, s: number, e: number): void {
  const len = e - s;
  if (w.spare.length < len) w.spare = new Int32Array(Math.max(len, w.spare.length * 2));
  let src: Int32Array = w.order.subarray(s, e);
  let dst: Int32Array = w.spare.subarray(0, len);
  for (let width = 1; width < len; width *= 2) {
    for (let lo = 0; lo < len; lo += 2 * width) {
      const mid = Math.min(lo + width, len);
      const hi = Math.min(lo + 2 * width, len);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) dst[k++] = compareRows(w, src[j]!, src[i]!) < 0 ? src[j++]! : src[i++]!;
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  if (src.buffer !== w.order.buffer) w.order.set(src, s);
}

/**
 * Orders a unit's rows and leaves its route in `w` (codes[first, end), from, anchor): repeats
 * collapsed, from the anchor `depth` items on (after) or `depth` items back to it (before), cut at
 * the first edge item. False when the unit has no anchor.
 */
function routeOfUnit(w: Walk, s: number, e: number): boolean {
  if (e === s) return false;
  orderUnit(w, s, e);
  if (w.codes.length < e - s) {
    w.codes = new Int32Array(2 * (e - s));
    w.from = new Int32Array(2 * (e - s));
  }
  const { after, depth, codeOf, order, sel, edge, codes, from } = w;
  let n = 0;
  for (let k = s; k < e; k++) {
    const i = order[k]!;
    const item = codeOf[i]!;
    if (n > 0 && codes[n - 1] === item) continue;
    // After the anchor only `depth` more items are needed.
    if (after && n > depth) break;
    codes[n] = item;
    from[n++] = i;
  }
  let anchor = 0;
  if (!after) while (anchor < n && !sel[codes[anchor]!]) anchor++;
  if (anchor === n) return false;
  let first = anchor;
  let last = anchor;
  for (let k = 1; k <= depth; k++) {
    const at = after ? anchor + k : anchor - k;
    if (at < 0 || at >= n) break;
    if (after) last = at;
    else first = at;
    if (edge[codes[at]!]) break;
  }
  w.first = first;
  w.end = last + 1;
  w.anchor = anchor - first;
  return true;
}

/**
 * The routes counted so far as a tree of item numbers in flat arrays: node 0 is the empty route,
 * and a node's child for an item is found in an open-addressing table keyed by both, so counting
 * a unit's route allocates nothing.
 */
export class RouteTree {
  /** By node: the route one item shorter, its last item, and the units whose route it is. */
  parent: Int32Array = new Int32Array(16);
  item: Int32Array = new Int32Array(16);
  units: Int32Array = new Int32Array(16);
  private size = 1;
  /** Nodes by slot (0: free); the length is a power of two, at most half full. */
  private slots = new Int32Array(32);

  /** The node of route codes[first, end), added when new. */
  nodeOf(codes: Int32Array, first: number, end: number): number {
    let node = 0;
    for (let k = first; k < end; k++) node = this.child(node, codes[k]!);
    return node;
  }

  /** The items of a node's route, first to last. */
  codesOf(node: number): number[] {
    const codes: number[] = [];
    for (let at = node; at !== 0; at = this.parent[at]!) codes.push(this.item[at]!);
    return codes.reverse();
  }

  private child(node: number, item: number): number {
    const mask = this.slots.length - 1;
    let slot = slotOf(node, item) & mask;
    for (let at = this.slots[slot]!; at !== 0; at = this.slots[slot]!) {
      if (this.parent[at] === node && this.item[at] === item) return at;
      slot = (slot + 1) & mask;
    }
    if (this.size === this.parent.length) {
      this.parent = grown(this.parent);
      this.item = grown(this.item);
      this.units = grown(this.units);
    }
    const added = this.size++;
    this.parent[added] = node;
    this.item[added] = item;
    this.slots[slot] = added;
    if (2 * this.size > this.slots.length) this.rehash();
    return added;
  }

  private rehash(): void {
    this.slots = new Int32Array(2 * this.slots.length);
    const mask = this.slots.length - 1;
    for (let node = 1; node < this.size; node++) {
      let slot = slotOf(this.parent[node]!, this.item[node]!) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = node;
    }
  }
}

/** A slot number for (node, item): multiplicative hashing, mixed so low bits vary. */
function slotOf(node: number, item: number): number {
  const h = Math.imul(node, 0x9e3779b1) ^ Math.imul(item, 0x85ebca6b);
  return h ^ (h >>> 15);
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

/** Breakdown values in the query's order: by text (byte order), none last. */
function compareValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareText(a, b);
}

export async function runPaths(store: EventStore, p: PathsParams, ctx: QueryContext): Promise<PathsRun> {
  const range = effectiveRange(p, ctx);
  const q = pathsSql(p, range, ctx);
  return { range, ...(await store.readChunks(q.sql, q.params, { timeoutMs: ctx.timeoutMs }, (result) => routesOf(result, p))) };
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

/** The `n` ids with the largest tallies (ties by name); only those at the cut are compared by name. */
function topIds(tally: Float64Array, n: number, names: readonly string[]): number[] {
  const present = [...tally.keys()].filter((id) => tally[id]! > 0);
  if (present.length <= n) return present;
  const cut = Float64Array.from(present, (id) => tally[id]!).sort()[present.length - n]!;
  return present
    .filter((id) => tally[id]! >= cut)
    .sort((x, y) => tally[y]! - tally[x]! || compareText(names[x]!, names[y]!))
    .slice(0, n);
}

/** The most frequent routes: count ≥ min_count, at most top_n, ties by the route's items. */
function topRoutes(routes: RouteCount[], p: PathsParams, units: number): PathRoute[] {
  // Only routes at least as frequent as the top_n-th can be listed: compare those by their items.
  const ns = unitsOf(routes).sort();
  const floor = Math.max(p.min_count, ns[ns.length - p.top_n] ?? 0);
  return routes
    .filter((r) => r.n >= floor)
    .sort((a, b) => b.n - a.n || compareRoutes(a.items, b.items))
    .slice(0, p.top_n)
    .map((r) => ({ items: r.items, count: r.n, share: r.n / units }));
}

/**
 * The Sankey graph, built outwards from the anchor. At each step the top_n items (by units, ties
 * by item) keep their name and the rest fold into `$other`; a unit whose route stopped goes to
 * `$end`; a link carrying fewer than min_count units into a named item goes to `$other` instead.
 * So each step's nodes add up to the units still on their route one step nearer the anchor.
 *
 * Like routesOf, its loops are small functions without closures over typed arrays, so that V8
 * optimizes them once.
 */
function sankeyOf(routes: RouteCount[], p: PathsParams, items: readonly string[]): PathsGraph['sankey'] {
  const after = p.direction === 'after';
  // An item's id is its code + 1 (codes start at 1): 0 is $end, 1 is $other, so each step's
  // tallies are array reads.
  const names = [END, OTHER, ...items.slice(1)];
  const g: Graph = {
    ids: names.length,
    steps: p.depth + 1,
    outwards: outwardIds(routes, p.depth + 1, after),
    units: unitsOf(routes),
    live: rowNumbers(routes.length),
    alive: routes.length,
    folded: new Int32Array(routes.length),
    nodeOf: new Int32Array(routes.length),
  };
  const nodes: SankeyNode[] = [];
  const links: Array<{ from: number; to: number; value: number }> = [];
  // The nodes of the step before are nodes[before, nodes.length).
  let before = 0;
  for (let k = 0; k <= p.depth && g.alive > 0; k++) {
    const kept = new Uint8Array(g.ids);
    const raw = unitsById(g, g.outwards, g.steps, k);
    raw[0] = 0; // $end is not an item to keep
    for (const id of topIds(raw, p.top_n, names)) kept[id] = 1;
    fold(g, k, kept);
    const width = nodes.length - before;
    if (k > 0) foldThinLinks(g, before, width, p.min_count);
    const counts = unitsById(g, g.folded, 1, 0);
    const ordered = [...counts.keys()].filter((id) => counts[id]! > 0);
    ordered.sort((x, y) => endsLast(x) - endsLast(y) || counts[y]! - counts[x]! || compareText(names[x]!, names[y]!));
    const start = nodes.length;
    const index = new Int32Array(g.ids);
    const step = after ? k : -k;
    for (const id of ordered) {
      index[id] = nodes.length;
      nodes.push({ step, item: names[id]!, count: counts[id]! });
    }
    if (k > 0) {
      const carried = linkUnits(g, before, width, index, start, ordered.length);
      for (let cell = 0; cell < carried.length; cell++) {
        if (carried[cell]! > 0) links.push({ from: before + Math.floor(cell / ordered.length), to: start + (cell % ordered.length), value: carried[cell]! });
      }
    }
    before = start;
    goOn(g, index);
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

/** The routes as sankeyOf walks them, step by step away from the anchor. */
interface Graph {
  /** Item ids: 0 $end, 1 $other, code + 1 an item. */
  ids: number;
  steps: number;
  /** By route and step (route * steps + step): the item id there, 0 past the route's end. */
  outwards: Int32Array;
  /** By route: its units. */
  units: Float64Array;
  /** The routes still going at this step: live[0, alive). */
  live: Int32Array;
  alive: number;
  /** By route: its item id at this step once folded ($other for items past top_n or thin links). */
  folded: Int32Array;
  /** By route: its node at the step before. */
  nodeOf: Int32Array;
}

/** By route, its units. */
function unitsOf(routes: RouteCount[]): Float64Array {
  const units = new Float64Array(routes.length);
  for (let i = 0; i < routes.length; i++) units[i] = routes[i]!.n;
  return units;
}

/** 0, 1, …, n - 1. */
function rowNumbers(n: number): Int32Array {
  const numbers = new Int32Array(n);
  for (let i = 0; i < n; i++) numbers[i] = i;
  return numbers;
}

/** $end after $other after items. */
function endsLast(id: number): number {
  return id === 0 ? 2 : id === 1 ? 1 : 0;
}

/** By route and step, the route's item id counted outwards from the anchor. */
function outwardIds(routes: RouteCount[], steps: number, after: boolean): Int32Array {
  const outwards = new Int32Array(routes.length * steps);
  for (let i = 0; i < routes.length; i++) {
    const codes = routes[i]!.codes;
    for (let k = 0; k < codes.length; k++) outwards[i * steps + (after ? k : codes.length - 1 - k)] = codes[k]! + 1;
  }
  return outwards;
}

/** By item id, the units of the live routes whose id is that in ids[route * stride + at]. */
function unitsById(g: Graph, ids: Int32Array, stride: number, at: number): Float64Array {
  const units = new Float64Array(g.ids);
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    units[ids[i * stride + at]!]! += g.units[i]!;
  }
  return units;
}

/** Each live route's item at step k, $other when not kept. */
function fold(g: Graph, k: number, kept: Uint8Array): void {
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    const id = g.outwards[i * g.steps + k]!;
    g.folded[i] = id === 0 ? 0 : kept[id] ? id : 1;
  }
}

/** A link below min_count into a named item goes to $other of this step instead. */
function foldThinLinks(g: Graph, before: number, width: number, minCount: number): void {
  const carried = new Float64Array(width * g.ids);
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    carried[(g.nodeOf[i]! - before) * g.ids + g.folded[i]!]! += g.units[i]!;
  }
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    if (g.folded[i]! > 1 && carried[(g.nodeOf[i]! - before) * g.ids + g.folded[i]!]! < minCount) g.folded[i] = 1;
  }
}

/** Units by (node of the step before, node of this step), a row per node before. */
function linkUnits(g: Graph, before: number, width: number, index: Int32Array, start: number, nodes: number): Float64Array {
  const carried = new Float64Array(width * nodes);
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    carried[(g.nodeOf[i]! - before) * nodes + index[g.folded[i]!]! - start]! += g.units[i]!;
  }
  return carried;
}

/** Keeps the routes that did not end at this step, each at its node. */
function goOn(g: Graph, index: Int32Array): void {
  let alive = 0;
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    if (g.folded[i] === 0) continue;
    g.live[alive++] = i;
    g.nodeOf[i] = index[g.folded[i]!]!;
  }
  g.alive = alive;
}

function graphOf(routes: RouteCount[], p: PathsParams, names: readonly string[]): PathsGraph {
  const units = routes.reduce((s, r) => s + r.n, 0);
  return { units, routes: topRoutes(routes, p, units), sankey: sankeyOf(routes, p, names) };
}

/** Routes with the same items merged (after the breakdown values were dropped or folded). */
function merged(rows: RouteCount[]): RouteCount[] {
  const byRoute = new Map<string, RouteCount>();
  for (const r of rows) {
    const key = r.codes.join(',');
    const m = byRoute.get(key);
    if (m) m.n += r.n;
    else byRoute.set(key, { ...r, bval: null });
  }
  return [...byRoute.values()];
}

function segmentsOf(run: PathsRun, p: PathsParams): PathsSegment[] {
  const { rows, names } = run;
  const totals = new Map<string | null, number>();
  for (const r of rows) totals.set(r.bval, (totals.get(r.bval) ?? 0) + r.n);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || compareValues(a[0], b[0]));
  const limit = p.breakdown!.limit;
  const segments: PathsSegment[] = ranked.slice(0, limit).map(([value]) => ({
    name: value === null ? '$none' : value,
    value,
    ...graphOf(rows.filter((r) => r.bval === value), p, names),
  }));
  if (ranked.length > limit) {
    const rest = new Set(ranked.slice(limit).map(([v]) => v));
    segments.push({ name: '$other', value: null, ...graphOf(merged(rows.filter((r) => rest.has(r.bval))), p, names) });
  }
  return segments;
}

export function shapePaths(run: PathsRun, p: PathsParams): PathsResponse {
  const response: PathsResponse = {
    ...run.range,
    direction: p.direction,
    counted: p.mode === 'actor' ? 'actors' : 'sessions',
    // Without a breakdown every route is one row already.
    ...graphOf(p.breakdown ? merged(run.rows) : run.rows, p, run.names),
  };
  if (p.breakdown) response.breakdown = segmentsOf(run, p);
  return response;
}
