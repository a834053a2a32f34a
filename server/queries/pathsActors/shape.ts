// Paths actors: the graph of the whole folded again with each route's nodes kept, and the actors
// whose units pass through the node (or along the link), ordered by actor id and paged. Pure.

import { compareText } from '../../engine/sql.js';
import type { CursorCodec } from '../cursors.js';
import { graphTrails } from '../paths/graph.js';
import type { PathsActorsRun } from './run.js';
import type { PathsActorsParams, PathsActorsResponse } from './types.js';

/** The node's (or link's) units and actors, and the page of them asked for. */
export interface PathsActorsPage {
  units: number;
  total: number;
  page: string[];
  more: boolean;
}

export function pageOfActors(run: PathsActorsRun, p: PathsActorsParams): PathsActorsPage {
  const { sankey, trail } = graphTrails(run.rows, p, run.names);
  const nodeAt = (step: number, item: string) => sankey.nodes.findIndex((n) => n.step === step && n.item === item);
  // Trails count steps outwards from the anchor; a link joins a node and the next one in time.
  const steps = p.depth + 1;
  const source = nodeAt(p.step, p.item);
  const target = p.next_item === undefined ? -1 : nodeAt(p.step + 1, p.next_item);
  const through = (route: number) =>
    source >= 0 && trail[route * steps + Math.abs(p.step)] === source && (p.next_item === undefined || (target >= 0 && trail[route * steps + Math.abs(p.step + 1)] === target));

  const { actor, route } = run.units!;
  let units = 0;
  const actors = new Set<string>();
  for (let u = 1; u < route.length; u++) {
    if (route[u]! < 0 || !through(route[u]!)) continue;
    units++;
    actors.add(actor[u]!);
  }
  const sorted = [...actors].sort(compareText);
  const from = run.after === undefined ? 0 : sorted.findIndex((a) => compareText(a, run.after!) > 0);
  const page = from < 0 ? [] : sorted.slice(from, from + p.limit);
  const more = from >= 0 && from + p.limit < sorted.length;
  return { units, total: sorted.length, page, more };
}

export function shapePathsActors(run: PathsActorsRun, page: PathsActorsPage, recorded: Set<string>, p: PathsActorsParams, cursors: CursorCodec): PathsActorsResponse {
  return {
    step: p.step,
    item: p.item,
    next_item: p.next_item ?? null,
    units: page.units,
    total: page.total,
    items: page.page.map((actor_id) => ({ actor_id, recorded: recorded.has(actor_id) })),
    next_cursor: page.more ? cursors.encode(run.scope, page.page.at(-1)) : null,
  };
}
