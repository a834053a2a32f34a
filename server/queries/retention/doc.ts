// Retention: the operation's documentation; its request and response schemas are in ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const retentionDoc: QueryOperationDoc = {
  operationId: 'queryRetention',
  summary: 'Retention by cohort of first start event',
  description: 'value=actors gives per-period ratios and counts; revenue, cumulative revenue per cohort member in the project currency; paid_conversion, the cumulative share that paid.',
  request: 'RetentionRequest',
  response: 'RetentionResponse',
  gated: true,
};
