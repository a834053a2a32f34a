// HTTP surface of saved insights and dashboards (docs/dashboards.md): viewers read them and their
// answers, analysts write them. Answers come from the queries' result cache (see insightAnswer.ts);
// share links are shareRoutes.ts's.

import type { Request, RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type Parameter } from '../http/openapi.js';
import { NotFoundError, ValidationError } from '../ground/errors.js';
import { project as onProject } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { sendAnswer, wantsFresh } from '../queries/answerQuery.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { addTile, createDashboard, deleteDashboard, deleteTile, getDashboard, listDashboards, tileInsight, updateDashboard, updateTile, type DashboardInput } from './dashboards.js';
import { createInsight, deleteInsight, findInsight, getInsight, listInsights, updateInsight } from './insights.js';
import { answerInsight, checkRollingRange, overridesOf } from './insightAnswer.js';
import { localDate } from '../engine/localTime.js';
import { answer, op, params, schemas } from './openapi.js';
import { KINDS, NO_OVERRIDES, savedQueries } from './savedQueries.js';

const INSIGHTS = '/api/v1/projects/{id}/insights';
const INSIGHT = `${INSIGHTS}/{insightID}`;
const DASHBOARDS = '/api/v1/projects/{id}/dashboards';
const DASHBOARD = `${DASHBOARDS}/{dashboardID}`;
const TILES = `${DASHBOARD}/tiles`;
const TILE = `${TILES}/{tileID}`;

const insightOp = (p: Parameter[], o: Parameters<typeof op>[2]) => op('insights', p, o);
const dashboardOp = (p: Parameter[], o: Parameters<typeof op>[2]) => op('dashboards', p, o);
const { project, insight, dashboard, tile } = params;

/** A name must say something; surrounding spaces are dropped. */
function checkName(b: Record<string, unknown>): void {
  if (b.name === undefined) return;
  b.name = String(b.name).trim();
  if (b.name === '') throw new ValidationError('name must not be blank', 'name');
}

/** The semantic checks of a body, after the schema's and before the role (401, 422, 403, 404). */
const check =
  (fn: (body: Record<string, unknown>) => void): RequestHandler =>
  (req, _res, next) => {
    fn(req.body as Record<string, unknown>);
    next();
  };

