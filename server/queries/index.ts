// Which module answers which query route: its documentation, semantic validation, the entitlements
// its parameters call for, and execute = shape(run(...)). routes.ts mounts every entry the same way.

import type { FilterItem } from '../engine/filters.js';
import type { QueryRoute } from './queryRoute.js';
import { correlationsRoute } from './correlations/index.js';
import { activationDriversRoute } from './activationDrivers/index.js';
import { funnelRoute } from './funnel/index.js';
import { retentionActorsRoute } from './retentionActors/index.js';
import { retentionRoute } from './retention/index.js';
import { segmentationRoute } from './segmentation/index.js';
import { revenueSummaryRoute } from './revenueSummary/index.js';
import { activitySummaryRoute } from './activitySummary/index.js';
import { lifecycleRoute } from './lifecycle/index.js';
import { stickinessRoute } from './stickiness/index.js';
import { runPaths, shapePaths, validatePaths, type PathsParams } from './paths.js';

export type { QueryRoute };

const paths: QueryRoute<PathsParams> = {
  name: 'paths',
  path: 'paths',
  doc: {
    operationId: 'queryPaths',
    summary: 'Paths: the routes taken after or before a selected event',
    description:
      'Top routes and a Sankey graph whose steps add up ($other folds items past top_n and links below min_count, $end the routes that stopped). Page views are their cleaned paths (see the path-cleaning rules). mode=session needs actor_drilldown.',
    request: 'PathsRequest',
    response: 'PathResponse',
    gated: true,
  },
  validate: validatePaths,
  entitlements: (p) => (p.mode === 'session' ? ['actor_drilldown'] : []),
  execute: async (store, p, ctx) => shapePaths(await runPaths(store, p, ctx), p),
};

export const QUERIES: QueryRoute[] = [
  funnelRoute, retentionRoute, retentionActorsRoute, segmentationRoute, lifecycleRoute, stickinessRoute, activitySummaryRoute, revenueSummaryRoute, paths, correlationsRoute, activationDriversRoute,
];

/** Every `filters` list of a query body: the top-level one and, for funnels, each step's. */
export function filterListsOf(p: { filters?: FilterItem[]; steps?: Array<{ filters?: FilterItem[] }> }): FilterItem[][] {
  return [p.filters ?? [], ...(p.steps ?? []).map((s) => s.filters ?? [])];
}
