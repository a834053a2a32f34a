// Which module answers which query route: its documentation, semantic validation, the entitlements
// its parameters call for, and execute = shape(run(...)). routes.ts mounts every entry the same way.

import type { Entitlement } from '../license/requireEntitlement.js';
import type { EventStore } from '../store/eventStore.js';
import type { QueryContext, QueryName } from './context.js';
import type { CursorCodec } from './cursors.js';
import type { FilterItem } from '../engine/filters.js';
import type { QueryOperationDoc } from './openapi.js';
import { runFunnel, shapeFunnel, validateFunnel, type FunnelParams } from './funnel.js';
import { runRetention, shapeRetention, validateRetention, type RetentionParams } from './retention.js';
import { runRetentionActors, shapeRetentionActors, validateRetentionActors, type RetentionActorsParams } from './retentionActors.js';
import { runSegmentation, shapeSegmentation, validateSegmentation, type SegmentationParams } from './segmentation.js';
import { runLifecycle, shapeLifecycle, validateLifecycle, type LifecycleParams } from './lifecycle.js';
import { runStickiness, shapeStickiness, validateStickiness, type StickinessParams } from './stickiness.js';
import { runActivitySummary, shapeActivitySummary, validateActivitySummary, type ActivitySummaryParams } from './activitySummary.js';
import { runPaths, shapePaths, validatePaths, type PathsParams } from './paths.js';
import { runActivationDrivers, shapeActivationDrivers, validateActivationDrivers, type ActivationDriversParams } from './activationDrivers.js';
import { runCorrelations, shapeCorrelations, validateCorrelations, type CorrelationsParams } from './correlations.js';
import { runRevenueSummary, shapeRevenueSummary, validateRevenueSummary, type RevenueSummaryParams } from './revenueSummary.js';

export interface QueryRoute<P = any> {
  name: QueryName;
  /** Path below /api/v1/projects/{id}/queries/. */
  path: string;
  doc: QueryOperationDoc;
  /** Semantic checks beyond the schema (422); runs before any authorization. */
  validate?(p: P): void;
  /** Entitlements these parameters need, besides saved_segments for segment filters. */
  entitlements(p: P): Entitlement[];
  execute(store: EventStore, p: P, ctx: QueryContext, cursors: CursorCodec): Promise<unknown>;
}

const none = () => [];

const funnel: QueryRoute<FunnelParams> = {
  name: 'funnel',
  path: 'funnel',
  doc: {
    operationId: 'queryFunnel',
    summary: 'Funnel: conversion through ordered steps',
    description:
      'Every step-1 event in the range starts an attempt; later steps must follow within window_hours of it. dropped_at_step needs actor_drilldown.',
    request: 'FunnelRequest',
    response: 'FunnelResponse',
    gated: true,
  },
  validate: validateFunnel,
  entitlements: (p) => (p.dropped_at_step !== undefined ? ['actor_drilldown'] : []),
  execute: async (store, p, ctx, cursors) => shapeFunnel(await runFunnel(store, p, ctx, cursors), p, cursors),
};

const retention: QueryRoute<RetentionParams> = {
  name: 'retention',
  path: 'retention',
  doc: {
    operationId: 'queryRetention',
    summary: 'Retention by cohort of first start event',
    description: 'value=actors gives per-period ratios and counts; revenue, cumulative revenue per cohort member in the project currency; paid_conversion, the cumulative share that paid.',
    request: 'RetentionRequest',
    response: 'RetentionResponse',
    gated: true,
  },
  validate: validateRetention,
  entitlements: none,
  execute: async (store, p, ctx) => shapeRetention(await runRetention(store, p, ctx), p, ctx),
};

const retentionActors: QueryRoute<RetentionActorsParams> = {
  name: 'retention_actors',
  path: 'retention/actors',
  doc: {
    operationId: 'queryRetentionActors',
    summary: 'Actors of one retention cohort and period',
    description: 'Same semantics as retention; ordered by actor id; needs actor_drilldown and saved_segments.',
    request: 'RetentionActorsRequest',
    response: 'RetentionActorsResponse',
    gated: true,
  },
  validate: validateRetentionActors,
  entitlements: () => ['actor_drilldown', 'saved_segments'],
  execute: async (store, p, ctx, cursors) => shapeRetentionActors(await runRetentionActors(store, p, ctx, cursors), p, cursors),
};

const segmentation: QueryRoute<SegmentationParams> = {
  name: 'segmentation',
  path: 'segmentation',
  doc: {
    operationId: 'querySegmentation',
    summary: 'Segmentation: a metric per time bucket, optionally grouped',
    description: 'Buckets are local to the project time zone and zero-filled; group_by ranks values by the metric over the whole range.',
    request: 'SegmentationRequest',
    response: 'SegmentationResponse',
    gated: true,
  },
  validate: validateSegmentation,
  entitlements: none,
  execute: async (store, p, ctx) => shapeSegmentation(await runSegmentation(store, p, ctx), p, ctx),
};

