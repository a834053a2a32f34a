// The OpenAPI fragment of session recordings: the list, a recording's detail and its events
// stream, and the recordings settings (retention and storage).

import { errors, jsonBody, jsonResponse, ref, type OpenApiFragment, type Parameter } from '../http/openapi.js';
import { DEFAULT_RECORDINGS_LIMIT, MAX_DURATION_S, MAX_RECORDINGS_LIMIT } from './recordingsQuery.js';
import { MAX_RECORDING_EVENTS } from './recordingDetail.js';
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from './replaySettings.js';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const sessionId: Parameter = { name: 'session_id', in: 'path', required: true, description: "the recorded session's id", schema: { type: 'string', minLength: 1, maxLength: 200 } };
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
const seconds = { type: 'integer', minimum: 0, maximum: MAX_DURATION_S };
const security = [{ accessToken: [] }];
const tags = ['recordings'];
const access = 'Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it).';
const privacy =
  'Recordings hold what the tracker recorded: every input is masked, excluded subtrees are blocked, and in strict privacy mode all ' +
  'text is masked; nothing masked can be read back. While the project is in strict mode, text is masked again as it leaves the server, ' +
  'whatever mode a recording was made in.';

const person: Parameter = { name: 'person', in: 'query', required: false, description: 'recordings of this actor (through identify and alias links)', schema: text(200) };

const summary = {
  type: 'object',
  required: ['session_id', 'person', 'anonymous_id', 'started_at', 'ended_at', 'duration_ms', 'raw_bytes', 'page_views', 'clicks', 'rage_clicks', 'dead_clicks', 'events', 'first_url'],
  properties: {
    session_id: { type: 'string' },
    person: { type: 'string', description: 'the actor the recording resolves to now (the user its anonymous id is linked to, else the anonymous id)' },
    anonymous_id: { type: 'string', description: 'the anonymous id the tracker recorded under' },
    started_at: { type: 'string', format: 'date-time', description: 'earliest recorded event (time of receipt for a chunk without event times)' },
    ended_at: { type: 'string', format: 'date-time', description: 'latest recorded event' },
    duration_ms: { type: 'integer' },
    raw_bytes: { type: 'integer', description: 'size of the recorded events as sent; they are stored compressed' },
    page_views: { type: 'integer', description: 'pp.page_view events of the session' },
    clicks: { type: 'integer', description: 'pp.click events of the session' },
    rage_clicks: { type: 'integer', description: 'pp.rage_click events of the session' },
    dead_clicks: { type: 'integer', description: 'pp.dead_click events of the session' },
    events: { type: 'integer', description: 'every tracker event of the session (events derived by labeling rules are not counted)' },
    first_url: { type: ['string', 'null'], description: "the URL of the session's first page view" },
  },
};

const settings = {
  type: 'object',
  required: ['replay_retention_days', 'recordings', 'raw_bytes', 'stored_bytes'],
  properties: {
    replay_retention_days: { type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS, description: `recordings are deleted once their last activity is older (default ${DEFAULT_RETENTION_DAYS})` },
    recordings: { type: 'integer', description: 'recordings stored now' },
    raw_bytes: { type: 'integer', description: 'size of their events as sent' },
    stored_bytes: { type: 'integer', description: 'storage they take (compressed)' },
  },
};

