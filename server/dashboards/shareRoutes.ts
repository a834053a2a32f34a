// Share links: admins create, list and revoke them; the public side shows the linked dashboard or
// insight and its answers without signing in, under per-address and per-link budgets. The token
// opens these three routes and nothing else (it is no credential of any other route).

import type { Request, RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref } from '../http/openapi.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../ground/errors.js';
import { other, project } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { sendAnswer, type QueryAnswer } from '../queries/answerQuery.js';
import type { Services } from '../http/services.js';
import { getDashboard, tileInsight, type Dashboard } from './dashboards.js';
import { getInsight, type Insight } from './insights.js';
import { answerInsight } from './insightAnswer.js';
import { answer, op, params, publicOp } from './openapi.js';
import { NO_OVERRIDES, savedQueries } from './savedQueries.js';
import { createShareLink, listShareLinks, openShareLink, revokeShareLink } from './shareLinks.js';

const LINKS = '/api/v1/projects/{id}/share-links';
const LINK = `${LINKS}/{linkID}`;
const SHARED = '/api/v1/shared/{token}';

/** What the public sees of an insight: no authors, no other dashboards. */
function sharedInsight(i: Insight) {
  return { id: i.id, name: i.name, description: i.description, kind: i.kind, query: i.query, date_range: i.date_range };
}

function sharedDashboard(d: Dashboard) {
  const { created_by: _c, updated_by: _u, tiles, ...rest } = d;
  return { ...rest, tiles: tiles.map((t) => ({ ...t, insight: t.insight && sharedInsight(t.insight) })) };
}

/** Kinds whose answer is a list of actors: a link never shows one. */
const ACTOR_LISTS = new Set(['retention/actors']);

/**
 * What a link shows of an insight's answer: its figures, no actor ids. An actor list is refused,
 * and a funnel's drop-offs (the actors who left at a step) are left out.
 */
async function publicAnswer(insight: Insight, answer: () => Promise<QueryAnswer>): Promise<QueryAnswer> {
  if (ACTOR_LISTS.has(insight.kind)) throw new ForbiddenError('a share link does not show lists of actors');
  const shown = await answer();
  if (insight.kind !== 'funnel') return shown;
  const body = JSON.parse(shown.body) as Record<string, unknown>;
  if (!('dropped' in body)) return shown;
  delete body.dropped;
  return { ...shown, body: JSON.stringify(body) };
}

/** Budgets spent before the token is looked at, so guessing tokens costs as much as using one. */
function sharedLimits(services: Services): RequestHandler {
  return (req, _res, next) => {
    const budget = services.config.rate_limit;
    services.limiter.take('shared-ip', req.ip ?? 'unknown', { perMinute: budget.shared_ip_per_minute });
    services.limiter.take('shared-token', String(req.params.token), { perMinute: budget.shared_token_per_minute });
    next();
  };
}

