// Funnel: how far actors (or attempts) get through ordered steps within a conversion window, with
// an optional breakdown, comparison range, revenue-at-risk estimate and the actors who dropped at a
// step. Validation, SQL, execution and shaping are separate stages; the route only wires them.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { funnelDoc } from './doc.js';
import { runFunnel } from './run.js';
import { shapeFunnel } from './shape.js';
import type { FunnelParams } from './types.js';
import { validateFunnel } from './validate.js';

export const funnelRoute: QueryRoute<FunnelParams> = {
  name: 'funnel',
  path: 'funnel',
  doc: funnelDoc,
  validate: validateFunnel,
  entitlements: (p) => (p.dropped_at_step !== undefined ? ['actor_drilldown'] : []),
  execute: async (engine, p, ctx, cursors) => shapeFunnel(await runFunnel(engine, p, ctx, cursors), p, cursors),
};
