// Answers one analytical query for a project: its entitlements, the saved segments its filters name,
// then the answer from the result cache or a run under the query's time limit. The query routes and
// saved insights both call it, so they share one cache and one key for the same body.

import type { Request, Response } from 'express';
import type { Services } from '../http/services.js';
import type { Project } from '../accounts/projects.js';
import { loadSegmentFilters } from '../accounts/segments.js';
import { requireEntitlement } from '../license/requireEntitlement.js';
import { requireLiveAccount } from '../billing/accountState.js';
import { queryTimeoutMs, today, type QueryContext } from './context.js';
import { cursorCodec } from './cursors.js';
import { segmentIds } from '../engine/filters.js';
import { filterListsOf } from './index.js';
import type { QueryRoute } from './queryRoute.js';
import { cacheKey } from './resultCache.js';
import { getPathCleaning } from './pathCleaning.js';

/** Tells whether an answer came from the result cache (`hit`), was computed (`miss`) or was asked fresh (`bypass`). */
export const CACHE_HEADER = 'X-PP-Cache';

export interface QueryAnswer {
  /** The answer as JSON text, exactly as it is sent. */
  body: string;
  cache: 'hit' | 'miss' | 'bypass';
}

function contextFor(services: Services, q: QueryRoute, project: Project, segments: QueryContext['segments']): QueryContext {
  return {
    projectId: project.id,
    timezone: project.timezone,
    currency: project.currency,
    now: services.clock.now(),
    timeoutMs: queryTimeoutMs(services.config, q.name),
    segments,
    pathCleaning: getPathCleaning(services.meta, project.id),
  };
}

/** `params` have passed the query's schema (defaults filled in) and its semantic check. */
export async function answerQuery(services: Services, q: QueryRoute, project: Project, params: Parameters<typeof filterListsOf>[0], fresh: boolean): Promise<QueryAnswer> {
  const referenced = filterListsOf(params).flatMap(segmentIds);
  if (q.name !== 'activity_summary') requireLiveAccount(services, project.org_id);
  for (const e of q.entitlements(params)) requireEntitlement(services, project.org_id, e);
  if (referenced.length > 0) requireEntitlement(services, project.org_id, 'saved_segments');
  const segments = loadSegmentFilters(services.meta, project.id, referenced);
  const ctx = contextFor(services, q, project, segments);
  // Everything the answer depends on (no query reads the clock but through today's date); the
  // URL-normalization revision changes only paths answers, but is rare enough to key them all.
  const version = await services.events.dataVersion(ctx.projectId);
  const key = cacheKey([q.name, ctx.projectId, ctx.timezone, ctx.currency, ctx.pathCleaning.revision, today(ctx), version, [...segments], params]);
  const cache = services.results;
  const cached = fresh ? undefined : cache.get(key);
  if (cached !== undefined) return { body: cached, cache: 'hit' };
  const body = JSON.stringify(await q.execute(services.events, params, ctx, cursorCodec(services)));
  cache.set(key, body);
  return { body, cache: fresh ? 'bypass' : 'miss' };
}

/** `Cache-Control: no-cache` (or no-store) asks for a fresh answer. */
export function wantsFresh(req: Request): boolean {
  return /\bno-(?:cache|store)\b/i.test(req.get('cache-control') ?? '');
}

export function sendAnswer(res: Response, answer: QueryAnswer): void {
  res.set(CACHE_HEADER, answer.cache).type('application/json').send(answer.body);
}
