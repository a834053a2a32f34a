// The OpenAPI part of key management: ingestion keys, release tokens and the deploy marker.

import { errors, jsonBody, jsonResponse, ref, type OpenApiFragment, type Parameter } from '../http/openapi.js';
import { INGEST_SCOPES } from './ingestKeys.js';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const pathId = (name: string, description: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
});
const keyId = pathId('keyID', 'ingestion key id');
const tokenId = pathId('tokenID', 'release token id');

const name = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' };
const domains = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  items: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'host names the token may be used from (Origin, else Referer host): `example.com` matches exactly, `*.example.com` every subdomain',
};
const expiresAt = { type: 'string', format: 'date-time', description: 'must be in the future' };
const status = { enum: ['active', 'revoked', 'expired'] };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

const ingestKey = {
  type: 'object',
  required: ['id', 'type', 'name', 'prefix', 'scopes', 'domains', 'expires_at', 'status', 'linking_split', 'rotated_from', 'created_at', 'revoked_at'],
  properties: {
    id: { type: 'integer' },
    type: { enum: ['browser', 'server', 'legacy'], description: 'value prefix pp_bt_, pp_sk_ or pp_wk_' },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'the eight-character public id following the type prefix; public collection configuration is read by it' },
    scopes: { type: 'array', items: { enum: INGEST_SCOPES } },
    domains: { type: 'array', items: { type: 'string' } },
    expires_at: nullableTime,
    status,
    linking_split: { type: 'boolean', description: 'false for legacy keys issued before identify/alias became a separate right; those get 403 credential_rotation_required there' },
    rotated_from: { type: ['integer', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    revoked_at: nullableTime,
  },
};

const valueProperty = { type: 'string', description: 'the full key value; shown only in this response' };

const releaseToken = {
  type: 'object',
  required: ['id', 'name', 'prefix', 'scope', 'expires_at', 'status', 'created_at', 'revoked_at'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    prefix: { type: 'string' },
    scope: { const: 'release_markers:write' },
    expires_at: nullableTime,
    status,
    created_at: { type: 'string', format: 'date-time' },
    revoked_at: nullableTime,
  },
};

const deployMarker = {
  type: 'object',
  required: ['id', 'release', 'environment', 'commit', 'deployed_at', 'url', 'description', 'created_at'],
  properties: {
    id: { type: 'integer' },
    release: { type: 'string' },
    environment: { type: ['string', 'null'] },
    commit: { type: ['string', 'null'] },
    deployed_at: { type: 'string', format: 'date-time' },
    url: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const list = (item: string) => ({
  type: 'object',
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: ref(item) }, next_cursor: { type: 'null', description: 'all records fit one page' } },
});

const noStore = { 'Cache-Control': { description: 'no-store: the value is shown once', schema: { type: 'string' } } };
const management = { tags: ['keys'], security: [{ accessToken: [] }] };

export const keysOpenapi: OpenApiFragment = {
  schemas: {
    IngestKey: ingestKey,
    IssuedIngestKey: { allOf: [ref('IngestKey'), { type: 'object', required: ['value'], properties: { value: valueProperty } }] },
    ReleaseToken: releaseToken,
    IssuedReleaseToken: { allOf: [ref('ReleaseToken'), { type: 'object', required: ['value'], properties: { value: valueProperty } }] },
    DeployMarker: deployMarker,
  },
  paths: {
    '/api/v1/projects/{id}/keys': {
      get: {
        ...management,
        operationId: 'listIngestKeys',
        summary: 'List ingestion keys (never their values), newest first (admin or owner)',
        parameters: [projectId],
        responses: { '200': jsonResponse('the keys, revoked and expired ones included', list('IngestKey')), ...errors(401, 403, 404, 429) },
      },
      post: {
        ...management,
        operationId: 'issueIngestKey',
        summary: 'Issue an ingestion key (admin or owner); the value is returned once',
        description:
          'A browser token (pp_bt_) needs at least one domain and an expiry. A server key (pp_sk_) takes no domains and may have no expiry. ' +
          'Scopes default to every scope the type allows: browser events:write, identify:write, replay:write, capture:write; server events:write, identify:write.',
        parameters: [projectId],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['type', 'name'],
          properties: {
            type: { enum: ['browser', 'server'] },
            name,
            domains,
            expires_at: expiresAt,
            scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: INGEST_SCOPES } },
          },
        }),
        responses: { '201': { ...jsonResponse('the key with its value', ref('IssuedIngestKey')), headers: noStore }, ...errors(401, 403, 404, 422, 429) },
      },
    },
    '/api/v1/projects/{id}/keys/{keyID}': {
      delete: {
        ...management,
        operationId: 'revokeIngestKey',
        summary: 'Revoke an ingestion key (admin or owner); revoking twice is harmless',
        parameters: [projectId, keyId],
        responses: { '204': { description: 'revoked' }, ...errors(400, 401, 403, 404, 429) },
      },
    },
    '/api/v1/projects/{id}/keys/{keyID}/rotate': {
      post: {
        ...management,
        operationId: 'rotateIngestKey',
        summary: 'Replace a key with a new value and revoke the old one (admin or owner)',
        description:
          "The replacement keeps name, type, scopes and domains. Keys are never extended: without expires_at the replacement gets the old key's lifetime again, counted from now. " +
          'A legacy key must name the type of its replacement (browser or server); the replacement holds the identify/alias right.',
        parameters: [projectId, keyId],
        requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: { type: { enum: ['browser', 'server'] }, domains, expires_at: expiresAt } }, false),
        responses: {
          '201': { ...jsonResponse('the replacement with its value', ref('IssuedIngestKey')), headers: noStore },
          ...errors(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    '/api/v1/projects/{id}/release-tokens': {
      get: {
        ...management,
        operationId: 'listReleaseTokens',
        summary: 'List release tokens (admin+)',
        parameters: [projectId],
        responses: { '200': jsonResponse('the tokens', list('ReleaseToken')), ...errors(401, 403, 404, 429) },
      },
      post: {
        ...management,
        operationId: 'issueReleaseToken',
        summary: 'Issue a release token (admin+); scope release_markers:write; the value is returned once',
        parameters: [projectId],
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['name'], properties: { name, expires_at: expiresAt } }),
        responses: { '201': { ...jsonResponse('the token with its value', ref('IssuedReleaseToken')), headers: noStore }, ...errors(401, 403, 404, 422, 429) },
      },
    },
    '/api/v1/projects/{id}/release-tokens/{tokenID}': {
      delete: {
        ...management,
        operationId: 'revokeReleaseToken',
        summary: 'Revoke a release token (admin+); always available',
        parameters: [projectId, tokenId],
        responses: { '204': { description: 'revoked' }, ...errors(400, 401, 403, 404, 429) },
      },
    },
    '/api/v1/projects/{id}/release-markers/deploy': {
      post: {
        tags: ['keys'],
        security: [{ releaseToken: [] }],
        operationId: 'recordDeployMarker',
        summary: 'Record a deploy with a release token of this project',
        description:
          'Header Idempotency-Key (required; 8 to 128 printable characters, no spaces or commas, else 422). A new key creates the marker (201); ' +
          'the same key with the same body answers 200 with Idempotency-Replayed: true; the same key with another body is 409 idempotency_conflict. ' +
          'Only release tokens are accepted here, and release tokens nowhere else.',
        parameters: [projectId, { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', minLength: 8, maxLength: 128 } }],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['release'],
          properties: {
            release: { type: 'string', minLength: 1, maxLength: 200 },
            environment: { type: 'string', minLength: 1, maxLength: 100 },
            commit: { type: 'string', minLength: 1, maxLength: 100 },
            deployed_at: { type: 'string', format: 'date-time', description: 'default: the time the marker is recorded' },
            url: { type: 'string', format: 'uri', maxLength: 2048 },
            description: { type: 'string', maxLength: 2000 },
          },
        }),
        responses: {
          '201': jsonResponse('marker created', ref('DeployMarker')),
          '200': {
            ...jsonResponse('the marker recorded earlier under this Idempotency-Key with the same body', ref('DeployMarker')),
            headers: { 'Idempotency-Replayed': { schema: { const: 'true' } } },
          },
          ...errors(401, 404, 409, 422, 429),
        },
      },
    },
  },
};
