// Retention actors: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const retentionActorsDoc: QueryOperationDoc = {
  operationId: 'queryRetentionActors',
  summary: 'Actors of one retention cohort and period',
  description: 'Same semantics as retention; ordered by actor id; needs actor_drilldown and saved_segments.',
  request: 'RetentionActorsRequest',
  response: 'RetentionActorsResponse',
  gated: true,
};
