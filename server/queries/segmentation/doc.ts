// Segmentation: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const segmentationDoc: QueryOperationDoc = {
  operationId: 'querySegmentation',
  summary: 'Segmentation: a metric per time bucket, optionally grouped',
  description: 'Buckets are local to the project time zone and zero-filled; group_by ranks values by the metric over the whole range.',
  request: 'SegmentationRequest',
  response: 'SegmentationResponse',
  gated: true,
};
