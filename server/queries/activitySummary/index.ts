// Activity summary for one completed local day: DAU, and WAU and MAU as exact distinct actors over
// the trailing 7 and 30 local days (never sums of daily uniques), with the ratios derived from them.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { activitySummaryDoc } from './doc.js';
import { runActivitySummary } from './run.js';
import { shapeActivitySummary } from './shape.js';
import type { ActivitySummaryParams } from './types.js';
import { validateActivitySummary } from './validate.js';

export const activitySummaryRoute: QueryRoute<ActivitySummaryParams> = {
  name: 'activity_summary',
  path: 'activity-summary',
  doc: activitySummaryDoc,
  validate: validateActivitySummary,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeActivitySummary(await runActivitySummary(engine, p, ctx), p),
};
