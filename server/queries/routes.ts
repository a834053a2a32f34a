// Mounts every analytical query (see index.ts) as POST /projects/{id}/queries/<path>. Refusals come
// in a fixed order: 401, 422 (schema, then semantic), 404/403 project and role, 403 entitlement,
// 422 for a segment the project does not have; then the answer comes from the result cache, or the
// query runs under its own time limit. `Cache-Control: no-cache` asks for a fresh answer. Mounting
// also starts the folder of the per-day rollup the day-level queries read.

import type { Request, RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import type { Services } from '../services.js';
import { authenticate } from '../auth/authenticate.js';
import { projectAccess } from '../accounts/access.js';
import { loadSegmentFilters } from '../accounts/segments.js';
import { requireEntitlement } from '../license/requireEntitlement.js';
import { actorDayFolder } from './actorDayFolder.js';
import { queryTimeoutMs, today, type QueryContext } from './context.js';
import { cursorCodec } from './cursors.js';
import { segmentIds } from './filters.js';
import { filterListsOf, QUERIES, type QueryRoute } from './index.js';
import { queriesFragment, queryOperation } from './openapi.js';
import { cacheKey, ResultCache } from './resultCache.js';
import { getPathCleaning } from './pathCleaning.js';

/** Tells whether an answer came from the result cache (`hit`), was computed (`miss`) or was asked fresh (`bypass`). */
const CACHE_HEADER = 'X-PP-Cache';

const pathOf = (q: QueryRoute) => `/api/v1/projects/{id}/queries/${q.path}`;

function validate(q: QueryRoute): RequestHandler {
  return (req, _res, next) => {
    q.validate?.(req.body);
    next();
  };
}

function contextFor(services: Services, q: QueryRoute, req: Request, segments: QueryContext['segments']): QueryContext {
  const project = req.project!;
  return {
    projectId: project.id,
    timezone: project.timezone,
    now: services.clock.now(),
    timeoutMs: queryTimeoutMs(services.config, q.name),
    segments,
    pathCleaning: getPathCleaning(services.meta, project.id),
  };
}

export const queriesDomain: Domain = {
  name: 'queries',
  openapi: queriesFragment(Object.fromEntries(QUERIES.map((q) => [pathOf(q), { post: queryOperation(q.doc) }]))),
  mount(routes, services) {
    const cursors = cursorCodec(services);
    const cache = new ResultCache(services.config.query_cache_mb * 1024 * 1024);
    actorDayFolder(services);
    for (const q of QUERIES) {
      routes.post(pathOf(q), { auth: [authenticate(services)] }, validate(q), projectAccess(services, 'viewer'), async (req, res) => {
        const params = req.body as Parameters<typeof filterListsOf>[0];
        const referenced = filterListsOf(params).flatMap(segmentIds);
        for (const e of q.entitlements(params)) requireEntitlement(services, e);
        if (referenced.length > 0) requireEntitlement(services, 'saved_segments');
        const segments = loadSegmentFilters(services.meta, req.project!.id, referenced);
        const ctx = contextFor(services, q, req, segments);
        // Everything the answer depends on (no query reads the clock but through today's date); the
        // URL-normalization revision changes only paths answers, but is rare enough to key them all.
        const version = await services.events.dataVersion(ctx.projectId);
        const key = cacheKey([q.name, ctx.projectId, ctx.timezone, ctx.pathCleaning.revision, today(ctx), version, [...segments], params]);
        const bypass = /\bno-(?:cache|store)\b/i.test(req.get('cache-control') ?? '');
        const cached = bypass ? undefined : cache.get(key);
        if (cached !== undefined) {
          res.set(CACHE_HEADER, 'hit').type('application/json').send(cached);
          return;
        }
        const body = JSON.stringify(await q.execute(services.events, params, ctx, cursors));
        cache.set(key, body);
        res.set(CACHE_HEADER, bypass ? 'bypass' : 'miss').type('application/json').send(body);
      });
    }
  },
};
