// Lifecycle: per bucket, active actors split into new, returning and resurrecting, and the actors
// who went dormant (reported as a non-positive number). Buckets are whole local days or weeks, the
// first one and the one before it included even where they start before date_from.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { lifecycleDoc } from './doc.js';
import { runLifecycle } from './run.js';
import { shapeLifecycle } from './shape.js';
import type { LifecycleParams } from './types.js';
import { validateLifecycle } from './validate.js';

export const lifecycleRoute: QueryRoute<LifecycleParams> = {
  name: 'lifecycle',
  path: 'lifecycle',
  doc: lifecycleDoc,
  validate: validateLifecycle,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeLifecycle(await runLifecycle(engine, p, ctx), p),
};
