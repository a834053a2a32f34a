// Paths: the operation's documentation; its request and response schemas are in ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const pathsDoc: QueryOperationDoc = {
  operationId: 'queryPaths',
  summary: 'Paths: the routes taken after or before a selected event',
  description:
    'Top routes and a Sankey graph whose steps add up ($other folds items past top_n and links below min_count, $end the routes that stopped). Page views are their cleaned paths (see the path-cleaning rules). mode=session needs actor_drilldown.',
  request: 'PathsRequest',
  response: 'PathResponse',
  gated: true,
};
