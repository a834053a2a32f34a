// The OpenAPI description of single sign-on: the two public steps of the sign-in and the owner's
// configuration of the organization's provider. Request schemas here are what ajv enforces.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment } from '../../http/openapi.js';
import { ID_TOKEN_ALGORITHMS } from './signingAlgorithms.js';

const ID64: JsonSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const JIT_ROLE: JsonSchema = { enum: ['viewer', 'analyst', 'admin'] };
const ORG_ID = { name: 'orgID', in: 'path' as const, required: true, schema: ID64 };

const PROVIDER_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['issuer', 'client_id', 'domains'],
  properties: {
    issuer: { type: 'string', minLength: 1, maxLength: 2048, description: 'exactly the `issuer` of the discovery document, e.g. https://sso.example.com/realms/acme' },
    client_id: { type: 'string', minLength: 1, maxLength: 512 },
    client_secret: { type: 'string', minLength: 1, maxLength: 4096, description: 'required on the first PUT; absent later, the stored secret is kept' },
    domains: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: { type: 'string', minLength: 1, maxLength: 253 },
      description: 'email domains that sign in through this provider, matched exactly (no subdomains); lower-cased',
    },
    enabled: { type: 'boolean', default: true },
    jit: {
      type: 'object',
      additionalProperties: false,
      required: ['enabled'],
      properties: { enabled: { type: 'boolean' }, default_role: { ...JIT_ROLE, default: 'viewer' } },
      description: 'just-in-time membership: a verified user of an allowed domain who is not a member joins with default_role; off by default',
    },
  },
};

export const oidcOpenApi: OpenApiFragment = {
  schemas: {
    OIDCStartResponse: {
      type: 'object',
      required: ['authorization_url'],
      properties: { authorization_url: { type: 'string', format: 'uri', description: "the identity provider's authorization URL; its state is valid ten minutes" } },
    },
    OIDCProvider: {
      type: 'object',
      required: ['configured', 'org_id', 'issuer', 'client_id', 'client_secret_set', 'domains', 'enabled', 'jit', 'redirect_uri', 'created_at', 'updated_at'],
      properties: {
        configured: { const: true },
        org_id: { type: 'integer' },
        issuer: { type: 'string' },
        client_id: { type: 'string' },
        client_secret_set: { const: true, description: 'the secret itself is never returned' },
        domains: { type: 'array', items: { type: 'string' } },
        enabled: { type: 'boolean' },
        jit: { type: 'object', required: ['enabled', 'default_role'], properties: { enabled: { type: 'boolean' }, default_role: JIT_ROLE } },
        redirect_uri: { type: 'string', description: 'the redirect URI to register at the provider: BASE_URL/api/v1/auth/oidc/callback' },
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
      },
    },
    OIDCNotConfigured: {
      type: 'object',
      required: ['configured', 'redirect_uri'],
      properties: {
        configured: { const: false },
        redirect_uri: { type: 'string', description: 'the redirect URI to register at the provider when configuring one' },
      },
    },
  },
  paths: {
    '/api/v1/auth/oidc/start': {
      post: {
        operationId: 'oidcStart',
        summary: "Begin single sign-on: the authorization URL of the organization's identity provider",
        tags: ['auth'],
        security: [],
        description:
          "Resolves exactly one organization with enabled single sign-on: from the email's exact domain (no subdomain matching) or from `org_id`. " +
          'Neither given, or both given but naming different organizations: 422. None found: 404. Stores a one-time state, nonce and S256 PKCE verifier ' +
          '(the verifier encrypted) valid ten minutes; the answer holds no credential. Spends from the sign-in rate-limit group.',
        requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: { email: { type: 'string', format: 'email', maxLength: 254 }, org_id: ID64 } }),
        responses: {
          '200': {
            ...jsonResponse('send the browser to authorization_url', ref('OIDCStartResponse')),
            headers: { 'Cache-Control': { description: '`no-store`', schema: { type: 'string' } } },
          },
          ...errors(404, 422, 429),
        },
      },
    },
    '/api/v1/auth/oidc/callback': {
      get: {
        operationId: 'oidcCallback',
        summary: 'Where the identity provider sends the browser back; signs in and redirects to the web app',
        tags: ['auth'],
        security: [],
        description:
          'Consumes the state atomically (a second use fails), exchanges the code with the PKCE verifier, and validates issuer, audience, signature ' +
          `(only ${ID_TOKEN_ALGORITHMS.join(', ')}), expiry, nonce, email_verified, the exact domain policy and membership (just-in-time when enabled). ` +
          'Success: 303 to the configured web-app callback (`oidc.callback_url`) with only the refresh cookie set and no token in the URL; the app then calls /auth/refresh. ' +
          'Every failure, including a missing state or code and an error sent by the provider, is 401 `unauthorized`; the reason is in the server log and the audit log only.',
        parameters: [
          { name: 'state', in: 'query', required: false, description: 'required; without it the answer is 401 like any failed callback', schema: { type: 'string' } },
          { name: 'code', in: 'query', required: false, description: 'required unless the provider sent `error`', schema: { type: 'string' } },
          { name: 'error', in: 'query', required: false, description: 'an error code from the provider (the sign-in fails)', schema: { type: 'string' } },
          { name: 'iss', in: 'query', required: false, description: 'RFC 9207 issuer identification; when present it must be the configured issuer', schema: { type: 'string' } },
        ],
        responses: {
          '303': {
            description: 'signed in; the browser goes on to the web app',
            headers: {
              Location: { description: 'the web-app callback URL (oidc.callback_url)', schema: { type: 'string' } },
              'Set-Cookie': { description: 'the refresh cookie `pp_rt`, exactly as a password login sets it', schema: { type: 'string' } },
            },
          },
          ...errors(401, 429),
        },
      },
    },
    '/api/v1/orgs/{orgID}/oidc': {
      get: {
        operationId: 'getOidcProvider',
        summary: "The organization's identity provider (owner only)",
        tags: ['orgs'],
        parameters: [ORG_ID],
        description: 'An organization without a provider answers 200 with `configured: false` (not an error: it is the usual state).',
        responses: {
          '200': jsonResponse('the provider (the client secret is never shown), or that none is configured', { oneOf: [ref('OIDCProvider'), ref('OIDCNotConfigured')] }),
          ...errors(400, 401, 403, 404, 429),
        },
      },
      put: {
        operationId: 'putOidcProvider',
        summary: "Create or replace the organization's identity provider (owner only)",
        tags: ['orgs'],
        description:
          "The issuer's discovery document and key set are fetched before anything is saved: unreachable or unusable gives 422 with the reason " +
          '(details.field=issuer). The provider must offer the code flow, an allow-listed ID token algorithm and client_secret_basic or client_secret_post. ' +
          "An enabled provider cannot list a domain that another organization's enabled provider lists (409, details.domains). The client secret is stored encrypted.",
        parameters: [ORG_ID],
        requestBody: jsonBody(PROVIDER_BODY),
        responses: { '200': jsonResponse('saved', ref('OIDCProvider')), ...errors(400, 401, 403, 404, 409, 422, 429) },
      },
      delete: {
        operationId: 'deleteOidcProvider',
        summary: "Remove the organization's identity provider (owner only)",
        tags: ['orgs'],
        description: 'Sign-ins in flight for it fail at the callback. Accounts and memberships stay.',
        parameters: [ORG_ID],
        responses: { '204': { description: 'removed' }, ...errors(400, 401, 403, 404, 429) },
      },
    },
  },
};
