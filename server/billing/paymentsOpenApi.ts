// The OpenAPI description of the payment provider's callback (cloud edition). The body schema checks
// types only, so a new event type the provider starts sending is acknowledged rather than refused;
// what each known type needs is checked in payments.ts.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment } from '../http/openapi.js';
import { PLANS } from './plans.js';
import { PROVIDER_EVENT_TYPES } from './payments.js';

/** 9999-12-31T23:59:59Z: the latest time a Date (and our ISO columns) can hold in four digits. */
const MAX_UNIX_SECONDS = 253_402_300_799;
const UNIX_SECONDS: JsonSchema = { type: 'integer', minimum: 0, maximum: MAX_UNIX_SECONDS };
const PROVIDER_ID: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

export const PROVIDER_EVENTS_PATH = '/api/v1/billing/provider-events';

export const paymentsOpenApi: OpenApiFragment = {
  schemas: {
    ProviderEvent: {
      type: 'object',
      required: ['id', 'type', 'created', 'data'],
      properties: {
        id: { ...PROVIDER_ID, description: 'unique per event (`evt_…`); a repeated id is acknowledged and changes nothing' },
        type: { type: 'string', minLength: 1, maxLength: 100, description: `one of ${PROVIDER_EVENT_TYPES.join(', ')}; any other type is acknowledged and ignored` },
        created: { ...UNIX_SECONDS, description: 'when the provider created the event (unix seconds); orders the events of one organization' },
        data: {
          type: 'object',
          properties: {
            org_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the organization; required by every known type' },
            plan: { enum: [...PLANS], description: 'required by subscription.activated' },
            current_period_end: {
              oneOf: [UNIX_SECONDS, { type: 'string', format: 'date-time' }],
              description: 'end of the period paid for, unix seconds or RFC 3339; required by subscription.activated',
            },
            trial_end: {
              oneOf: [UNIX_SECONDS, { type: 'string', format: 'date-time' }],
              description: 'end of a trial the provider runs, unix seconds or RFC 3339; required by subscription.trialing',
            },
            customer: { ...PROVIDER_ID, description: "the provider's customer id, kept with the subscription" },
            subscription: { ...PROVIDER_ID, description: "the provider's subscription id, kept with the subscription" },
          },
        },
      },
    },
    ProviderEventReceipt: {
      type: 'object',
      required: ['received'],
      properties: {
        received: { const: true },
        duplicate: { const: true, description: 'the id was received before; nothing changed' },
        ignored: { enum: ['unknown type', 'unknown organization', 'no subscription', 'stale', 'not applicable'], description: 'recorded, not applied' },
        applied: { const: true },
        status: { enum: ['trialing', 'pending_review', 'active', 'past_due', 'cancelled'], description: 'the subscription after the event (when applied)' },
        plan: { enum: [...PLANS, null], description: 'the plan after the event (when applied)' },
      },
    },
  },
  paths: {
    [PROVIDER_EVENTS_PATH]: {
      post: {
        operationId: 'receiveProviderEvent',
        summary: "The payment provider's callback: moves an organization's subscription (cloud edition)",
        description:
          'No access token: the body is authenticated by `PP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(billing.webhook_secret, "<t>.<raw body>")>` ' +
          '(several v1 entries allowed; one must match) with t within billing.webhook_tolerance_seconds of now, else 401. Bodies up to 64 KiB, not compressed. ' +
          'Every well-formed, signed event answers 200, whether applied, a duplicate or ignored, so the provider stops retrying. ' +
          '404 unless edition=cloud and billing.webhook_secret is set. See docs/payments.md.',
        tags: ['billing'],
        security: [],
        parameters: [{ name: 'PP-Signature', in: 'header', required: true, description: '`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`', schema: { type: 'string' } }],
        requestBody: jsonBody(ref('ProviderEvent')),
        responses: { '200': jsonResponse('received', ref('ProviderEventReceipt')), ...errors(400, 401, 404, 413, 422, 429) },
      },
    },
  },
};