export const replayOpenapi: OpenApiFragment = {
  schemas: {
    RecordingSummary: summary,
    RecordingsPage: {
      type: 'object',
      required: ['items', 'next_cursor'],
      properties: { items: { type: 'array', items: ref('RecordingSummary') }, next_cursor: { type: ['string', 'null'], description: 'opaque; null on the last page' } },
    },
    RecordingDetail: {
      allOf: [
        ref('RecordingSummary'),
        {
          type: 'object',
          required: ['pages', 'session_events', 'events_truncated'],
          properties: {
            pages: {
              type: 'array',
              description: 'the page views, oldest first',
              items: { type: 'object', required: ['url', 'ts'], properties: { url: { type: ['string', 'null'] }, ts: { type: 'string', format: 'date-time' } } },
            },
            session_events: {
              type: 'array',
              description: `the tracker's events of the session, oldest first (at most ${MAX_RECORDING_EVENTS})`,
              items: {
                type: 'object',
                required: ['uuid', 'event', 'ts', 'url', 'props'],
                properties: {
                  uuid: { type: 'string' },
                  event: { type: 'string' },
                  ts: { type: 'string', format: 'date-time' },
                  url: { type: ['string', 'null'] },
                  props: { type: ['object', 'null'] },
                },
              },
            },
            events_truncated: { type: 'boolean', description: 'the session held more events than are listed' },
          },
        },
      ],
    },
    ReplaySettings: settings,
  },
  paths: {
    '/api/v1/projects/{id}/recordings': {
      get: {
        operationId: 'listRecordings',
        summary: 'Session recordings, newest first (analyst+, actor_drilldown)',
        description:
          'Newest start first, ties broken by session id descending; keyset pages (no recording repeated or skipped across one walk). ' +
          `A cursor is bound to the project and every filter (not to limit). ${access}`,
        tags,
        security,
        parameters: [
          projectId,
          person,
          { name: 'session', in: 'query', required: false, description: 'the recording of this session id', schema: text(200) },
          { name: 'from', in: 'query', required: false, description: 'recordings that started at or after (RFC 3339)', schema: { type: 'string', format: 'date-time' } },
          { name: 'to', in: 'query', required: false, description: 'recordings that started before (RFC 3339); later than from', schema: { type: 'string', format: 'date-time' } },
          { name: 'url', in: 'query', required: false, description: 'recordings with a page view whose URL contains this text', schema: text(2000) },
          { name: 'rage_clicks', in: 'query', required: false, description: 'only recordings with a rage click', schema: { type: 'boolean', default: false } },
          { name: 'dead_clicks', in: 'query', required: false, description: 'only recordings with a dead click', schema: { type: 'boolean', default: false } },
          { name: 'min_duration', in: 'query', required: false, description: 'seconds, inclusive', schema: seconds },
          { name: 'max_duration', in: 'query', required: false, description: 'seconds, inclusive; not below min_duration', schema: seconds },
          { name: 'event', in: 'query', required: false, description: 'recordings whose session holds an event of this name', schema: text(200) },
          { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string', minLength: 1, maxLength: 2048 } },
          { name: 'limit', in: 'query', required: false, description: `page size (default ${DEFAULT_RECORDINGS_LIMIT})`, schema: { type: 'integer', minimum: 1, maximum: MAX_RECORDINGS_LIMIT } },
        ],
        responses: { '200': jsonResponse('one page', ref('RecordingsPage')), ...errors(401, 402, 403, 404, 408, 422, 429) },
      },
    },
    '/api/v1/projects/{id}/recordings/{session_id}': {
      get: {
        operationId: 'getRecording',
        summary: "A recording's summary, page views and the tracker's events of its session (analyst+, actor_drilldown)",
        description: access,
        tags,
        security,
        parameters: [projectId, sessionId],
        responses: { '200': jsonResponse('the recording', ref('RecordingDetail')), ...errors(401, 402, 403, 404, 408, 429) },
      },
    },
    '/api/v1/projects/{id}/recordings/{session_id}/chunks': {
      get: {
        operationId: 'streamRecording',
        summary: 'The recorded rrweb events, in order (analyst+, actor_drilldown)',
        description:
          'application/x-ndjson: one line per stored chunk, `{"seq": n, "events": [...]}`, in seq order; gzip-compressed when the client ' +
          `accepts it. Events the tracker sent in fragments arrive whole. ${privacy} ${access}`,
        tags,
        security,
        parameters: [projectId, sessionId],
        responses: {
          '200': { description: 'the events', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          ...errors(401, 402, 403, 404, 408, 429),
        },
      },
    },
    '/api/v1/projects/{id}/replay-settings': {
      get: {
        operationId: 'getReplaySettings',
        summary: 'Recordings retention and the storage recordings use (viewer+)',
        tags,
        security,
        parameters: [projectId],
        responses: { '200': jsonResponse('the settings', ref('ReplaySettings')), ...errors(401, 402, 404, 408, 429) },
      },
      patch: {
        operationId: 'updateReplaySettings',
        summary: 'Change how long recordings are kept (admin+)',
        description: 'Recordings past the new retention are deleted by the next sweep (hourly).',
        tags,
        security,
        parameters: [projectId],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['replay_retention_days'],
          properties: { replay_retention_days: { type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS } },
        }),
        responses: { '200': jsonResponse('the settings', ref('ReplaySettings')), ...errors(401, 402, 403, 404, 408, 422, 429) },
      },
    },
  },
};
