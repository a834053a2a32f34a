// Retention actors: who is behind one cell of a retention table (one cohort, one period), with the
// parent query's semantics recompiled from the same cohort CTEs, ordered by actor id, paginated.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { retentionActorsDoc } from './doc.js';
import { runRetentionActors } from './run.js';
import { shapeRetentionActors } from './shape.js';
import type { RetentionActorsParams } from './types.js';
import { validateRetentionActors } from './validate.js';

export const retentionActorsRoute: QueryRoute<RetentionActorsParams> = {
  name: 'retention_actors',
  path: 'retention/actors',
  doc: retentionActorsDoc,
  validate: validateRetentionActors,
  entitlements: () => ['actor_drilldown', 'saved_segments'],
  execute: async (engine, p, ctx, cursors) => shapeRetentionActors(await runRetentionActors(engine, p, ctx, cursors), p, cursors),
};