const lifecycle: QueryRoute<LifecycleParams> = {
  name: 'lifecycle',
  path: 'lifecycle',
  doc: {
    operationId: 'queryLifecycle',
    summary: 'Lifecycle: new, returning, resurrecting and dormant actors per bucket',
    description: 'dormant is reported as a non-positive number.',
    request: 'LifecycleRequest',
    response: 'LifecycleResponse',
    gated: true,
  },
  validate: validateLifecycle,
  entitlements: none,
  execute: async (store, p, ctx) => shapeLifecycle(await runLifecycle(store, p, ctx), p),
};

const stickiness: QueryRoute<StickinessParams> = {
  name: 'stickiness',
  path: 'stickiness',
  doc: {
    operationId: 'queryStickiness',
    summary: 'Stickiness: actors by number of distinct active days',
    description: 'One entry per possible day count (1..days in range), zero-filled.',
    request: 'StickinessRequest',
    response: 'StickinessResponse',
    gated: true,
  },
  validate: validateStickiness,
  entitlements: none,
  execute: async (store, p, ctx) => shapeStickiness(await runStickiness(store, p, ctx), p),
};

const activitySummary: QueryRoute<ActivitySummaryParams> = {
  name: 'activity_summary',
  path: 'activity-summary',
  doc: {
    operationId: 'queryActivitySummary',
    summary: 'DAU, WAU, MAU and usage ratios for one local day',
    description: 'WAU and MAU are exact distinct actors over the trailing 7 and 30 local days ending at date_to.',
    request: 'ActivitySummaryRequest',
    response: 'ActivitySummaryResponse',
    gated: false,
  },
  validate: validateActivitySummary,
  entitlements: none,
  execute: async (store, p, ctx) => shapeActivitySummary(await runActivitySummary(store, p, ctx), p),
};

const revenueSummary: QueryRoute<RevenueSummaryParams> = {
  name: 'revenue_summary',
  path: 'revenue-summary',
  doc: {
    operationId: 'queryRevenueSummary',
    summary: 'Revenue, refunds, ARPU and ARPPU over a range',
    description: 'ARPU divides revenue by distinct active actors over the whole range, each counted once.',
    request: 'RevenueSummaryRequest',
    response: 'RevenueSummaryResponse',
    gated: true,
  },
  validate: validateRevenueSummary,
  entitlements: none,
  execute: async (store, p, ctx) => shapeRevenueSummary(await runRevenueSummary(store, p, ctx), p, ctx.currency),
};

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

const correlations: QueryRoute<CorrelationsParams> = {
  name: 'correlations',
  path: 'correlations',
  doc: {
    operationId: 'queryCorrelations',
    summary: 'Correlations: events that go with reaching a target event, by lift',
    description:
      "Converters are observed before their first target event, others for the converters' median time to convert from their first activity. Odds ratios with 95% intervals, p and Benjamini–Hochberg q values. Associations, not causes.",
    request: 'CorrelationsRequest',
    response: 'CorrelationsResponse',
    gated: true,
  },
  validate: validateCorrelations,
  entitlements: none,
  execute: async (store, p, ctx) => shapeCorrelations(await runCorrelations(store, p, ctx), p),
};

const activationDrivers: QueryRoute<ActivationDriversParams> = {
  name: 'activation_drivers',
  path: 'activation-drivers',
  doc: {
    operationId: 'queryActivationDrivers',
    summary: 'Activation drivers: early behaviors that go with being retained',
    description:
      'Discovery (70% of actors by a hash of their id) picks each candidate’s window and threshold by phi; validation (the other 30%) judges that choice once. Actors whose outcome window is open at as_of are left out. Associations, not causes.',
    request: 'ActivationDriversRequest',
    response: 'ActivationDriversResponse',
    gated: true,
  },
  validate: validateActivationDrivers,
  entitlements: none,
  execute: async (store, p, ctx) => shapeActivationDrivers(await runActivationDrivers(store, p, ctx), p, ctx),
};

export const QUERIES: QueryRoute[] = [
  funnel, retention, retentionActors, segmentation, lifecycle, stickiness, activitySummary, revenueSummary, paths, correlations, activationDrivers,
];

/** Every `filters` list of a query body: the top-level one and, for funnels, each step's. */
export function filterListsOf(p: { filters?: FilterItem[]; steps?: Array<{ filters?: FilterItem[] }> }): FilterItem[][] {
  return [p.filters ?? [], ...(p.steps ?? []).map((s) => s.filters ?? [])];
}
