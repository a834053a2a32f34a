// The OpenAPI description of the verify family of trial-first signup and of SMS activation of a held
// trial; server/auth/openapi.ts merges it into the authentication group. Request schemas here are what
// ajv enforces.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Operation } from '../../http/openapi.js';
import { smsActivationOpenApi } from './smsOpenApi.js';

const EMAIL: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
export const COMPANY_NOTE_MAX = 1000;

const PROOF_PROPERTIES: Record<string, JsonSchema> = {
  email: EMAIL,
  code: { type: 'string', pattern: '^[0-9]{6}$', description: 'the six-digit code from the email; required together with `email`' },
  token: { type: 'string', minLength: 1, maxLength: 128, description: 'the link token from the email; replaces `email` plus `code`' },
};

const PROOF: JsonSchema = { type: 'object', additionalProperties: false, properties: PROOF_PROPERTIES };

const UNIFORM_422 =
  'An unknown address, an expired, used or replaced code or token, a signup with more than 10 wrong codes and a wrong code all give the same 422 ' +
  '(details.field is `code`, or `token` when a token was sent). Outside signup_mode=trial_first the operation is 404.';

const COOKIE_SET = {
  'Set-Cookie': { description: 'refresh token, exactly as set by login and register', schema: { type: 'string' } },
};

function op(operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, tags: ['auth'], security: [], ...rest };
}

const signedIn = (description: string) => ({ ...jsonResponse(description, ref('TokenResponse')), headers: COOKIE_SET });

export const signupOpenApi: OpenApiFragment = {
  schemas: {
    SignupVerificationRequired: {
      type: 'object',
      required: ['verification_required', 'email'],
      properties: {
        verification_required: { const: true },
        email: { type: 'string', description: 'the address (lower case) a code is sent to if a signup is pending for it' },
      },
      description: 'nothing was created; the same answer whether or not an email went out',
    },
    ...smsActivationOpenApi.schemas,
  },
  paths: {
    '/api/v1/auth/register/verify': {
      post: op('verifySignup', 'Prove the address of a trial-first signup and create the account', {
        description:
          'Creates the user, an organization they own, a first project and a subscription in one transaction and signs in (201 with `org.trial_state`). ' +
          'A risk-rule hit (a device or address shared with an organization whose trial began less than 90 days ago; a free mail provider plus any shared signal; ' +
          'two or more signups from one address within 24 hours) still signs in, with a `pending_review` subscription and `org.trial_state=sms_required`. ' +
          'A company domain where an organization already has a member is 409 `domain_has_org` with masked hints; the signup stays pending for request-invite or domain-review. ' +
          UNIFORM_422,
        requestBody: jsonBody(PROOF),
        responses: { '201': signedIn('signed in to the new organization'), ...errors(404, 409, 422, 429) },
      }),
    },
    '/api/v1/auth/register/resend': {
      post: op('resendSignupVerification', 'Send a fresh code and link for a pending trial-first signup', {
        description:
          'Always 202 with the same body. A pending signup gets a new code and token (the previous ones stop working) unless its latest email is less than 60 seconds old ' +
          'or 10 emails went to the address in the last 24 hours. The 10-minute deadline counts from the first email and is not extended. ' +
          '`timezone` (IANA) only renders the deadline in the email. Outside signup_mode=trial_first the operation is 404.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['email'],
          properties: { email: EMAIL, timezone: { description: 'IANA zone for the deadline in the email; anything else is ignored' } },
        }),
        responses: { '202': jsonResponse('accepted', ref('SignupVerificationRequired')), ...errors(404, 422, 429) },
      }),
    },
    '/api/v1/auth/register/request-invite': {
      post: op('requestSignupInvite', "Ask the owner of the domain's organization for an invitation instead of signing up", {
        description:
          'Only after verify answered 409 `domain_has_org`: emails the owner of the newest organization with a member at the domain and spends the signup; nothing is created. ' +
          'Without a domain conflict the answer is 422 and the signup stays as it was. ' +
          UNIFORM_422,
        requestBody: jsonBody(PROOF),
        responses: {
          '202': jsonResponse('the owner has been notified', { type: 'object', required: ['owner_notified'], properties: { owner_notified: { const: true } } }),
          ...errors(404, 422, 429),
        },
      }),
    },
    '/api/v1/auth/register/domain-review': {
      post: op('requestSignupDomainReview', 'Create a separate organization on a taken company domain, held for manual review', {
        description:
          'Only after verify answered 409 `domain_has_org`: creates the account like verify, with a `pending_review` subscription and `org.trial_state=pending_review`. ' +
          '`company_note` (up to 1000 characters) tells the reviewer why. Without a domain conflict the answer is 422 and the signup stays as it was. ' +
          UNIFORM_422,
        requestBody: jsonBody({
          ...PROOF,
          properties: { ...PROOF_PROPERTIES, company_note: { type: 'string', maxLength: COMPANY_NOTE_MAX, description: 'for the reviewer' } },
        }),
        responses: { '201': signedIn('signed in to the new organization, pending review'), ...errors(404, 422, 429) },
      }),
    },
    ...smsActivationOpenApi.paths,
  },
};
