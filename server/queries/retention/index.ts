// Retention: actors grouped into cohorts by the bucket of their first start event in the range, and
// per later period the share who came back, the revenue per cohort member so far, or the share who
// have paid so far. The cohort and return CTEs are shared with retentionActors/.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { retentionDoc } from './doc.js';
import { runRetention } from './run.js';
import { shapeRetention } from './shape.js';
import type { RetentionParams } from './types.js';
import { validateRetention } from './validate.js';

export const retentionRoute: QueryRoute<RetentionParams> = {
  name: 'retention',
  path: 'retention',
  doc: retentionDoc,
  validate: validateRetention,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeRetention(await runRetention(engine, p, ctx), p, ctx),
};
