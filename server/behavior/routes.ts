// Behavior settings routes: read (viewer+) and atomic partial update (admin+). Other behavior
// reports mount their own routes.

import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type Parameter } from '../http/openapi.js';
import { authenticate } from '../auth/authenticate.js';
import { projectAccess } from '../accounts/access.js';
import { getBehaviorSettings, patchBehaviorSettings, type BehaviorSettingsPatch } from './behaviorSettings.js';

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
};

const settingsSchema = {
  type: 'object',
  required: [...Object.keys(fields), 'updated_at'],
  properties: { ...fields, updated_at: { type: ['string', 'null'], format: 'date-time', description: 'null while the defaults apply' } },
  description: 'A project without stored settings resolves to strict privacy with every kind disabled.',
};

export const behaviorDomain: Domain = {
  name: 'behavior',
  openapi: {
    schemas: { BehaviorSettings: settingsSchema },
    paths: {
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
    const auth = { auth: [authenticate(services)] };
    routes.get('/api/v1/projects/{id}/behavior/settings', auth, projectAccess(services, 'viewer'), (req, res) => {
      res.json(getBehaviorSettings(services.meta, req.project!.id));
    });
    routes.patch('/api/v1/projects/{id}/behavior/settings', auth, projectAccess(services, 'admin'), (req, res) => {
      const patch = req.body as BehaviorSettingsPatch;
      res.json(patchBehaviorSettings(services.meta, req.project!.id, patch, req.auth!.userId, services.clock.now()));
    });
  },
};
