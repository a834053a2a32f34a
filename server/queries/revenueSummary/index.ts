// Revenue summary over a range: signed revenue, refunds, and per-actor averages where every active
// actor counts once over the whole range (ARPU) and paying means a positive total (ARPPU), in the
// project's currency, which the answer names.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { revenueSummaryDoc } from './doc.js';
import { runRevenueSummary } from './run.js';
import { shapeRevenueSummary } from './shape.js';
import type { RevenueSummaryParams } from './types.js';
import { validateRevenueSummary } from './validate.js';

export const revenueSummaryRoute: QueryRoute<RevenueSummaryParams> = {
  name: 'revenue_summary',
  path: 'revenue-summary',
  doc: revenueSummaryDoc,
  validate: validateRevenueSummary,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeRevenueSummary(await runRevenueSummary(engine, p, ctx), p, ctx.currency),
};
