// Paths actors: the operation's documentation; its request and response schemas are in
// ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const pathsActorsDoc: QueryOperationDoc = {
  operationId: 'queryPathsActors',
  summary: 'Actors through one node or link of a paths graph',
  description:
    'The paths query with the same semantics (the whole graph, never a breakdown segment), and a node (step, item) or a link (step, item to next_item at step + 1) of its Sankey graph; the actors whose routes pass through it, ordered by actor id and cursor-paginated. Needs actor_drilldown.',
  request: 'PathsActorsRequest',
  response: 'PathsActorsResponse',
  gated: true,
};