export const dashboardsDomain: Domain = {
  name: 'dashboards',
  openapi: {
    schemas,
    paths: {
      [INSIGHTS]: {
        get: insightOp([project, { name: 'kind', in: 'query', description: 'only insights of this kind', schema: { enum: KINDS } }], {
          operationId: 'listInsights',
          summary: 'The saved insights of the project, most recently changed first (viewer+)',
          responses: { '200': jsonResponse('the insights', ref('InsightList')), ...errors(401, 404, 422, 429) },
        }),
        post: insightOp([project], {
          operationId: 'createInsight',
          summary: 'Save a query as an insight; the query is checked as its route checks it (analyst+)',
          description: 'At most 500 per project. The query’s entitlements apply when it runs, not when it is saved.',
          requestBody: jsonBody(ref('InsightBody')),
          responses: { '201': jsonResponse('the insight', ref('Insight')), ...errors(401, 403, 404, 422, 429) },
        }),
      },
      [INSIGHT]: {
        get: insightOp([project, insight], {
          operationId: 'getInsight',
          summary: 'One saved insight (viewer+)',
          responses: { '200': jsonResponse('the insight', ref('Insight')), ...errors(400, 401, 404, 429) },
        }),
        patch: insightOp([project, insight], {
          operationId: 'updateInsight',
          summary: 'Rename, describe or replace the query of an insight; its kind stays (analyst+)',
          requestBody: jsonBody(ref('InsightPatch')),
          responses: { '200': jsonResponse('the insight', ref('Insight')), ...errors(400, 401, 403, 404, 422, 429) },
        }),
        delete: insightOp([project, insight], {
          operationId: 'deleteInsight',
          summary: 'Delete an insight, its dashboard tiles and its share links (analyst+)',
          responses: { '204': { description: 'deleted' }, ...errors(400, 401, 403, 404, 429) },
        }),
      },
      [`${INSIGHT}/result`]: {
        post: insightOp([project, insight], {
          operationId: 'insightResult',
          summary: 'The insight’s answer, optionally for another date range or with more filters (viewer+)',
          description: 'The same answer, result cache and refusals as its query route for the body with the overrides; Cache-Control: no-cache asks for a fresh answer.',
          requestBody: jsonBody(ref('ResultOverrides'), false),
          responses: { ...answer, ...errors(400, 401, 402, 403, 404, 408, 422, 429) },
        }),
      },
      [DASHBOARDS]: {
        get: dashboardOp([project], {
          operationId: 'listDashboards',
          summary: 'The dashboards of the project, by name (viewer+)',
          responses: { '200': jsonResponse('the dashboards', ref('DashboardList')), ...errors(401, 404, 429) },
        }),
        post: dashboardOp([project], {
          operationId: 'createDashboard',
          summary: 'Create an empty dashboard (analyst+); at most 100 per project',
          requestBody: jsonBody(ref('DashboardBody')),
          responses: { '201': jsonResponse('the dashboard', ref('Dashboard')), ...errors(401, 403, 404, 422, 429) },
        }),
      },
      [DASHBOARD]: {
        get: dashboardOp([project, dashboard], {
          operationId: 'getDashboard',
          summary: 'One dashboard with its tiles (viewer+)',
          responses: { '200': jsonResponse('the dashboard', ref('Dashboard')), ...errors(400, 401, 404, 429) },
        }),
        patch: dashboardOp([project, dashboard], {
          operationId: 'updateDashboard',
          summary: 'Change names, the date range, the filters or the layout (analyst+)',
          description: 'Fields left out keep their value; null clears the date range or the filters. A layout lists every tile once, in the new order.',
          requestBody: jsonBody(ref('DashboardPatch')),
          responses: { '200': jsonResponse('the dashboard', ref('Dashboard')), ...errors(400, 401, 403, 404, 422, 429) },
        }),
        delete: dashboardOp([project, dashboard], {
          operationId: 'deleteDashboard',
          summary: 'Delete a dashboard, its tiles and its share links; its insights stay (analyst+)',
          responses: { '204': { description: 'deleted' }, ...errors(400, 401, 403, 404, 429) },
        }),
      },
      [TILES]: {
        post: dashboardOp([project, dashboard], {
          operationId: 'addTile',
          summary: 'Add an insight or text tile at the end (analyst+); at most 40 per dashboard',
          requestBody: jsonBody(ref('TileBody')),
          responses: { '201': jsonResponse('the tile', ref('Tile')), ...errors(400, 401, 403, 404, 422, 429) },
        }),
      },
      [TILE]: {
        patch: dashboardOp([project, dashboard, tile], {
          operationId: 'updateTile',
          summary: 'Change a tile’s size, or a text tile’s text (analyst+)',
          requestBody: jsonBody(ref('TilePatch')),
          responses: { '200': jsonResponse('the tile', ref('Tile')), ...errors(400, 401, 403, 404, 422, 429) },
        }),
        delete: dashboardOp([project, dashboard, tile], {
          operationId: 'deleteTile',
          summary: 'Remove a tile (analyst+)',
          responses: { '204': { description: 'removed' }, ...errors(400, 401, 403, 404, 429) },
        }),
      },
      [`${TILE}/result`]: {
        post: dashboardOp([project, dashboard, tile], {
          operationId: 'tileResult',
          summary: 'The answer of an insight tile with the dashboard’s date range and filters (viewer+)',
          description: 'As the insight’s result call with the dashboard’s overrides; a text tile has none (404).',
          responses: { ...answer, ...errors(400, 401, 402, 403, 404, 408, 422, 429) },
        }),
      },
    },
  },
  mount(routes, services) {
    const queries = savedQueries(routes.document);
    const viewer = onProject('viewer');
    const analyst = onProject('analyst');
    // Answering a saved insight or a tile reads; it changes nothing.
    const reader = onProject('viewer', { mutates: false });
    const now = () => services.clock.now();
    const idOf = (req: Request, name: string) => Number(req.valid.params[name]);
    const audit = (req: Request, action: string, target: number, details: Record<string, unknown>) =>
      recordAudit(services, { actor_user_id: req.auth!.userId, org_id: req.project!.org_id, action, target: String(target), outcome: 'success', details: { project_id: req.project!.id, ...details } });

    routes.get(INSIGHTS, viewer, (req, res) => {
      res.json({ items: listInsights(services.meta, req.project!.id, req.valid.query.kind as string | undefined) });
    });

    const insightBody = check((b) => {
      checkName(b);
      checkRollingRange(b.date_range as string | null | undefined);
      if (b.kind !== undefined) queries.checked(String(b.kind), b.query as Record<string, unknown>);
    });
    /** A since-date is checked against the project's today once the project is known. */
    const today = (req: Request) => localDate(now(), req.project!.timezone);
    routes.post(INSIGHTS, analyst, insightBody, (req, res) => {
      const { name, description = null, kind, query, date_range: dateRange = null } = req.body;
      checkRollingRange(dateRange, today(req));
      res.status(201).json(createInsight(services.meta, req.project!.id, req.auth!.userId, { name, description, kind, query, date_range: dateRange }, now()));
    });

    routes.get(INSIGHT, viewer, (req, res) => {
      res.json(getInsight(services.meta, req.project!.id, idOf(req, 'insightID')));
    });

    routes.patch(INSIGHT, analyst, insightBody, (req, res) => {
      const current = getInsight(services.meta, req.project!.id, idOf(req, 'insightID'));
      if (req.body.query !== undefined) queries.checked(current.kind, req.body.query);
      checkRollingRange(req.body.date_range, today(req));
      res.json(updateInsight(services.meta, req.project!.id, current.id, req.auth!.userId, req.body, now()));
    });

    routes.delete(INSIGHT, analyst, (req, res) => {
      const gone = deleteInsight(services.meta, req.project!.id, idOf(req, 'insightID'));
      audit(req, 'insight.delete', gone.id, { name: gone.name, kind: gone.kind });
      res.status(204).end();
    });

    const resultBody = check((b) => void overridesOf(b));
    routes.post(`${INSIGHT}/result`, reader, resultBody, async (req, res) => {
      const saved = getInsight(services.meta, req.project!.id, idOf(req, 'insightID'));
      sendAnswer(res, await answerInsight(services, queries, req.project!, saved, overridesOf(req.body), wantsFresh(req)));
    });

    routes.get(DASHBOARDS, viewer, (req, res) => {
      res.json({ items: listDashboards(services.meta, req.project!.id) });
    });

    const newDashboard = check((b) => {
      checkName(b);
      overridesOf(b);
    });
    routes.post(DASHBOARDS, analyst, newDashboard, (req, res) => {
      const input: DashboardInput = { description: null, ...NO_OVERRIDES, ...req.body };
      checkRollingRange(input.date_range, today(req));
      res.status(201).json(createDashboard(services.meta, req.project!.id, req.auth!.userId, input, now()));
    });

    routes.get(DASHBOARD, viewer, (req, res) => {
      res.json(getDashboard(services.meta, req.project!.id, idOf(req, 'dashboardID')));
    });

    // A change to one end of the date range is checked with the other end once the dashboard is read.
    const dashboardChanges = check((b) => {
      checkName(b);
      checkRollingRange(b.date_range as string | null | undefined);
      checkFilters((b.filters as FilterItem[] | null | undefined) ?? undefined);
    });
    routes.patch(DASHBOARD, analyst, dashboardChanges, (req, res) => {
      const current = getDashboard(services.meta, req.project!.id, idOf(req, 'dashboardID'));
      const { layout, ...changes } = req.body;
      // The range is one thing: giving fixed dates drops a rolling range, and giving a rolling range drops fixed dates.
      const dates = changes.date_range ? { date_from: null, date_to: null } : changes.date_from !== undefined || changes.date_to !== undefined ? { date_range: null } : {};
      const input: DashboardInput = {
        name: current.name,
        description: current.description,
        date_from: current.date_from,
        date_to: current.date_to,
        date_range: current.date_range,
        filters: current.filters,
        ...dates,
        ...changes,
      };
      overridesOf(input);
      checkRollingRange(changes.date_range, today(req));
      res.json(updateDashboard(services.meta, req.project!.id, current.id, req.auth!.userId, input, layout, now()));
    });

    routes.delete(DASHBOARD, analyst, (req, res) => {
      const gone = deleteDashboard(services.meta, req.project!.id, idOf(req, 'dashboardID'));
      audit(req, 'dashboard.delete', gone.id, { name: gone.name });
      res.status(204).end();
    });

    const tileBody = check((b) => {
      if ((b.insight_id === undefined) === (b.text === undefined)) throw new ValidationError('a tile shows either an insight (insight_id) or a text (text)', 'insight_id');
    });
    routes.post(TILES, analyst, tileBody, (req, res) => {
      // The schema filled in the default size.
      const { insight_id: insightId, text, width, height } = req.body;
      getDashboard(services.meta, req.project!.id, idOf(req, 'dashboardID'));
      if (insightId !== undefined && !findInsight(services.meta, req.project!.id, insightId)) {
        throw new ValidationError(`insight ${insightId} is not a saved insight of this project`, 'insight_id');
      }
      const content = insightId !== undefined ? { insight_id: insightId as number } : { text: text as string };
      res.status(201).json(addTile(services.meta, req.project!.id, idOf(req, 'dashboardID'), req.auth!.userId, content, { width, height }, now()));
    });

    routes.patch(TILE, analyst, (req, res) => {
      res.json(updateTile(services.meta, req.project!.id, idOf(req, 'dashboardID'), idOf(req, 'tileID'), req.auth!.userId, req.body, now()));
    });

    routes.delete(TILE, analyst, (req, res) => {
      deleteTile(services.meta, req.project!.id, idOf(req, 'dashboardID'), idOf(req, 'tileID'), req.auth!.userId, now());
      res.status(204).end();
    });

    routes.post(`${TILE}/result`, reader, async (req, res) => {
      const shown = tileInsight(services.meta, req.project!.id, idOf(req, 'dashboardID'), idOf(req, 'tileID'));
      if (!shown) throw new NotFoundError('tile not found');
      sendAnswer(res, await answerInsight(services, queries, req.project!, shown.insight, shown.overrides, wantsFresh(req)));
    });
  },
};
