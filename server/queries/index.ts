// Which module answers which query route: its documentation, semantic validation, the entitlements
// its parameters call for, and execute = shape(run(...)). routes.ts mounts every entry the same way.

import type { FilterItem } from '../engine/filters.js';
import type { QueryRoute } from './queryRoute.js';
import { segmentationRoute } from './segmentation/index.js';
import { revenueSummaryRoute } from './revenueSummary/index.js';
import { activitySummaryRoute } from './activitySummary/index.js';
import { lifecycleRoute } from './lifecycle/index.js';
import { stickinessRoute } from './stickiness/index.js';
import { runFunnel, shapeFunnel, validateFunnel, type FunnelParams } from './funnel.js';
import { runRetention, shapeRetention, validateRetention, type RetentionParams } from './retention.js';
import { runRetentionActors, shapeRetentionActors, validateRetentionActors, type RetentionActorsParams } from './retentionActors.js';
import { runPaths, shapePaths, validatePaths, type PathsParams } from './paths.js';
import { runActivationDrivers, shapeActivationDrivers, validateActivationDrivers, type ActivationDriversParams } from './activationDrivers.js';
import { runCorrelations, shapeCorrelations, validateCorrelations, type CorrelationsParams } from './correlations.js';

export type { QueryRoute };

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
  funnel, retention, retentionActors, segmentationRoute, lifecycleRoute, stickinessRoute, activitySummaryRoute, revenueSummaryRoute, paths, correlations, activationDrivers,
];

/** Every `filters` list of a query body: the top-level one and, for funnels, each step's. */
export function filterListsOf(p: { filters?: FilterItem[]; steps?: Array<{ filters?: FilterItem[] }> }): FilterItem[][] {
  return [p.filters ?? [], ...(p.steps ?? []).map((s) => s.filters ?? [])];
}
