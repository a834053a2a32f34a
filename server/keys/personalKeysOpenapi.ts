// The OpenAPI part of personal API keys: a member's own keys, listed, issued and revoked from a
// signed-in session (a key never manages keys).

import { errors, jsonBody, jsonResponse, ref, type OpenApiFragment } from '../http/openapi.js';
import { API_KEY_SCOPES } from '../access/access.js';

const nullableTime = { type: ['string', 'null'], format: 'date-time' };

const personalKey = {
  type: 'object',
  required: ['id', 'name', 'prefix', 'scopes', 'project_id', 'expires_at', 'created_at', 'last_used_at', 'revoked_at', 'status'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'the eight characters following pp_pk_, to tell keys apart' },
    scopes: { type: 'array', items: { enum: [...API_KEY_SCOPES] } },
    project_id: { type: ['integer', 'null'], description: 'the one project the key reaches, or null for every project of the organization' },
    expires_at: nullableTime,
    created_at: { type: 'string', format: 'date-time' },
    last_used_at: { ...nullableTime, description: 'the last request made with the key, to within a minute' },
    revoked_at: nullableTime,
    status: { enum: ['active', 'revoked', 'expired'] },
  },
};

const security = [{ accessToken: [] }];
const tags = ['keys'];
const keyId = { name: 'keyID', in: 'path' as const, required: true, description: 'API key id', schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } };

export const personalKeysOpenapi: OpenApiFragment = {
  schemas: {
    PersonalApiKey: personalKey,
    IssuedPersonalApiKey: {
      allOf: [ref('PersonalApiKey'), { type: 'object', required: ['value'], properties: { value: { type: 'string', description: 'the full key value (pp_pk_…); shown only in this response' } } }],
    },
  },
  paths: {
    '/api/v1/me/api-keys': {
      get: {
        tags,
        security,
        operationId: 'listPersonalApiKeys',
        summary: 'Your personal API keys in this organization (never their values), newest first',
        responses: {
          '200': jsonResponse('the keys, revoked and expired ones included', {
            type: 'object',
            required: ['items', 'next_cursor'],
            properties: { items: { type: 'array', items: ref('PersonalApiKey') }, next_cursor: { type: 'null', description: 'all keys fit one page' } },
          }),
          ...errors(401, 429),
        },
      },
      post: {
        tags,
        security,
        operationId: 'issuePersonalApiKey',
        summary: 'Issue a personal API key; the value is returned once',
        description:
          'Send it as `Authorization: Bearer pp_pk_…` to /api/v1 operations about projects and the organization (not to sign-in, your own account or key operations, nor to ingestion). ' +
          'Scopes: read (queries, events, reports and settings), write (saved insights, dashboards and other changes analysts make), admin (operations needing the admin role). ' +
          'A scope above your role is 403. On every request the key acts with the role you hold then, within its scopes: demoted, it loses rights at once; removed from the organization, it stops.',
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['name', 'scopes'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
            scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...API_KEY_SCOPES] } },
            project_id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, description: 'restrict the key to this project' },
            expires_at: { type: ['string', 'null'], format: 'date-time', description: 'must be in the future; none: the key lives until revoked' },
          },
        }),
        responses: {
          '201': {
            ...jsonResponse('the key with its value', ref('IssuedPersonalApiKey')),
            headers: { 'Cache-Control': { description: 'no-store: the value is shown once', schema: { type: 'string' } } },
          },
          ...errors(401, 403, 422, 429),
        },
      },
    },
    '/api/v1/me/api-keys/{keyID}': {
      delete: {
        tags,
        security,
        operationId: 'revokePersonalApiKey',
        summary: 'Revoke one of your personal API keys; it answers 401 from the next request. Revoking twice is harmless',
        parameters: [keyId],
        responses: { '204': { description: 'revoked' }, ...errors(400, 401, 404, 429) },
      },
    },
  },
};
