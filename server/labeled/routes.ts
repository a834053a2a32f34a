// HTTP surface of labeled-event rules (docs/labeled-events.md): viewers read rules, analysts
// write them, preview one and use the element picker. Mounting it lets the job runner run the
// rules' sync jobs, those a stopped server left behind included.

import type { Request, RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import { project } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { BASE_EVENTS } from './matchSql.js';
import { countMatching, labeledCounts } from './derive.js';
import { issuePickerToken, pickerEnabled, pollCapture, PICKER_TOKEN_SECONDS } from './picker.js';
import { checkRuleBody, createRule, getRule, LIMITS, listRules, type LabeledEventRule, MAX_RULES_PER_PROJECT, replaceRule, transition, type Transition } from './rules.js';

const BASE = '/api/v1/projects/{id}/labeled-events';
const ONE = `${BASE}/{ruleID}`;
export const PREVIEW_DAYS = 30;

const text = (max: number, description: string): JsonSchema => ({ type: ['string', 'null'], maxLength: max, description });
const stamp = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });

const attribute: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'op'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, description: 'id, class, href, name, type, role, aria-label or a data-pp-* attribute' },
    op: { enum: ['eq', 'contains', 'exists'] },
    value: { type: 'string', maxLength: LIMITS.attribute_value, description: 'required for eq and contains; ignored for exists' },
  },
};

const conditions: Record<string, JsonSchema> = {
  base_event: { enum: [...BASE_EVENTS], description: 'the autocapture event the rule labels' },
  selector: text(LIMITS.selector, 'CSS subset: tag, #id, .class, [attr], [attr=value], :nth-child(n), descendant and > combinators'),
  url_pattern: text(LIMITS.url_pattern, 'exact normalized URL, or with * wildcards; starting with / it is matched against the path'),
  match_text: text(LIMITS.match_text, "the clicked element's text, case-insensitive"),
  attributes: { type: ['array', 'null'], maxItems: LIMITS.attributes, items: ref('LabeledEventAttribute'), description: 'conditions on the matched element' },
  event_name: { type: 'string', maxLength: LIMITS.event_name, description: 'the derived events’ name, unique in the project; not starting with pp.' },
  display_name: text(LIMITS.display_name, 'a name for people'),
  description: text(LIMITS.description, 'what the rule is for'),
};

