// The cloud billing surface of the cabinet: the organization's subscription and usage, choosing a
// plan, and the `billing` and `usage` sections of the bootstrap response. On-prem the routes
// answer 404 and the sections are absent.

import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import { NotFoundError } from '../ground/errors.js';
import { org } from '../access/access.js';
import { getUser } from '../accounts/users.js';
import { registerBootstrapSection } from '../http/bootstrapSections.js';
import { billingSection, usageSection } from './billingSummary.js';
import { choosePlan } from './choosePlan.js';
import { PLANS, type Plan } from './plans.js';

const ORG_ID: Parameter = { name: 'orgID', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } };
const TIME: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const PLAN: JsonSchema = { enum: [...PLANS] };

function op(operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, tags: ['billing'], parameters: [ORG_ID], ...rest };
}

const billingSchemas: Record<string, JsonSchema> = {
  BillingSection: {
    type: 'object',
    description: 'The subscription of a cloud organization (bootstrap `billing` section).',
    required: [
      'status',
      'access',
      'trial_state',
      'plan',
      'trial_started_at',
      'trial_ends_at',
      'trial_days_left',
      'current_period_end',
      'past_due_since',
      'grace_ends_at',
      'entitlements',
      'billing_url',
      'checkout_available',
      'plans',
    ],
    properties: {
      status: { enum: ['trialing', 'pending_review', 'active', 'past_due', 'cancelled'] },
      access: { enum: [null, 'trial_pending_review', 'trial_expired', 'subscription_required'], description: 'why the organization is limited now; null when it is not' },
      trial_state: { enum: ['trialing', 'sms_required', 'pending_review', 'rejected', 'converted', 'expired'] },
      plan: { enum: [...PLANS, null], description: 'the plan in force (the trial plan while trialing or held); null while paused' },
      trial_started_at: { type: 'string', format: 'date-time' },
      trial_ends_at: TIME,
      trial_days_left: { type: ['integer', 'null'] },
      current_period_end: TIME,
      past_due_since: TIME,
      grace_ends_at: TIME,
      entitlements: { type: 'array', items: { type: 'string' } },
      billing_url: { type: 'string' },
      checkout_available: { type: 'boolean', description: 'whether paid plans can be bought here (billing.checkout_url is set)' },
      plans: {
        type: 'array',
        items: {
          type: 'object',
          required: ['plan', 'entitlements', 'events_per_month'],
          properties: { plan: PLAN, entitlements: { type: 'array', items: { type: 'string' } }, events_per_month: { type: 'integer' } },
        },
      },
    },
  },
  UsageSection: {
    type: 'object',
    description: 'Events counted against the limits of a cloud organization (bootstrap `usage` section).',
    required: ['month', 'events_this_month', 'trial_events', 'limit', 'limit_kind'],
    properties: {
      month: { type: 'string', description: 'the calendar month (UTC) counted, e.g. 2026-11' },
      events_this_month: { type: 'integer' },
      trial_events: { type: 'integer', description: 'events ingested since the trial started' },
      limit: { type: ['integer', 'null'] },
      limit_kind: { enum: ['trial_total', 'monthly', null] },
    },
  },
};

export const billingOpenApi = {
  schemas: billingSchemas,
  paths: {
    '/api/v1/orgs/{orgID}/billing': {
      get: op('getBilling', "The organization's subscription and usage (cloud edition; viewer+)", {
        description: 'On-prem, and for an organization without a subscription, 404.',
        responses: {
          '200': jsonResponse('subscription and usage', { type: 'object', required: ['billing', 'usage'], properties: { billing: ref('BillingSection'), usage: ref('UsageSection') } }),
          ...errors(400, 401, 403, 404, 429),
        },
      }),
    },
    '/api/v1/orgs/{orgID}/billing/plan': {
      post: op('choosePlan', 'Choose a plan (cloud edition; admin+)', {
        description:
          '`free` starts the free plan at once (409 while a paid plan is running). A paid plan answers where to pay (`checkout_url`); the payment ' +
          "provider's callback then moves the subscription. 409 when no checkout is configured; 403 `trial_pending_review` while the trial waits for activation. " +
          'Allowed while the organization is paused (402 elsewhere), since it ends the pause.',
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['plan'], properties: { plan: PLAN } }),
        responses: {
          '200': jsonResponse('the plan started, or where to pay for it', {
            type: 'object',
            properties: { plan: PLAN, subscription: { const: 'active' }, checkout_url: { type: 'string' } },
          }),
          ...errors(400, 401, 403, 404, 409, 422, 429),
        },
      }),
    },
  },
};

export const billingDomain: Domain = {
  name: 'billing',
  openapi: billingOpenApi,
  mount(routes, services) {
    registerBootstrapSection('billing', (s, ctx) => billingSection(s, ctx.orgId) as Record<string, unknown> | undefined);
    registerBootstrapSection('usage', (s, ctx) => usageSection(s, ctx.orgId) as Record<string, unknown> | undefined);

    routes.get('/api/v1/orgs/{orgID}/billing', org('viewer', { cloudOnly: true }), (req, res) => {
      const billing = billingSection(services, req.auth!.orgId);
      if (!billing) throw new NotFoundError('this organization has no subscription');
      res.json({ billing, usage: usageSection(services, req.auth!.orgId) });
    });

    routes.post('/api/v1/orgs/{orgID}/billing/plan', org('admin', { cloudOnly: true, openWhilePaused: true }), (req, res) => {
      res.json(choosePlan(services, req.auth!.orgId, req.body.plan as Plan, getUser(services.meta, req.auth!.userId)!.email));
    });
  },
};
