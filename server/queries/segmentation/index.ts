// Segmentation: one metric of matching events per local time bucket (zero-filled), optionally one
// series per top value of a property with the rest folded into `$other`, and a comparison range.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { segmentationDoc } from './doc.js';
import { runSegmentation } from './run.js';
import { shapeSegmentation } from './shape.js';
import type { SegmentationParams } from './types.js';
import { validateSegmentation } from './validate.js';

export const segmentationRoute: QueryRoute<SegmentationParams> = {
  name: 'segmentation',
  path: 'segmentation',
  doc: segmentationDoc,
  validate: validateSegmentation,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeSegmentation(await runSegmentation(engine, p, ctx), p, ctx),
};