const schemas: Record<string, JsonSchema> = {
  LabeledEventAttribute: attribute,
  LabeledEventRuleBody: { type: 'object', additionalProperties: false, required: ['base_event', 'event_name'], properties: conditions },
  LabeledEventPreviewBody: { type: 'object', additionalProperties: false, required: ['base_event'], properties: conditions },
  LabeledEventMaterialization: {
    type: 'object',
    required: ['state', 'derived_events', 'finished_at', 'error'],
    properties: {
      state: { enum: ['queued', 'running', 'succeeded', 'failed'] },
      derived_events: { type: ['integer', 'null'], minimum: 0, description: 'events the rule labeled after its latest successful job (kept while another runs); null until one succeeded' },
      finished_at: stamp('null until the job ended'),
      error: { type: ['string', 'null'], description: 'why the job failed' },
    },
  },
  LabeledEventRule: {
    type: 'object',
    required: [
      'id',
      'base_event',
      'selector',
      'url_pattern',
      'match_text',
      'attributes',
      'event_name',
      'display_name',
      'description',
      'state',
      'labeled_events',
      'materialization',
      'created_at',
      'updated_at',
      'created_by',
      'updated_by',
    ],
    properties: {
      id: { type: 'integer', format: 'int64' },
      base_event: { enum: [...BASE_EVENTS] },
      selector: { type: ['string', 'null'] },
      url_pattern: { type: ['string', 'null'] },
      match_text: { type: ['string', 'null'] },
      attributes: { type: 'array', items: ref('LabeledEventAttribute') },
      event_name: { type: 'string' },
      display_name: { type: ['string', 'null'] },
      description: { type: ['string', 'null'] },
      state: { enum: ['active', 'disabled', 'deleting'], description: 'active → disabled → active; active or disabled → deleting, then gone' },
      labeled_events: { type: 'integer', minimum: 0, description: 'events the rule labels now: derived over history, and since as events arrived' },
      materialization: { oneOf: [ref('LabeledEventMaterialization'), { type: 'null' }], description: 'the latest derivation or teardown job' },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
      created_by: { type: ['integer', 'null'] },
      updated_by: { type: ['integer', 'null'] },
    },
  },
  LabeledEventRuleList: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', maxItems: MAX_RULES_PER_PROJECT, items: ref('LabeledEventRule'), description: 'every rule of the project, by event name' } },
  },
  LabeledEventPreview: {
    type: 'object',
    required: ['count', 'from', 'to'],
    properties: {
      count: { type: 'integer', minimum: 0, description: `raw events matching, with their time in (from, to]` },
      from: { type: 'string', format: 'date-time' },
      to: { type: 'string', format: 'date-time' },
    },
  },
  PickerToken: {
    type: 'object',
    required: ['token', 'nonce', 'expires_at'],
    properties: {
      token: { type: 'string', description: 'signed, bound to the project and the user; open the site with ?pp_picker_token=…&pp_picker_nonce=…' },
      nonce: { type: 'string' },
      expires_at: { type: 'string', format: 'date-time', description: `${PICKER_TOKEN_SECONDS / 60} minutes after issue` },
    },
  },
  PickerCapturePoll: {
    type: 'object',
    required: ['ready', 'expires_at'],
    properties: {
      ready: { type: 'boolean', description: 'whether the picker captured an element under the token yet' },
      expires_at: { type: 'string', format: 'date-time' },
      captured_at: { type: 'string', format: 'date-time' },
      url: { type: 'string', description: 'the page the element was picked on' },
      url_pattern: { type: ['string', 'null'], description: 'that page normalized, as a url_pattern' },
      selector: { type: 'string', description: 'a short stable selector for the element (data-pp-*, id, then tags and classes)' },
      text: { type: ['string', 'null'], description: "the element's text (standard privacy mode only)" },
      element: {
        type: 'object',
        required: ['tag', 'id', 'classes', 'attributes'],
        properties: {
          tag: { type: 'string' },
          id: { type: ['string', 'null'] },
          classes: { type: 'array', items: { type: 'string' } },
          attributes: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  },
};

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const ruleId: Parameter = { name: 'ruleID', in: 'path', required: true, description: 'rule id', schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } };
const op = (parameters: Parameter[], o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({ ...o, parameters, tags: ['labeled-events'], security: [{ accessToken: [] }] });
const stateChange = (what: Transition, summary: string): Operation =>
  op([projectId, ruleId], { operationId: `${what}LabeledEventRule`, summary, responses: { '204': { description: 'done' }, ...errors(400, 401, 403, 404, 409, 429) } });

/** The body's semantic checks (selector syntax, conditions per base event), like the schema's, before the role. */
const ruleBody =
  (eventNameRequired: boolean): RequestHandler =>
  (req, _res, next) => {
    req.body = checkRuleBody(req.body as Record<string, unknown>, { eventNameRequired });
    next();
  };

export const labeledEventsDomain: Domain = {
  name: 'labeled-events',
  openapi: {
    schemas,
    paths: {
      [BASE]: {
        get: op([projectId], {
          operationId: 'listLabeledEventRules',
          summary: 'Every labeled-event rule of the project, ordered by event name (viewer+)',
          responses: { '200': jsonResponse('the rules', ref('LabeledEventRuleList')), ...errors(401, 404, 429) },
        }),
        post: op([projectId], {
          operationId: 'createLabeledEventRule',
          summary: 'Create a rule, active; its events are derived over all history in the background (analyst+)',
          requestBody: jsonBody(ref('LabeledEventRuleBody')),
          responses: { '201': jsonResponse('the rule', ref('LabeledEventRule')), ...errors(401, 403, 404, 409, 422, 429) },
        }),
      },
      [`${BASE}/preview`]: {
        post: op([projectId], {
          operationId: 'previewLabeledEventRule',
          summary: `Count the raw events a rule would match over the last ${PREVIEW_DAYS} days; nothing is stored (analyst+)`,
          requestBody: jsonBody(ref('LabeledEventPreviewBody')),
          responses: { '200': jsonResponse('the count', ref('LabeledEventPreview')), ...errors(401, 403, 404, 408, 422, 429) },
        }),
      },
      [`${BASE}/picker-token`]: {
        post: op([projectId], {
          operationId: 'issuePickerToken',
          summary: 'A signed ten-minute element-picker token bound to the project, with its nonce (analyst+)',
          responses: { '200': jsonResponse('the token', ref('PickerToken')), ...errors(401, 403, 404, 429, 501) },
        }),
      },
      [`${BASE}/picker/captures`]: {
        get: op([projectId, { name: 'token', in: 'query', required: true, description: 'the picker token (redacted from logs)', schema: { type: 'string', minLength: 1, maxLength: 1024 } }], {
          operationId: 'pollPickerCapture',
          summary: 'Whether the picker captured an element under the token, and its selector metadata (analyst+)',
          responses: { '200': jsonResponse('the capture', ref('PickerCapturePoll')), ...errors(401, 403, 404, 429, 501) },
        }),
      },
      [ONE]: {
        get: op([projectId, ruleId], {
          operationId: 'getLabeledEventRule',
          summary: 'One rule (viewer+)',
          responses: { '200': jsonResponse('the rule', ref('LabeledEventRule')), ...errors(400, 401, 404, 429) },
        }),
        patch: op([projectId, ruleId], {
          operationId: 'replaceLabeledEventRule',
          summary: 'Replace a rule’s names, texts and conditions; changed conditions derive its events again (analyst+)',
          requestBody: jsonBody(ref('LabeledEventRuleBody')),
          responses: { '200': jsonResponse('the rule', ref('LabeledEventRule')), ...errors(400, 401, 403, 404, 409, 422, 429) },
        }),
        delete: op([projectId, ruleId], {
          operationId: 'deleteLabeledEventRule',
          summary: 'Mark a rule deleting; its derived events are deleted in the background, then the rule (analyst+)',
          responses: { '204': { description: 'deleting' }, ...errors(400, 401, 403, 404, 409, 429) },
        }),
      },
      [`${ONE}/disable`]: { post: stateChange('disable', 'Disable an active rule; its derived events are deleted in the background (analyst+)') },
      [`${ONE}/enable`]: { post: stateChange('enable', 'Enable a disabled rule; its events are derived over all history in the background (analyst+)') },
    },
  },
  mount(routes, services) {
    const viewer = project('viewer');
    const analyst = project('analyst');
    const ruleOf = (req: Request) => Number(req.valid.params.ruleID);
    /** Rules with how many events each labels now, read from the event store. */
    const counted = async (projectId: number, rules: LabeledEventRule[]) => {
      const counts = await labeledCounts(services, projectId);
      return rules.map((r) => ({ ...r, labeled_events: counts.get(r.id) ?? 0 }));
    };
    const one = async (req: Request, rule: LabeledEventRule) => (await counted(req.project!.id, [rule]))[0];
    const audit = (req: Request, action: string, target: number, details: Record<string, unknown> = {}) =>
      recordAudit(services, { actor_user_id: req.auth!.userId, org_id: req.project!.org_id, action, target: String(target), outcome: 'success', details: { project_id: req.project!.id, ...details } });

    routes.get(BASE, viewer, async (req, res) => {
      res.json({ items: await counted(req.project!.id, listRules(services.meta, req.project!.id)) });
    });

    routes.post(BASE, analyst, ruleBody(true), async (req, res) => {
      const rule = createRule(services, req.project!.id, req.auth!.userId, req.body);
      audit(req, 'labeled_event.create', rule.id, { event_name: rule.event_name });
      res.status(201).json(await one(req, rule));
    });

    routes.post(`${BASE}/preview`, project('analyst', { mutates: false }), ruleBody(false), async (req, res) => {
      const to = services.clock.now();
      const from = new Date(to.getTime() - PREVIEW_DAYS * 86_400_000);
      const count = await countMatching(services, { ...req.body, project_id: req.project!.id }, from, to);
      res.json({ count, from: from.toISOString(), to: to.toISOString() });
    });

    routes.post(`${BASE}/picker-token`, analyst, (req, res) => {
      pickerEnabled(services);
      res.json(issuePickerToken(services, req.project!.id, req.auth!.userId));
    });

    routes.get(`${BASE}/picker/captures`, analyst, async (req, res) => {
      pickerEnabled(services);
      res.json(await pollCapture(services, req.project!.id, String(req.valid.query.token)));
    });

    routes.get(ONE, viewer, async (req, res) => {
      res.json(await one(req, getRule(services.meta, req.project!.id, ruleOf(req))));
    });

    routes.patch(ONE, analyst, ruleBody(true), async (req, res) => {
      const rule = replaceRule(services, req.project!.id, ruleOf(req), req.auth!.userId, req.body);
      audit(req, 'labeled_event.update', rule.id, { event_name: rule.event_name });
      res.json(await one(req, rule));
    });

    for (const [what, path] of [
      ['disable', `${ONE}/disable`],
      ['enable', `${ONE}/enable`],
      ['delete', ONE],
    ] as const) {
      const handler: RequestHandler = (req, res) => {
        transition(services, req.project!.id, ruleOf(req), req.auth!.userId, what);
        audit(req, `labeled_event.${what}`, ruleOf(req));
        res.status(204).end();
      };
      if (what === 'delete') routes.delete(path, analyst, handler);
      else routes.post(path, analyst, handler);
    }
  },
};
