// Correlations: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const correlationsDoc: QueryOperationDoc = {
  operationId: 'queryCorrelations',
  summary: 'Correlations: events that go with reaching a target event, by lift',
  description:
    "Converters are observed before their first target event, others for the converters' median time to convert from their first activity. Odds ratios with 95% intervals, p and Benjamini–Hochberg q values. Associations, not causes.",
  request: 'CorrelationsRequest',
  response: 'CorrelationsResponse',
  gated: true,
};
