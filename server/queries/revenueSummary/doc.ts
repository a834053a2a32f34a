// Revenue summary: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const revenueSummaryDoc: QueryOperationDoc = {
  operationId: 'queryRevenueSummary',
  summary: 'Revenue, refunds, ARPU and ARPPU over a range',
  description: 'ARPU divides revenue by distinct active actors over the whole range, each counted once.',
  request: 'RevenueSummaryRequest',
  response: 'RevenueSummaryResponse',
  gated: true,
};
