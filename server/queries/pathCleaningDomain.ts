// HTTP surface of a project's path-cleaning rules (see pathCleaning.ts): viewers read them and try
// a URL against them (saved or proposed), admins replace them. A change is audited and moves the
// revision, which retires the paths answers the result cache holds for the project.

import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type Operation } from '../http/openapi.js';
import { project } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { checkPathRules, getPathCleaning, MAX_ALIAS_TOTAL, MAX_CLEANED_PATH, MAX_PATH_RULES, RULES_TIME_LIMIT_MS, setPathRules, timeLimit, traceCleaning, type PathRule } from './pathCleaning.js';

const BASE = '/api/v1/projects/{id}/path-cleaning';
const TEST = `${BASE}/test`;

const rules: JsonSchema = {
  type: 'array',
  maxItems: MAX_PATH_RULES,
  items: ref('PathRule'),
  description: `applied in order, each to the result of the previous one; the aliases together at most ${MAX_ALIAS_TOTAL} characters`,
};

const schemas: Record<string, JsonSchema> = {
  PathRule: {
    type: 'object',
    additionalProperties: false,
    required: ['pattern', 'alias'],
    properties: {
      pattern: { type: 'string', minLength: 1, maxLength: 500, description: 'a regular expression (RE2 syntax), e.g. `/users/\\d+`' },
      alias: { type: 'string', maxLength: 200, description: 'what replaces every match, e.g. `/users/:id`; `\\1`…`\\9` insert groups' },
    },
  },
  PathCleaning: {
    type: 'object',
    required: ['rules', 'revision', 'updated_at'],
    properties: {
      rules: { type: 'array', items: ref('PathRule') },
      revision: { type: 'integer', minimum: 0, description: 'the URL-normalization revision; grows with every change' },
      updated_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  PathCleaningChange: { type: 'object', additionalProperties: false, required: ['rules'], properties: { rules } },
  PathCleaningTestRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 2048, description: 'an absolute URL or a path starting with `/`' },
      rules: { ...rules, description: 'rules to try instead of the saved ones' },
    },
  },
  PathCleaningTrace: {
    type: 'object',
    required: ['url', 'path', 'cleaned', 'steps'],
    properties: {
      url: { type: 'string' },
      path: { type: ['string', 'null'], description: "the URL's path; null when it has none (then page views show as pp.page_view)" },
      cleaned: { type: ['string', 'null'], description: 'the item a page view of this URL becomes' },
      steps: {
        type: 'array',
        items: {
          type: 'object',
          required: ['pattern', 'alias', 'matched', 'result'],
          properties: { pattern: { type: 'string' }, alias: { type: 'string' }, matched: { type: 'boolean' }, result: { type: 'string' } },
        },
      },
    },
  },
};

const idParam = { name: 'id', in: 'path' as const, required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const op = (o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({ ...o, parameters: [idParam], tags: ['queries'], security: [{ accessToken: [] }] });

export const pathCleaningDomain: Domain = {
  name: 'path-cleaning',
  openapi: {
    schemas,
    paths: {
      [BASE]: {
        get: op({
          operationId: 'getPathCleaning',
          summary: "The project's path-cleaning rules and their revision (viewer+)",
          responses: { '200': jsonResponse('the rules', ref('PathCleaning')), ...errors(400, 401, 404, 429) },
        }),
        put: op({
          operationId: 'setPathCleaning',
          summary: 'Replace the path-cleaning rules (admin+); the revision moves on',
          description: `Each pattern must compile as RE2 (the query engine) and as a JavaScript regular expression; a defect is 422 naming the rule. A rule whose result on a path could pass ${MAX_CLEANED_PATH} characters leaves that path as it was.`,
          requestBody: jsonBody(ref('PathCleaningChange')),
          responses: { '200': jsonResponse('the rules', ref('PathCleaning')), ...errors(400, 401, 403, 404, 408, 422, 429) },
        }),
      },
      [TEST]: {
        post: op({
          operationId: 'testPathCleaning',
          summary: 'Clean one URL with the saved rules, or with proposed ones, step by step (viewer+)',
          description: `A rule whose result on this URL's path could pass ${MAX_CLEANED_PATH} characters is 422 naming it (the paths query leaves such a path as it was).`,
          requestBody: jsonBody(ref('PathCleaningTestRequest')),
          responses: { '200': jsonResponse('the trace', ref('PathCleaningTrace')), ...errors(400, 401, 404, 408, 422, 429) },
        }),
      },
    },
  },
  mount(routes, services) {
    routes.get(BASE, project('viewer'), (req, res) => {
      res.json(getPathCleaning(services.meta, req.project!.id));
    });

    routes.put(BASE, project('admin'), async (req, res) => {
      const { rules } = req.body as { rules: PathRule[] };
      await checkPathRules(services.events, rules);
      const project = req.project!;
      const saved = setPathRules(services.meta, project.id, rules, req.auth!.userId, services.clock.now());
      recordAudit(services, {
        actor_user_id: req.auth!.userId,
        org_id: project.org_id,
        action: 'project.path_cleaning.update',
        target: String(project.id),
        outcome: 'success',
        details: { rules: rules.length, revision: saved.revision },
      });
      res.json(saved);
    });

    routes.post(TEST, project('viewer', { mutates: false }), async (req, res) => {
      const body = req.body as { url: string; rules?: PathRule[] };
      const timeLeft = timeLimit(RULES_TIME_LIMIT_MS);
      if (body.rules) await checkPathRules(services.events, body.rules, 'rules', timeLeft);
      const list = body.rules ?? getPathCleaning(services.meta, req.project!.id).rules;
      res.json(await traceCleaning(services.events, body.url, list, 'rules', timeLeft));
    });
  },
};
