// The OpenAPI description of the authentication group (no access token), the caller's sessions and
// MFA enrolment. Request schemas here are what ajv enforces.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Operation } from '../http/openapi.js';
import { ROLES } from '../access/roles.js';
import { PASSWORD_MAX_LENGTH } from '../ground/passwords.js';
import { signupOpenApi } from './signup/signupOpenApi.js';

const ID64: JsonSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const EMAIL: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
const PASSWORD: JsonSchema = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH };
const MFA_CODE: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, description: 'a current six-digit TOTP code or one unused recovery code' };
const NAME: JsonSchema = { type: 'string', maxLength: 200 };

const COOKIE_SET = {
  'Set-Cookie': {
    description: 'refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https)',
    schema: { type: 'string' },
  },
};
const COOKIE_CLEARED = {
  'Set-Cookie': { description: '`pp_rt=; Max-Age=0; Path=/api/v1/auth; HttpOnly; SameSite=Strict`', schema: { type: 'string' } },
};

const withHeaders = (response: Record<string, unknown>, headers: Record<string, unknown>) => ({ ...response, headers });

const ORG_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { org_id: { ...ID64, description: 'switch to this organization (active membership re-checked); absent keeps the current one' } },
};

function op(operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, tags: ['auth'], security: [], ...rest };
}

