// Paths actors: who is behind one node or link of a paths graph. The paths statement runs as a
// listing (each unit's actor kept beside its route), the graph is folded as the paths answer
// folds it, and the actors whose units pass there are listed by actor id, paginated.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { pathsActorsDoc } from './doc.js';
import { runPathsActors } from './run.js';
import { shapePathsActors } from './shape.js';
import type { PathsActorsParams } from './types.js';
import { validatePathsActors } from './validate.js';

export const pathsActorsRoute: QueryRoute<PathsActorsParams> = {
  // The paths query's time limit applies.
  name: 'paths',
  path: 'paths/actors',
  doc: pathsActorsDoc,
  validate: validatePathsActors,
  entitlements: () => ['actor_drilldown'],
  execute: async (engine, p, ctx, cursors) => shapePathsActors(await runPathsActors(engine, p, ctx, cursors), p, cursors),
};
