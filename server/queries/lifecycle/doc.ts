// Lifecycle: the operation's documentation; its request and response schemas are in ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const lifecycleDoc: QueryOperationDoc = {
  operationId: 'queryLifecycle',
  summary: 'Lifecycle: new, returning, resurrecting and dormant actors per bucket',
  description: 'dormant is reported as a non-positive number.',
  request: 'LifecycleRequest',
  response: 'LifecycleResponse',
  gated: true,
};