const meOp = (operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation => ({
  operationId,
  summary,
  tags: ['me'],
  ...rest,
});

export const authOpenApi: OpenApiFragment = {
  schemas: {
    ...signupOpenApi.schemas,
    TokenResponse: {
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in', 'user', 'org'],
      properties: {
        access_token: { type: 'string', description: 'JWT for `Authorization: Bearer`; lives 15 minutes' },
        token_type: { const: 'Bearer' },
        expires_in: { type: 'integer', const: 900 },
        user: {
          type: 'object',
          required: ['id', 'email', 'name'],
          properties: { id: { type: 'integer' }, email: { type: 'string' }, name: { type: ['string', 'null'] } },
        },
        org: {
          type: 'object',
          required: ['id', 'name', 'role'],
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            role: { enum: [...ROLES] },
            trial_state: {
              enum: ['trialing', 'sms_required', 'pending_review'],
              description: 'registration responses of trial-first signup only: `trialing`, or held until an SMS confirmation or a manual review',
            },
          },
        },
      },
    },
    MFARequiredResponse: {
      type: 'object',
      required: ['mfa_required'],
      properties: { mfa_required: { const: true } },
      description: 'no token was issued; repeat the same request with `mfa_code`',
    },
    CustomerBootstrapResponse: {
      description: 'the token response plus the shell sections this installation has; a section without data is absent',
      allOf: [
        ref('TokenResponse'),
        {
          type: 'object',
          properties: {
            license: {
              type: 'object',
              description: 'on-prem license summary (docs/license.md)',
              properties: {
                status: { enum: ['none', 'valid', 'expiring', 'grace', 'expired'] },
                licensee: { type: ['string', 'null'] },
                edition: { type: ['string', 'null'] },
                expires_at: { type: ['string', 'null'], format: 'date-time' },
                grace_ends_at: { type: ['string', 'null'], format: 'date-time' },
                days_left: { type: ['integer', 'null'] },
                features: { type: 'array', items: { type: 'string' }, description: 'entitlements in force now' },
                warnings: { type: 'array', items: { type: 'string' } },
              },
            },
            billing: { allOf: [ref('BillingSection')], description: "cloud only: the organization's subscription (docs/cloud.md); absent on-prem and for an organization without one" },
            usage: { allOf: [ref('UsageSection')], description: 'cloud only: events counted against the limits' },
          },
        },
      ],
    },
    Session: {
      type: 'object',
      required: ['id', 'created_at', 'last_seen_at', 'user_agent', 'ip', 'current'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        created_at: { type: 'string', format: 'date-time' },
        last_seen_at: { type: 'string', format: 'date-time', description: 'sign-in or latest refresh' },
        user_agent: { type: ['string', 'null'] },
        ip: { type: ['string', 'null'] },
        current: { type: 'boolean', description: 'the session of the token making this request' },
      },
    },
  },
  paths: {
    '/api/v1/auth/options': {
      get: op('signInOptions', 'What the sign-in pages may offer on this server', {
        description:
          'Public. `registration`: `open` (anyone may create an account: signup_mode legacy, or closed on a server with no account yet), ' +
          '`invitation_only` (signup_mode closed once the first account exists) or `trial_first` (cloud). ' +
          '`password_reset_email`: whether a forgotten password can be reset by email (SMTP is configured); without it an administrator issues a link with `ppctl admin reset-password --link`.',
        responses: {
          '200': jsonResponse('the options', {
            type: 'object',
            required: ['registration', 'password_reset_email'],
            properties: { registration: { enum: ['open', 'invitation_only', 'trial_first'] }, password_reset_email: { type: 'boolean' } },
          }),
          ...errors(429),
        },
      }),
    },
    '/api/v1/auth/register': {
      post: op('register', 'Create an account, its organization and a first project (legacy signup mode), or begin a trial-first signup', {
        description:
          'Password rule: at least 8 characters with an uppercase letter, a digit and a punctuation or symbol character. ' +
          'An email already registered is 422 with details.field=email. With signup_mode=closed the answer is 403 `forbidden` once the server has an account (the first account may register). ' +
          "`timezone` (an IANA zone) becomes the first project's zone; invalid values are ignored (UTC). `device_fp` and `utm` are accepted and ignored outside trial-first mode. " +
          'With signup_mode=trial_first (cloud) nothing is created: the answer is 202 SignupVerificationRequired and a six-digit code and a link, valid 10 minutes, are emailed ' +
          '(see /auth/register/verify); `timezone` then only renders that deadline. A disposable provider domain (or a subdomain of one) is 422 `disposable_email` with details.field=email. ' +
          '`device_fp` (a hash of at most 200 characters) and `utm` (a string map; values cut at 200 characters, at most 10 keys) are kept as signup signals; other shapes are dropped silently.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['email', 'password'],
          properties: {
            email: EMAIL,
            password: PASSWORD,
            name: NAME,
            org_name: { ...NAME, description: 'organization name; default "<name>\'s organization"' },
            timezone: { description: 'IANA zone from the browser; anything else is ignored' },
            device_fp: { description: 'device fingerprint hash; trial-first mode only' },
            utm: { description: 'first-touch UTM parameters as a string map; trial-first mode only' },
          },
        }),
        responses: {
          '201': withHeaders(jsonResponse('signed in', ref('TokenResponse')), COOKIE_SET),
          '202': jsonResponse('trial-first mode: a code and a link were emailed; nothing was created yet', ref('SignupVerificationRequired')),
          ...errors(403, 422, 429),
        },
      }),
    },
    ...signupOpenApi.paths,
    '/api/v1/auth/login': {
      post: op('login', 'Sign in with email and password (and a second factor when enabled)', {
        description:
          'A wrong email and a wrong password give the same 401 and take the same time. With MFA enabled and no `mfa_code` the answer is 200 MFARequiredResponse. ' +
          '`org_id` picks the organization (403 unless an active member); without it, the organization joined first.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['email', 'password'],
          properties: { email: EMAIL, password: PASSWORD, org_id: ID64, mfa_code: MFA_CODE },
        }),
        responses: {
          '200': withHeaders(jsonResponse('signed in, or a second factor is needed', { oneOf: [ref('TokenResponse'), ref('MFARequiredResponse')] }), COOKIE_SET),
          ...errors(401, 403, 422, 429),
        },
      }),
    },
    '/api/v1/auth/refresh': {
      post: op('refresh', 'New access token from the refresh cookie; the cookie is rotated', {
        description:
          'Reads only the `pp_rt` cookie. An invalid, expired or ended token is 401 with the cookie cleared; a token that was already rotated also revokes every session of its user. ' +
          'A present Origin outside the allowlist is 403 with `details.allowed_origin`, the origin of the base URL (where the console keeps its sign-in).',
        requestBody: jsonBody(ORG_BODY, false),
        responses: { '200': withHeaders(jsonResponse('new tokens', ref('TokenResponse')), COOKIE_SET), ...errors(401, 403, 422, 429) },
      }),
    },
    '/api/v1/auth/bootstrap': {
      post: op('bootstrap', 'Start the application shell: refresh plus shell data', {
        description:
          'Rotates the cookie exactly like refresh and returns the token response plus the shell sections that exist. Never cacheable. ' +
          'A present Origin outside the allowlist is 403 with `details.allowed_origin` (the console says which address to open).',
        requestBody: jsonBody(ORG_BODY, false),
        responses: {
          '200': withHeaders(jsonResponse('shell data', ref('CustomerBootstrapResponse')), {
            ...COOKIE_SET,
            'Cache-Control': { description: '`no-store`', schema: { type: 'string' } },
          }),
          ...errors(401, 403, 422, 429),
        },
      }),
    },
    '/api/v1/auth/logout': {
      post: op('logout', 'End the session of the refresh cookie and clear it', {
        description: 'Always 204 with the cookie cleared, also without a cookie or with an unknown one. A present Origin outside the allowlist is 403.',
        responses: { '204': { description: 'signed out', headers: COOKIE_CLEARED }, ...errors(403, 429) },
      }),
    },
    '/api/v1/auth/password/forgot': {
      post: op('forgotPassword', 'Email a one-hour password reset link', {
        description: '204 whether or not the account exists, in the same time. A new request invalidates earlier unused links.',
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['email'], properties: { email: EMAIL } }),
        responses: { '204': { description: 'accepted' }, ...errors(422, 429) },
      }),
    },
    '/api/v1/auth/password/reset': {
      post: op('resetPassword', 'Set a new password with an emailed link token', {
        description: 'Revokes every session and refresh token of the user. An unknown, used or expired token is 422 with message `invalid or expired token`.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['token', 'password'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 128 }, password: PASSWORD },
        }),
        responses: { '204': { description: 'password changed' }, ...errors(422, 429) },
      }),
    },
    '/api/v1/auth/invite/lookup': {
      post: op('lookupInvite', 'What an invitation is for, shown to the holder of its token', {
        description:
          'No access token: the emailed token is the proof, and only its holder learns the organization, the role and who invited them. ' +
          'An unknown or withdrawn token is 404; a used or expired one is 422 (details.field=token), as for accepting.',
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['token'], properties: { token: { type: 'string', minLength: 1, maxLength: 128 } } }),
        responses: {
          '200': jsonResponse('the invitation', {
            type: 'object',
            additionalProperties: false,
            required: ['email', 'org_name', 'role', 'invited_by_name', 'expires_at', 'new_account'],
            properties: {
              email: { type: 'string', description: 'the invited address' },
              org_name: { type: 'string' },
              role: { type: 'string', enum: [...ROLES] },
              invited_by_name: { type: ['string', 'null'], description: "the inviter's name, else their email; null when their account is gone" },
              expires_at: { type: 'string', format: 'date-time' },
              new_account: { type: 'boolean', description: 'no account has the address yet: accepting needs a password' },
            },
          }),
          ...errors(404, 422, 429),
        },
      }),
    },
    '/api/v1/auth/invite/accept': {
      post: op('acceptInvite', 'Accept an invitation and sign in', {
        description:
          'A new user must set `password` (complexity rule). An existing user needs no password (if one is sent it must be theirs, else 401) but must give `mfa_code` when MFA is on ' +
          '(else 200 MFARequiredResponse; a wrong code is 401). An unknown or withdrawn token is 404; a used or expired one is 422 (details.field=token).',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['token'],
          properties: { token: { type: 'string', minLength: 1, maxLength: 128 }, password: PASSWORD, name: NAME, mfa_code: MFA_CODE },
        }),
        responses: {
          '200': withHeaders(jsonResponse('signed in, or a second factor is needed', { oneOf: [ref('TokenResponse'), ref('MFARequiredResponse')] }), COOKIE_SET),
          ...errors(401, 404, 422, 429),
        },
      }),
    },
    '/api/v1/me/sessions': {
      get: meOp('listSessions', "The caller's live sessions (signed-in devices), newest first", {
        responses: {
          '200': jsonResponse('sessions', {
            type: 'object',
            required: ['items', 'next_cursor'],
            properties: { items: { type: 'array', items: ref('Session') }, next_cursor: { type: 'null' } },
          }),
          ...errors(401, 429),
        },
      }),
    },
    '/api/v1/me/sessions/{sessionID}': {
      delete: meOp('revokeSession', 'Sign out one of your sessions', {
        description: 'Its access tokens answer 401 from the next request and its refresh token stops working.',
        parameters: [{ name: 'sessionID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '204': { description: 'revoked' }, ...errors(400, 401, 404, 429) },
      }),
    },
    '/api/v1/me/password': {
      post: meOp('changePassword', 'Change your password', {
        description:
          'Needs the current password; the new one follows the complexity rule and must differ from it. Every other session of the user ends (this one stays), ' +
          'open reset links stop working, and `password_change_required` (GET /me) becomes false. A wrong current password is 422 with details.field=current_password; ' +
          'attempts spend the per-email budget of the sign-in group.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['current_password', 'new_password'],
          properties: { current_password: PASSWORD, new_password: PASSWORD },
        }),
        responses: { '204': { description: 'changed' }, ...errors(401, 422, 429) },
      }),
    },
    '/api/v1/me/mfa/setup': {
      post: meOp('setupMfa', 'Start two-factor enrolment: a new TOTP secret', {
        description: 'The secret stays pending until /me/mfa/enable confirms a code; calling again replaces a pending secret. 409 when MFA is already on.',
        responses: {
          '200': jsonResponse('secret for an authenticator app', {
            type: 'object',
            required: ['secret', 'otpauth_url'],
            properties: { secret: { type: 'string', description: 'base32' }, otpauth_url: { type: 'string', description: 'otpauth://totp/… for a QR code' } },
          }),
          ...errors(401, 409, 429),
        },
      }),
    },
    '/api/v1/me/mfa/enable': {
      post: meOp('enableMfa', 'Confirm the pending secret with a current code; returns ten recovery codes, once', {
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['code'], properties: { code: { type: 'string', minLength: 1, maxLength: 16 } } }),
        responses: {
          '200': jsonResponse('MFA enabled', {
            type: 'object',
            required: ['recovery_codes'],
            properties: { recovery_codes: { type: 'array', minItems: 10, maxItems: 10, items: { type: 'string' }, description: 'each usable once instead of a TOTP code; not shown again' } },
          }),
          ...errors(401, 409, 422, 429),
        },
      }),
    },
    '/api/v1/me/mfa/disable': {
      post: meOp('disableMfa', 'Turn two-factor authentication off with a current code or a recovery code', {
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['code'], properties: { code: MFA_CODE } }),
        responses: { '204': { description: 'MFA disabled; recovery codes deleted' }, ...errors(401, 409, 422, 429) },
      }),
    },
  },
};
