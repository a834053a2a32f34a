// The analytical query routes, one folder each (see queryRoute.ts for what a route is), in the
// order the OpenAPI document lists them. routes.ts mounts every entry the same way.

import type { FilterItem } from '../engine/filters.js';
import type { QueryRoute } from './queryRoute.js';
import { funnelRoute } from './funnel/index.js';
import { retentionRoute } from './retention/index.js';
import { retentionActorsRoute } from './retentionActors/index.js';
import { segmentationRoute } from './segmentation/index.js';
import { lifecycleRoute } from './lifecycle/index.js';
import { stickinessRoute } from './stickiness/index.js';
import { activitySummaryRoute } from './activitySummary/index.js';
import { revenueSummaryRoute } from './revenueSummary/index.js';
import { pathsRoute } from './paths/index.js';
import { pathsActorsRoute } from './pathsActors/index.js';
import { correlationsRoute } from './correlations/index.js';
import { activationDriversRoute } from './activationDrivers/index.js';
import { webSummaryRoute } from './web/index.js';

export const QUERIES: QueryRoute[] = [
  funnelRoute,
  retentionRoute,
  retentionActorsRoute,
  segmentationRoute,
  lifecycleRoute,
  stickinessRoute,
  activitySummaryRoute,
  revenueSummaryRoute,
  pathsRoute,
  pathsActorsRoute,
  correlationsRoute,
  activationDriversRoute,
  webSummaryRoute,
];

/** Every `filters` list of a query body: the top-level one and, for funnels, each step's. */
export function filterListsOf(p: { filters?: FilterItem[]; steps?: Array<{ filters?: FilterItem[] }> }): FilterItem[][] {
  return [p.filters ?? [], ...(p.steps ?? []).map((s) => s.filters ?? [])];
}
