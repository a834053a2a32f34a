// Mounts every analytical query (see index.ts) as POST /projects/{id}/queries/<path>. Refusals come
// in a fixed order (server/access/guard.ts): 401, 422 (schema, then semantic), 404/403 project and
// role, 402 paused account, 403 entitlement, 422 for a segment the project does not have; then the answer comes from the result cache, or the
// query runs under its own time limit. `Cache-Control: no-cache` asks for a fresh answer. The per-day
// rollups the day-level queries read are folded by a worker (workers.ts).

import type { RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import { project } from '../access/access.js';
import { answerQuery, sendAnswer, wantsFresh } from './answerQuery.js';
import { QUERIES } from './index.js';
import type { QueryRoute } from './queryRoute.js';
import { queriesFragment, queryOperation } from './openapi.js';

const pathOf = (q: QueryRoute) => `/api/v1/projects/{id}/queries/${q.path}`;

function validate(q: QueryRoute): RequestHandler {
  return (req, _res, next) => {
    q.validate?.(req.body);
    next();
  };
}

export const queriesDomain: Domain = {
  name: 'queries',
  openapi: queriesFragment(Object.fromEntries(QUERIES.map((q) => [pathOf(q), { post: queryOperation(q.doc) }]))),
  mount(routes, services) {
    for (const q of QUERIES) {
      // A query reads; every one but the activity summary is a plan-gated capability.
      const access = project('viewer', { mutates: false, liveAccount: q.name !== 'activity_summary' });
      routes.post(pathOf(q), access, validate(q), async (req, res) => {
        sendAnswer(res, await answerQuery(services, q, req.project!, req.body, wantsFresh(req)));
      });
    }
  },
};
