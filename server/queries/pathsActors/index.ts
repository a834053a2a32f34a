// Paths actors: who is behind one node or link of a paths graph. The paths statement runs as a
// listing (each unit's actor kept beside its route), the graph is folded as the paths answer
// folds it, and the actors whose units pass there are listed by actor id, paginated, each saying
// whether they have recordings to watch.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { pathsActorsDoc } from './doc.js';
import { recordedActors, runPathsActors } from './run.js';
import { pageOfActors, shapePathsActors } from './shape.js';
import type { PathsActorsParams } from './types.js';
import { validatePathsActors } from './validate.js';

export const pathsActorsRoute: QueryRoute<PathsActorsParams> = {
  // The paths query's time limit applies.
  name: 'paths',
  path: 'paths/actors',
  doc: pathsActorsDoc,
  validate: validatePathsActors,
  entitlements: () => ['actor_drilldown'],
  execute: async (engine, p, ctx, cursors) => {
    const run = await runPathsActors(engine, p, ctx, cursors);
    const page = pageOfActors(run, p);
    return shapePathsActors(run, page, await recordedActors(engine, ctx, page.page), p, cursors);
  },
};
