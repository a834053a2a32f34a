// Activity summary: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const activitySummaryDoc: QueryOperationDoc = {
  operationId: 'queryActivitySummary',
  summary: 'DAU, WAU, MAU and usage ratios for one local day',
  description: 'WAU and MAU are exact distinct actors over the trailing 7 and 30 local days ending at date_to.',
  request: 'ActivitySummaryRequest',
  response: 'ActivitySummaryResponse',
  gated: false,
};
