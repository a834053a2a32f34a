// Paths: each unit's route read from the statement's result (grouped by unit, put in order,
// repeats collapsed, anchored and cut), then counted. Allocates per result, not per row.

import { compareText } from '../../engine/sql.js';
import { RouteTree } from './routeTree.js';
import type { PathsRun } from './run.js';
import { PAGE_VIEW, type PathsParams } from './types.js';

/** One route counted: the anchor's breakdown value, the items, and the units that took it. */
export interface RouteCount {
  bval: string | null;
  items: string[];
  /** The items as pathsSql numbers them (see PathsRun.names). */
  codes: number[];
  n: number;
}

/** What routesOf reads of a result: DuckDB's materialized result, or rows another engine read put in its shape. */
export interface RouteResult {
  readonly chunkCount: number;
  getChunk(c: number): RouteChunk;
}

interface RouteChunk {
  readonly rowCount: number;
  getColumnVector(column: number): { getItem(row: number): unknown };
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
export function routesOf(result: RouteResult, p: PathsParams, listing = false): Pick<PathsRun, 'rows' | 'names' | 'units'> {
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
  const actors: string[] = [];
  for (const [c, chunk] of chunks.entries()) {
    if (!readChunk(chunk, c, rows)) continue;
    // This chunk has rows naming items (unit 0), or in a listing units' actors (unit -u).
    const [a, t, code, text] = [A, T, CODE, BVAL].map((column) => chunk.getColumnVector(column));
    for (let r = 0; r < chunk.rowCount; r++) {
      const unit = a!.getItem(r) as number;
      if (unit < 0) actors[-unit] = text!.getItem(r) as string;
      if (unit !== 0) continue;
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
  if (!listing) return { rows: countRoutes(walk, rows.units, names, p.breakdown ? bvalOf : undefined), names };
  // A listing counts the whole (the breakdown is not asked for) and keeps each unit's route.
  const nodeOfUnit = new Int32Array(rows.units + 1).fill(-1);
  const counted = countRoutes(walk, rows.units, names, undefined, nodeOfUnit);
  return { rows: counted.rows, names, units: { actor: actors, route: counted.routeOfUnit(nodeOfUnit) } };
}

/**
 * Every unit's route counted: without a breakdown on its node of the route tree, with one by
 * node and the anchor's value. In the order each was first seen.
 */
function countRoutes(walk: Walk, units: number, names: readonly string[], bvalOf: ((row: number) => string | null) | undefined): RouteCount[];
function countRoutes(walk: Walk, units: number, names: readonly string[], bvalOf: undefined, nodeOfUnit: Int32Array): UnitRoutes;
function countRoutes(walk: Walk, units: number, names: readonly string[], bvalOf: ((row: number) => string | null) | undefined, nodeOfUnit?: Int32Array): RouteCount[] | UnitRoutes {
  const { starts } = walk;
  const tree = new RouteTree();
  const firstSeen: number[] = [];
  const byValue = new Map<string, RouteCount>();
  const counted: RouteCount[] = [];
  for (let u = 1; u <= units; u++) {
    if (!routeOfUnit(walk, starts[u]!, starts[u + 1]!)) continue;
    const node = tree.nodeOf(walk.codes, walk.first, walk.end);
    if (nodeOfUnit) nodeOfUnit[u] = node;
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
  if (!nodeOfUnit) return counted;
  // Each unit's route as its place in `counted` (-1 for a unit without one).
  const routeOf = new Map(firstSeen.map((node, i) => [node, i]));
  return { rows: counted, routeOfUnit: (nodes: Int32Array) => Int32Array.from(nodes, (node) => (node < 0 ? -1 : routeOf.get(node)!)) };
}

/** The routes counted, and a unit's route tree node turned into its place among them. */
interface UnitRoutes {
  rows: RouteCount[];
  routeOfUnit(nodes: Int32Array): Int32Array;
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
function readChunk(chunk: RouteChunk, c: number, rows: Rows): boolean {
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
    if (unit <= 0) {
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

/** Breakdown values in the query's order: by text (byte order), none last. */
export function compareValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareText(a, b);
}
