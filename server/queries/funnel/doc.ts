// Funnel: the operation's documentation; its request and response schemas are in ../openapi.ts.

import type { QueryOperationDoc } from '../openapi.js';

export const funnelDoc: QueryOperationDoc = {
  operationId: 'queryFunnel',
  summary: 'Funnel: conversion through ordered steps',
  description: 'Every step-1 event in the range starts an attempt; later steps must follow within window_hours of it. dropped_at_step needs actor_drilldown.',
  request: 'FunnelRequest',
  response: 'FunnelResponse',
  gated: true,
};
