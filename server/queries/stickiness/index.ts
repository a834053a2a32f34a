// Stickiness: among actors who did the event in the range, how many did it on exactly 1, 2, … n
// distinct local days (n = days in the range), zero-filled.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { stickinessDoc } from './doc.js';
import { runStickiness } from './run.js';
import { shapeStickiness } from './shape.js';
import type { StickinessParams } from './types.js';
import { validateStickiness } from './validate.js';

export const stickinessRoute: QueryRoute<StickinessParams> = {
  name: 'stickiness',
  path: 'stickiness',
  doc: stickinessDoc,
  validate: validateStickiness,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeStickiness(await runStickiness(engine, p, ctx), p),
};
