// Paths: the graph of the counted routes: the most frequent whole routes, and the Sankey graph
// folded step by step away from the anchor so that every step adds up. Pure.

import { compareText } from '../../engine/sql.js';
import type { RouteCount } from './routes.js';
import { END, OTHER, type PathRoute, type PathsGraph, type PathsParams, type SankeyNode } from './types.js';

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
function sankeyOf(routes: RouteCount[], p: PathsParams, items: readonly string[], trail?: Int32Array): PathsGraph['sankey'] {
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
    if (trail) markTrail(g, index, trail, k);
    goOn(g, index);
  }
  // Nodes in step order; links forward in time (before the anchor: from the earlier step).
  const order = nodes.map((_, i) => i).sort((x, y) => nodes[x]!.step - nodes[y]!.step || x - y);
  const position = new Int32Array(nodes.length);
  order.forEach((old, i) => (position[old] = i));
  if (trail) for (let i = 0; i < trail.length; i++) if (trail[i]! >= 0) trail[i] = position[trail[i]!]!;
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
export function unitsOf(routes: RouteCount[]): Float64Array {
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

/** Each live route's node at step k, into trail[route * steps + k]. */
function markTrail(g: Graph, index: Int32Array, trail: Int32Array, k: number): void {
  for (let j = 0; j < g.alive; j++) {
    const i = g.live[j]!;
    trail[i * g.steps + k] = index[g.folded[i]!]!;
  }
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

export function graphOf(routes: RouteCount[], p: PathsParams, names: readonly string[]): PathsGraph {
  const units = routes.reduce((s, r) => s + r.n, 0);
  return { units, routes: topRoutes(routes, p, units), sankey: sankeyOf(routes, p, names) };
}

/**
 * The whole graph, and by route and step outwards from the anchor (route * (depth + 1) + step)
 * the node of `sankey.nodes` the route's units pass through there, -1 past its end.
 */
export function graphTrails(routes: RouteCount[], p: PathsParams, names: readonly string[]): { sankey: PathsGraph['sankey']; trail: Int32Array } {
  const trail = new Int32Array(routes.length * (p.depth + 1)).fill(-1);
  return { sankey: sankeyOf(routes, p, names, trail), trail };
}
