// The OpenAPI description of SMS activation of a held trial; signupOpenApi.ts merges it into the
// verify family. Request schemas here are what ajv enforces.

import { errors, jsonBody, jsonResponse, ref, type OpenApiFragment, type Operation } from '../../http/openapi.js';

const CALLER =
  'Needs the access token of an owner or admin (else 403) of an organization whose subscription is `pending_review` with `trial_state=sms_required`; ' +
  'any other state is 409 `conflict` naming it in `details.status` and `details.trial_state`. Spends the sign-in group budgets. ' +
  'Outside the cloud edition the operation is 404.';

function op(operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, tags: ['auth'], security: [{ accessToken: [] }], ...rest };
}

export const smsActivationOpenApi: OpenApiFragment = {
  schemas: {
    TrialSmsSent: {
      type: 'object',
      required: ['phone_masked', 'expires_at'],
      properties: {
        phone_masked: { type: 'string', description: 'the number the code goes to, all but its first two and last two digits masked: `+49*********12`' },
        expires_at: { type: 'string', format: 'date-time', description: 'the code works until then (10 minutes)' },
      },
    },
    TrialActivated: {
      type: 'object',
      required: ['org', 'subscription'],
      properties: {
        org: { type: 'object', required: ['id', 'trial_state'], properties: { id: { type: 'integer' }, trial_state: { const: 'trialing' } } },
        subscription: {
          type: 'object',
          required: ['status', 'trial_started_at', 'trial_ends_at'],
          properties: {
            status: { const: 'trialing' },
            trial_started_at: { type: 'string', format: 'date-time' },
            trial_ends_at: { type: 'string', format: 'date-time', description: 'the trial runs its full length from the activation' },
          },
        },
      },
    },
  },
  paths: {
    '/api/v1/auth/trial/sms': {
      post: op('sendTrialSmsCode', 'Send a six-digit code by SMS to activate a trial held by the risk rules', {
        description:
          'The number is E.164 (`+`, then 8 to 15 digits, the first not 0); spaces, dashes and parentheses are ignored, anything else is 422 with details.field=phone. ' +
          'A number that already activated another organization is 422 on phone. A fresh code (valid 10 minutes) replaces the previous one. ' +
          'At most one code a minute and five in 24 hours per organization: 429 `rate_limited` with Retry-After. ' +
          CALLER,
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['phone'],
          properties: { phone: { type: 'string', minLength: 1, maxLength: 40, description: 'mobile number in international format, e.g. `+49 151 2345 6712`' } },
        }),
        responses: { '202': jsonResponse('the code is queued for the SMS gateway', ref('TrialSmsSent')), ...errors(401, 403, 404, 409, 422, 429) },
      }),
    },
    '/api/v1/auth/trial/sms/verify': {
      post: op('verifyTrialSmsCode', 'Prove the SMS code: the trial starts', {
        description:
          'The right code starts the trial (its full length from now) and spends the number. A wrong, expired or replaced code, and a code after more than 10 wrong ones, ' +
          'give the same 422 (`invalid or expired code`, details.field=code); then a new code must be sent. ' +
          CALLER,
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['code'],
          properties: { code: { type: 'string', pattern: '^[0-9]{6}$', description: 'the six-digit code from the SMS' } },
        }),
        responses: { '200': jsonResponse('the trial is active', ref('TrialActivated')), ...errors(401, 403, 404, 409, 422, 429) },
      }),
    },
  },
};
