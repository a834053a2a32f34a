// Stickiness: the operation's documentation; its request and response schemas are in ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const stickinessDoc: QueryOperationDoc = {
  operationId: 'queryStickiness',
  summary: 'Stickiness: actors by number of distinct active days',
  description: 'One entry per possible day count (1..days in range), zero-filled.',
  request: 'StickinessRequest',
  response: 'StickinessResponse',
  gated: true,
};
