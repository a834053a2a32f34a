// The OpenAPI part of the ingestion surface (/v1): the five write operations and the public
// collection configuration.

import { errors, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Operation, type Parameter } from '../http/openapi.js';
import { CONSENT_SCHEMA, TRACK_EVENT_SCHEMA, URL_MAX, idSchema } from './eventSchema.js';
import { POSTHOG_CAPTURE_PATHS, POSTHOG_FLAG_PATHS } from './posthog.js';
import { TRACKER_PATTERN } from './sdkInfo.js';
import { MAX_EVENTS_PER_REQUEST } from './track.js';

const legacyKey: Parameter = {
  name: 'key',
  in: 'query',
  required: false,
  description: 'deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused',
  schema: { type: 'string' },
};
const trackerHeader: Parameter = {
  name: 'X-PP-Tracker',
  in: 'header',
  required: false,
  description: 'sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead',
  schema: { type: 'string', pattern: TRACKER_PATTERN },
};

const credential = { type: 'string', maxLength: 256, description: 'a pp_bt_ browser token, for requests that cannot carry headers (sendBeacon)' };
const tracker = { type: 'string', pattern: TRACKER_PATTERN, description: 'sending client as name/version when X-PP-Tracker cannot be sent' };
const id = idSchema(false);

const accepted: JsonSchema = {
  type: 'object',
  required: ['accepted', 'rejected'],
  properties: {
    accepted: { type: 'integer', description: 'items stored (or already stored under the same uuid / seq)' },
    rejected: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'code', 'message'],
        properties: {
          index: { type: 'integer', description: 'position in `events` (0 for a single item)' },
          code: {
            enum: ['invalid_event', 'event_required', 'identity_required', 'invalid_field', 'too_large', 'identity_conflict', 'replay_disabled'],
          },
          message: { type: 'string', description: 'names the field, never its value' },
        },
      },
    },
  },
};

const element: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['tag'],
  properties: {
    tag: { type: 'string', minLength: 1, maxLength: 128 },
    id: { type: 'string', maxLength: 256 },
    classes: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 256 } },
    nth_child: { type: 'integer', minimum: 0, maximum: 1000000 },
    text: { type: 'string', maxLength: 500 },
    attributes: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', maxLength: 1000 } },
  },
};

const WRITE_ERRORS = errors(400, 401, 403, 413, 422, 429, 503);

/** Writes ingestion keeps beside events (recordings, captures): 501 `engine_unsupported` on an event engine without them yet. */
const ENGINE_WRITES = new Set(['replay', 'capture']);

function writeOperation(operationId: string, summary: string, description: string, bodyRef: string, parameters: Parameter[]): Operation {
  return {
    operationId,
    summary,
    description,
    tags: ['ingestion'],
    security: [{ ingestionKey: [] }, { legacyKey: [] }],
    parameters,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(bodyRef) }, 'text/plain': { schema: ref(bodyRef) } },
    },
    responses: { '202': jsonResponse('stored (durably) before this answer', ref('IngestAccepted')), ...WRITE_ERRORS, ...(ENGINE_WRITES.has(operationId) ? errors(501) : {}) },
  };
}

