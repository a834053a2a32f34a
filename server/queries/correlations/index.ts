// Correlations: which events go with reaching a target event, per actor, ranked by lift. Every
// actor is observed for the same kind of span: converters before their first target event,
// others for the converters' median time to convert from their first activity, so that people who
// never convert do not look busier merely for being watched longer. Association, never cause.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { correlationsDoc } from './doc.js';
import { runCorrelations } from './run.js';
import { shapeCorrelations } from './shape.js';
import type { CorrelationsParams } from './types.js';
import { validateCorrelations } from './validate.js';

export const correlationsRoute: QueryRoute<CorrelationsParams> = {
  name: 'correlations',
  path: 'correlations',
  doc: correlationsDoc,
  validate: validateCorrelations,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeCorrelations(await runCorrelations(engine, p, ctx), p),
};