export const shareLinksDomain: Domain = {
  name: 'share-links',
  openapi: {
    paths: {
      [LINKS]: {
        get: op('share-links', [params.project], {
          operationId: 'listShareLinks',
          summary: 'The live share links of the project, newest first, without tokens (admin+)',
          responses: { '200': jsonResponse('the links', ref('ShareLinkList')), ...errors(401, 403, 404, 429) },
        }),
        post: op('share-links', [params.project], {
          operationId: 'createShareLink',
          summary: 'A public link to a dashboard or an insight; the token is shown this once (admin+)',
          requestBody: jsonBody(ref('ShareLinkBody')),
          responses: { '201': jsonResponse('the link and its token', ref('CreatedShareLink')), ...errors(401, 403, 404, 422, 429) },
        }),
      },
      [LINK]: {
        delete: op('share-links', [params.project, params.link], {
          operationId: 'revokeShareLink',
          summary: 'Revoke a link at once (admin+)',
          responses: { '204': { description: 'revoked' }, ...errors(400, 401, 403, 404, 429) },
        }),
      },
      [SHARED]: {
        get: publicOp([params.token], {
          operationId: 'openSharedLink',
          summary: 'What a share link shows: the dashboard with its tiles, or the insight, and the project’s name and time zone',
          description: 'No credentials. An unknown, revoked or expired token is 404.',
          responses: { '200': jsonResponse('the shared view', ref('SharedView')), ...errors(404, 429) },
        }),
      },
      [`${SHARED}/tiles/{tileID}/result`]: {
        post: publicOp([params.token, params.tile], {
          operationId: 'sharedTileResult',
          summary: 'The answer of an insight tile of a shared dashboard, with the dashboard’s date range and filters',
          description: 'Always from the result cache while the events are unchanged (Cache-Control is ignored). A tile not on the dashboard is 404, like an unknown token.',
          responses: { ...answer, ...errors(400, 402, 403, 404, 408, 422, 429) },
        }),
      },
      [`${SHARED}/result`]: {
        post: publicOp([params.token], {
          operationId: 'sharedInsightResult',
          summary: 'The answer of a shared insight',
          description: 'Always from the result cache while the events are unchanged (Cache-Control is ignored).',
          responses: { ...answer, ...errors(402, 403, 404, 408, 422, 429) },
        }),
      },
    },
  },
  mount(routes, services) {
    const queries = savedQueries(routes.document);
    const admin = project('admin');
    // The link's own token is the credential; the handlers open it (an unknown or revoked one is 404).
    const limited = other('share_token', [sharedLimits(services)], { mutates: false });
    const audit = (req: Request, action: string, target: number, details: Record<string, unknown>) =>
      recordAudit(services, { actor_user_id: req.auth!.userId, org_id: req.project!.org_id, action, target: String(target), outcome: 'success', details: { project_id: req.project!.id, ...details } });
    const open = (req: Request) => openShareLink(services, String(req.valid.params.token));

    routes.get(LINKS, admin, (req, res) => {
      res.json({ items: listShareLinks(services.meta, req.project!.id) });
    });

    const linkBody: RequestHandler = (req, _res, next) => {
      if ((req.body.dashboard_id === undefined) === (req.body.insight_id === undefined)) {
        throw new ValidationError('a share link shows either a dashboard (dashboard_id) or an insight (insight_id)', 'dashboard_id');
      }
      next();
    };
    routes.post(LINKS, admin, linkBody, (req, res) => {
      const { dashboard_id: dashboardId, insight_id: insightId, expires_at: expiresAt = null } = req.body;
      const target = dashboardId !== undefined ? { dashboard_id: dashboardId as number } : { insight_id: insightId as number };
      const { link, token } = createShareLink(services, req.project!.id, req.auth!.userId, target, expiresAt);
      audit(req, 'share_link.create', link.id, { target: link.target.kind, target_id: link.target.id, expires_at: link.expires_at });
      res.status(201).json({ ...link, token, url_path: `/shared/${token}` });
    });

    routes.delete(LINK, admin, (req, res) => {
      const link = revokeShareLink(services.meta, req.project!.id, Number(req.valid.params.linkID));
      audit(req, 'share_link.revoke', link.id, { target: link.target.kind, target_id: link.target.id });
      res.status(204).end();
    });

    routes.get(SHARED, limited, (req, res) => {
      const { link, project } = open(req);
      const view = { kind: link.target.kind, project: { name: project.name, timezone: project.timezone } };
      if (link.target.kind === 'dashboard') res.json({ ...view, dashboard: sharedDashboard(getDashboard(services.meta, project.id, link.target.id)) });
      else res.json({ ...view, insight: sharedInsight(getInsight(services.meta, project.id, link.target.id)) });
    });

    routes.post(`${SHARED}/tiles/{tileID}/result`, limited, async (req, res) => {
      const { link, project } = open(req);
      if (link.target.kind !== 'dashboard') throw new NotFoundError('share link not found');
      const shown = tileInsight(services.meta, project.id, link.target.id, Number(req.valid.params.tileID));
      if (!shown) throw new NotFoundError('share link not found');
      sendAnswer(res, await publicAnswer(shown.insight, () => answerInsight(services, queries, project, shown.insight, shown.overrides, false)));
    });

    routes.post(`${SHARED}/result`, limited, async (req, res) => {
      const { link, project } = open(req);
      if (link.target.kind !== 'insight') throw new NotFoundError('share link not found');
      const insight = getInsight(services.meta, project.id, link.target.id);
      sendAnswer(res, await publicAnswer(insight, () => answerInsight(services, queries, project, insight, NO_OVERRIDES, false)));
    });
  },
};