export const ingestOpenapi: OpenApiFragment = {
  schemas: {
    TrackEvent: TRACK_EVENT_SCHEMA,
    TrackRequest: {
      type: 'object',
      description:
        `Either a batch {events: [...]} of at most ${MAX_EVENTS_PER_REQUEST} events, or one TrackEvent object. A body over 1 MiB or with more events is 413. ` +
        'Each event is checked on its own: defective events are refused in rejected[] while the others are stored.',
      properties: {
        credential,
        tracker,
        events: { type: 'array', minItems: 1, items: { description: 'a TrackEvent (checked one by one)' } },
      },
      if: { required: ['events'] },
      then: { additionalProperties: false, properties: { credential: true, tracker: true, events: true } },
    },
    IngestAccepted: accepted,
    IdentifyRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['anonymous_id', 'user_id'],
      properties: { anonymous_id: id, user_id: id, traits: { type: 'object', description: "merged into the user's traits (at most 16 KiB)" }, consent: CONSENT_SCHEMA },
    },
    AliasRequest: { type: 'object', additionalProperties: false, required: ['previous_id', 'user_id'], properties: { previous_id: id, user_id: id, consent: CONSENT_SCHEMA } },
    ReplayRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['session_id', 'anonymous_id', 'seq', 'events'],
      properties: {
        credential,
        tracker,
        session_id: id,
        anonymous_id: id,
        seq: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'chunk number within the session; a re-sent seq is stored once' },
        events: { type: 'array', minItems: 1, maxItems: 20000, items: { type: 'object' }, description: 'rrweb events; at most 512 KiB serialized (else 413)' },
      },
    },
    ElementInfo: element,
    CaptureRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['picker_token', 'nonce', 'url', 'selector', 'element', 'chain'],
      properties: {
        picker_token: { type: 'string', minLength: 1, maxLength: 2048 },
        nonce: { type: 'string', minLength: 1, maxLength: 200 },
        url: { type: 'string', minLength: 1, maxLength: URL_MAX },
        selector: { type: 'string', minLength: 1, maxLength: 8192 },
        element: ref('ElementInfo'),
        chain: { type: 'array', minItems: 1, maxItems: 50, items: ref('ElementInfo') },
      },
    },
    PosthogCaptureAnswer: {
      type: 'object',
      required: ['status', 'accepted', 'rejected'],
      properties: { status: { const: 1 }, accepted: { type: 'integer', minimum: 0 }, rejected: (accepted.properties as Record<string, JsonSchema>).rejected! },
    },
    CollectionConfig: {
      type: 'object',
      required: ['privacy_mode', 'collect'],
      properties: {
        privacy_mode: { enum: ['standard', 'strict'] },
        collect: { type: 'array', items: { enum: ['clicks', 'hover_intent', 'sections', 'scroll', 'forms', 'replay', 'diagnostics'] }, description: 'enabled kinds only' },
        replay_sample_rate: { type: 'number', minimum: 0, maximum: 1, description: 'present only when replay is enabled' },
      },
    },
  },
  paths: {
    '/v1/track': {
      post: writeOperation(
        'track',
        'Send events (202 after they are durably stored)',
        'Credential: Authorization: Bearer pp_bt_/pp_sk_ key, or a browser token in the body field `credential` (for sendBeacon, with a text/plain body), or a legacy key in ?key=. ' +
          'Scope events:write. Browser tokens only from their domains (Origin, else Referer).',
        'TrackRequest',
        [legacyKey, trackerHeader],
      ),
    },
    '/v1/identify': {
      post: writeOperation(
        'identify',
        'Link an anonymous id to a user id',
        'Bearer key (or legacy ?key=) with scope identify:write; keys issued before the linking split get 403 credential_rotation_required. ' +
          'An anonymous id already linked to another user stays with it (rejected[0].code identity_conflict).',
        'IdentifyRequest',
        [legacyKey, trackerHeader],
      ),
    },
    '/v1/alias': {
      post: writeOperation(
        'alias',
        'Link a previous id (and everything linked to it) to a user id',
        'Bearer key (or legacy ?key=) with scope identify:write; same rules as identify.',
        'AliasRequest',
        [legacyKey, trackerHeader],
      ),
    },
    '/v1/replay': {
      post: writeOperation(
        'replay',
        'Store a session-recording chunk',
        'Browser token (Bearer or body `credential`) or legacy key with scope replay:write. Refused in rejected[] (replay_disabled) while recordings are off for the project.',
        'ReplayRequest',
        [legacyKey, trackerHeader],
      ),
    },
    '/v1/capture': {
      post: writeOperation(
        'capture',
        'Store the element the picker captured',
        'Bearer browser token (or legacy key) with scope capture:write. Stored under the picker token for the labeled-events picker to poll; at most 64 KiB.',
        'CaptureRequest',
        [legacyKey, trackerHeader],
      ),
    },
    ...posthogPaths(),
    '/v1/config/{prefix}': {
      get: {
        operationId: 'publicCollectionConfig',
        summary: 'Public collection configuration of a browser token, by its eight-character prefix',
        description: 'No authentication. Only enabled collection kinds are listed. Unknown, revoked or expired prefixes (and server keys) are 404.',
        tags: ['ingestion'],
        security: [],
        parameters: [{ name: 'prefix', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }],
        responses: { '200': jsonResponse('the configuration', ref('CollectionConfig')), ...errors(404, 429) },
      },
    },
  },
};

/** The paths PostHog clients post to: their body is read raw and decoded by the route (posthog.ts). */
function posthogPaths(): Record<string, Record<string, Operation>> {
  const capture = (path: string): Operation => ({
    operationId: `posthogCapture${path.replace(/[^a-z0-9]/gi, '_')}`,
    summary: `PostHog-compatible capture (${path}/): events as posthog-js, posthog-node and the other PostHog clients send them`,
    description:
      'The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. ' +
      "It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. " +
      'Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).',
    tags: ['ingestion'],
    security: [],
    requestBody: { required: true, content: { '*/*': { schema: { description: 'JSON, gzip or form-encoded base64 JSON' } } } },
    responses: { '200': jsonResponse('stored', ref('PosthogCaptureAnswer')), ...errors(400, 401, 403, 413, 422, 429, 503) },
  });
  const flags = (path: string, method: string): Operation => ({
    operationId: `posthogFlags${path.replace(/[^a-z0-9]/gi, '_')}${method}`,
    summary: `PostHog-compatible ${path}/: no feature flags, no recording, no surveys`,
    description: 'pp has no feature flags; PostHog clients asking for them get an empty answer and keep capturing.',
    tags: ['ingestion'],
    security: [],
    responses: { '200': jsonResponse('no flags', { type: 'object' }) },
  });
  const out: Record<string, Record<string, Operation>> = {};
  for (const path of POSTHOG_CAPTURE_PATHS) out[path] = { post: capture(path) };
  for (const path of POSTHOG_FLAG_PATHS) out[path] = { get: flags(path, 'Get'), post: flags(path, 'Post') };
  const token: Parameter = { name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,200}$' }, description: 'the key posthog-js was given' };
  out['/array/{token}/config'] = {
    get: {
      operationId: 'posthogRemoteConfig',
      summary: 'PostHog-compatible remote configuration of posthog-js: no flags, recordings or surveys',
      tags: ['ingestion'],
      security: [],
      parameters: [token],
      responses: { '200': jsonResponse('the configuration', { type: 'object' }), ...errors(400) },
    },
  };
  out['/array/{token}/config.js'] = {
    get: {
      operationId: 'posthogRemoteConfigScript',
      summary: 'The same configuration as a script that sets it for posthog-js',
      tags: ['ingestion'],
      security: [],
      parameters: [token],
      responses: { '200': { description: 'the script', content: { 'application/javascript': { schema: { type: 'string' } } } }, ...errors(400) },
    },
  };
  return out;
}
