// Activation drivers: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const activationDriversDoc: QueryOperationDoc = {
  operationId: 'queryActivationDrivers',
  summary: 'Activation drivers: early behaviors that go with being retained',
  description:
    'Discovery (70% of actors by a hash of their id) picks each candidate’s window and threshold by phi; validation (the other 30%) judges that choice once. Actors whose outcome window is open at as_of are left out. Associations, not causes.',
  request: 'ActivationDriversRequest',
  response: 'ActivationDriversResponse',
  gated: true,
};
