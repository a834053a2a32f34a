// Behavior routes: the collection settings (viewer+ read, admin+ atomic partial update) and the page behavior
// and forms reports (viewer+). The purge jobs mount their own routes (purgeRoutes.ts).

import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type Parameter } from '../http/openapi.js';
import { project } from '../access/access.js';
import { ALLOWLIST_MAX_NAMES, ALLOWLIST_NAME_MAX, getBehaviorSettings, patchBehaviorSettings, type BehaviorSettingsPatch } from '../ingest/behaviorSettings.js';
import { CAMPAIGN_PARAMS } from '../ingest/urlQuery.js';
import type { Request } from 'express';
import type { Services } from '../http/services.js';
import { cursorCodec } from '../queries/cursors.js';
import { localDate } from '../engine/localTime.js';
import { parseReportParams } from './reportParams.js';
import { behaviorUrls, pageBehavior, type ReportContext } from './pageBehavior.js';
import { formDetail, formsReport } from './formAnalytics.js';
import { reportsOpenapi } from './reportsOpenapi.js';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };

const fields = {
  autocapture_clicks: { type: 'boolean', description: 'pp.click, rage and dead clicks' },
  autocapture_hover_intent: { type: 'boolean' },
  autocapture_sections: { type: 'boolean', description: 'section visibility' },
  autocapture_scroll: { type: 'boolean', description: 'scroll depth' },
  autocapture_forms: { type: 'boolean', description: 'form starts, submits and abandonment; never entered values' },
  privacy_mode: { enum: ['standard', 'strict'], description: 'strict masks all text in recordings and element texts' },
  replay_enabled: { type: 'boolean', description: 'session recordings; inputs are always masked' },
  replay_sample_rate: { type: 'number', minimum: 0, maximum: 1, description: 'share of sessions recorded, 0..1 (default 1)' },
  diagnostics_enabled: { type: 'boolean', description: 'page performance and error diagnostics' },
  store_client_address: { type: 'boolean', description: "keep each event's client address as props.$ip (off: the address gives the country and is dropped)" },
  url_query_strip: {
    type: 'boolean',
    description: `query strings of stored page and referrer URLs keep only ${CAMPAIGN_PARAMS.join(', ')} and url_query_allowlist (default true); false keeps them whole`,
  },
  url_query_allowlist: {
    type: 'array',
    maxItems: ALLOWLIST_MAX_NAMES,
    items: { type: 'string', minLength: 1, maxLength: ALLOWLIST_NAME_MAX },
    description: 'query parameter names kept besides the campaign ones, compared with the decoded name exactly; no "&", "=", "#", no duplicates (default [])',
  },
};

const settingsSchema = {
  type: 'object',
  required: [...Object.keys(fields), 'updated_at'],
  properties: { ...fields, updated_at: { type: ['string', 'null'], format: 'date-time', description: 'null while the defaults apply' } },
  description: 'A project without stored settings resolves to strict privacy with every kind disabled and query strings stripped.',
};

export const behaviorDomain: Domain = {
  name: 'behavior',
  openapi: {
    schemas: { BehaviorSettings: settingsSchema, ...reportsOpenapi.schemas },
    paths: {
      ...reportsOpenapi.paths,
      '/api/v1/projects/{id}/behavior/settings': {
        get: {
          operationId: 'getBehaviorSettings',
          summary: 'Collection settings of the project (viewer+)',
          tags: ['behavior'],
          security: [{ accessToken: [] }],
          parameters: [projectId],
          responses: { '200': jsonResponse('the settings', ref('BehaviorSettings')), ...errors(401, 404, 429) },
        },
        patch: {
          operationId: 'patchBehaviorSettings',
          summary: 'Change any subset of the settings atomically (admin+)',
          description: 'The flags never enable form values or input replay.',
          tags: ['behavior'],
          security: [{ accessToken: [] }],
          parameters: [projectId],
          requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: fields }),
          responses: { '200': jsonResponse('the settings after the change', ref('BehaviorSettings')), ...errors(401, 403, 404, 422, 429) },
        },
      },
    },
  },
  mount(routes, services) {
    const viewer = project('viewer');
    routes.get('/api/v1/projects/{id}/behavior/settings', viewer, (req, res) => {
      res.json(getBehaviorSettings(services.meta, req.project!.id));
    });
    routes.patch('/api/v1/projects/{id}/behavior/settings', project('admin'), (req, res) => {
      const patch = req.body as BehaviorSettingsPatch;
      res.json(patchBehaviorSettings(services.meta, req.project!.id, patch, req.auth!.userId, services.clock.now()));
    });

    // Form analytics is a plan-gated capability: refused while the account is paused.
    const forms = project('viewer', { liveAccount: true });
    const cursors = cursorCodec(services);
    const text = (req: Request, name: string) => (req.valid.query[name] === undefined ? undefined : String(req.valid.query[name]));
    routes.get('/api/v1/projects/{id}/pages/behavior/urls', viewer, async (req, res) => {
      const { ctx, params } = reportOf(services, req);
      res.json(await behaviorUrls(services.events, params, ctx, cursors));
    });
    routes.get('/api/v1/projects/{id}/pages/behavior', viewer, async (req, res) => {
      const { ctx, params } = reportOf(services, req);
      res.json(await pageBehavior(services.events, text(req, 'url')!, params, ctx, cursors));
    });
    routes.get('/api/v1/projects/{id}/forms', forms, async (req, res) => {
      const { ctx, params } = reportOf(services, req);
      res.json(await formsReport(services.events, params, ctx, cursors));
    });
    routes.get('/api/v1/projects/{id}/forms/detail', forms, async (req, res) => {
      const { ctx, params } = reportOf(services, req);
      res.json(await formDetail(services.events, text(req, 'form')!, text(req, 'url'), params, ctx, cursors));
    });
  },
};

/** The report's project context and checked parameters. */
function reportOf(services: Services, req: Request) {
  const project = req.project!;
  const ctx: ReportContext = {
    projectId: project.id,
    timezone: project.timezone,
    timeoutMs: services.config.query_timeout_ms,
    privacyMode: getBehaviorSettings(services.meta, project.id).privacy_mode,
  };
  return { ctx, params: parseReportParams(req.valid.query, localDate(services.clock.now(), project.timezone)) };
}
