// The OpenAPI fragment of the events domain: the events list and doctor view, the live stream and
// the two catalogs. The query schemas here are what ajv checks; eventsQuery.ts adds the rules a
// schema cannot say (alias agreement, range order, the doctor view's limits).

import { errors, jsonResponse, ref, type OpenApiFragment, type Parameter } from '../http/openapi.js';
import { DOCTOR_MAX_DAYS, DEFAULT_LIMIT, EVENT_ORDERS, EVENT_SOURCES, MAX_LIMIT } from './eventsQuery.js';
import { MAX_CATALOG_EVENTS, MAX_CATALOG_PROPS, PROPS_SAMPLE_EVENTS } from './catalogs.js';
import { STREAM_MAX_PER_SECOND } from './eventStream.js';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
const exact = (name: string, description: string): Parameter => ({ name, in: 'query', required: false, description, schema: text(200) });
const nullable = (type: string) => ({ type: [type, 'null'] });
const security = [{ accessToken: [] }];

const listParameters: Parameter[] = [
  projectId,
  { name: 'view', in: 'query', required: false, description: 'doctor: Integration Doctor records instead of events', schema: { enum: ['doctor'] } },
  {
    name: 'order',
    in: 'query',
    required: false,
    description: 'received (default): newest received first; event_time: newest event time (ts) first. Both break ties by uuid descending; view=doctor takes received only',
    schema: { enum: [...EVENT_ORDERS], default: 'received' },
  },
  { name: 'event', in: 'query', required: false, description: 'repeat to match any of the names; view=doctor takes at most one', schema: { type: 'array', maxItems: 100, items: text(200) } },
  exact('user_id', 'events sent with this user id'),
  exact('anonymous_id', 'events sent with this anonymous id'),
  exact('anon_id', 'alias of anonymous_id; when both are given they must be equal'),
  exact('actor_id', 'events that resolve to this actor (through identify and alias links)'),
  exact('sdk_name', 'events sent by this client (the name part of X-PP-Tracker)'),
  exact('release', 'events sent with this release'),
  {
    name: 'filters',
    in: 'query',
    required: false,
    description: 'a JSON-encoded array of QueryFilter objects, all of which must match (e.g. [{"field":"props.$country","op":"eq","value":"DE"}]); not with view=doctor',
    schema: { type: 'string', minLength: 2, maxLength: 8192 },
  },
  { name: 'invalid_only', in: 'query', required: false, description: 'only events stored with warnings (doctor view: and refused attempts)', schema: { type: 'boolean', default: false } },
  { name: 'source', in: 'query', required: false, schema: { enum: [...EVENT_SOURCES] } },
  { name: 'from', in: 'query', required: false, description: 'time of receipt, inclusive (RFC 3339); required with view=doctor', schema: { type: 'string', format: 'date-time' } },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: `time of receipt, exclusive (RFC 3339); required with view=doctor, at most ${DOCTOR_MAX_DAYS} days after from`,
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'next_cursor of the previous page; valid only with the same project, view and filters',
    schema: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  { name: 'limit', in: 'query', required: false, description: `page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT } },
];

const eventItem = {
  type: 'object',
  description: 'A stored event. The live stream sends the same object.',
  required: ['uuid', 'event', 'ts', 'received_at', 'actor_id', 'distinct_id', 'source', 'props', 'invalid', 'invalid_reasons'],
  properties: {
    uuid: { type: 'string', format: 'uuid' },
    event: { type: 'string' },
    ts: { type: 'string', format: 'date-time', description: 'client time (time of receipt when the client sent none)' },
    received_at: { type: 'string', format: 'date-time', description: 'server time of receipt; the list is ordered by it unless order=event_time' },
    actor_id: { type: 'string', description: 'the actor the event resolves to now: the user its distinct id is linked to, else the distinct id' },
    distinct_id: { type: 'string', description: 'user_id if the event had one, else anonymous_id' },
    anonymous_id: nullable('string'),
    user_id: nullable('string'),
    session_id: nullable('string'),
    source: { enum: [...EVENT_SOURCES] },
    sdk_name: nullable('string'),
    sdk_version: nullable('string'),
    release: nullable('string'),
    url: nullable('string'),
    path: nullable('string'),
    referrer: nullable('string'),
    props: nullable('object'),
    revenue: { type: ['number', 'null'], description: 'props.revenue read as a signed number' },
    invalid: { type: 'boolean', description: 'stored with warnings' },
    invalid_reasons: { type: 'array', items: { type: 'string' }, description: 'the warnings, e.g. ts_in_future, revenue_not_numeric' },
  },
};

const doctorRecord = {
  type: 'object',
  description: 'Integration Doctor record, metadata v2: an accepted event or a refused attempt; never property values or identities.',
  required: ['metadata_version', 'kind', 'outcome', 'received_at', 'source', 'warnings'],
  properties: {
    metadata_version: { const: 2 },
    kind: { enum: ['accepted', 'rejected'] },
    outcome: { enum: ['valid', 'invalid', 'rejected'], description: 'valid: stored clean; invalid: stored with warnings; rejected: refused' },
    received_at: { type: 'string', format: 'date-time' },
    ts: { type: ['string', 'null'], format: 'date-time', description: 'client time of an accepted event' },
    event: { ...nullable('string'), description: 'event name (of a refused attempt: as sent, at most 200 characters, when it was a string)' },
    uuid: { ...nullable('string'), description: 'accepted events only' },
    operation: { ...nullable('string'), description: 'refused attempts: track, identify, alias, replay or capture' },
    source: { type: 'string' },
    sdk_name: nullable('string'),
    sdk_version: nullable('string'),
    key_id: { ...nullable('string'), description: 'public id of the ingestion key' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'invalid_reasons of an accepted event' },
    code: { ...nullable('string'), description: 'why an attempt was refused' },
    message: nullable('string'),
    request_id: { ...nullable('string'), description: 'the X-Request-Id the refused request was answered with' },
    event_index: { type: ['integer', 'null'], description: 'position of the refused event in its request' },
  },
};

export const eventsOpenapi: OpenApiFragment = {
  schemas: {
    EventItem: eventItem,
    DoctorRecord: doctorRecord,
    EventsPage: {
      type: 'object',
      required: ['items', 'next_cursor'],
      properties: {
        items: { type: 'array', items: { oneOf: [ref('EventItem'), ref('DoctorRecord')] }, description: 'EventItem, or DoctorRecord with view=doctor; newest first in the order asked for' },
        next_cursor: { type: ['string', 'null'], description: 'opaque; null on the last page' },
      },
    },
  },
  paths: {
    '/api/v1/projects/{id}/events': {
      get: {
        operationId: 'listEvents',
        summary: 'Stored events, or Integration Doctor records with view=doctor (viewer+)',
        description:
          'Newest first by time of receipt (order=event_time: by the event time ts), ties broken by uuid descending; from and to ' +
          'always bound the time of receipt. Keyset pages: no event is repeated or skipped across the pages of one walk, and in ' +
          'the default order events arriving while a client pages never shift the events of later pages. A cursor is bound to ' +
          `the project, the view, the order and every filter (not to limit). view=doctor: from and to required, half-open, at most ${DOCTOR_MAX_DAYS} ` +
          'days; at most one event; user_id, anonymous_id, anon_id, actor_id, release and order=event_time are refused.',
        tags: ['events'],
        security,
        parameters: listParameters,
        responses: { '200': jsonResponse('one page', ref('EventsPage')), ...errors(401, 404, 408, 422, 429) },
      },
    },
    '/api/v1/projects/{id}/events/stream': {
      get: {
        operationId: 'streamEvents',
        summary: 'Live server-sent events of the project (viewer+)',
        description:
          'text/event-stream of events committed after connecting. `event: event` carries an EventItem; ' +
          `at most ${STREAM_MAX_PER_SECOND} messages in any one-second window, and events beyond that are dropped and ` +
          'counted: `event: dropped` with data {"count": n}. Comment lines (`: heartbeat`) keep the connection alive.',
        tags: ['events'],
        security,
        parameters: [projectId],
        responses: {
          '200': { description: 'the stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errors(401, 404, 429),
        },
      },
    },
    '/api/v1/projects/{id}/catalog/events': {
      get: {
        operationId: 'eventCatalog',
        summary: 'Known event names with counts, first/last event time and first/last time of receipt (viewer+)',
        description: `Counts every stored event of the project. At most ${MAX_CATALOG_EVENTS} names (the most frequent), sorted by name.`,
        tags: ['events'],
        security,
        parameters: [projectId],
        responses: {
          '200': jsonResponse('the catalog', {
            type: 'object',
            required: ['items', 'truncated'],
            properties: {
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['event', 'count', 'first_event_time', 'last_event_time', 'first_seen', 'last_seen'],
                  properties: {
                    event: { type: 'string' },
                    count: { type: 'integer' },
                    first_event_time: { type: 'string', format: 'date-time', description: 'earliest event time (ts) of the name' },
                    last_event_time: { type: 'string', format: 'date-time', description: 'latest event time (ts) of the name' },
                    first_seen: { type: 'string', format: 'date-time', description: 'earliest time of receipt of the name' },
                    last_seen: { type: 'string', format: 'date-time', description: 'latest time of receipt of the name' },
                  },
                },
              },
              truncated: { type: 'boolean' },
            },
          }),
          ...errors(401, 404, 408, 429),
        },
      },
    },
    '/api/v1/projects/{id}/catalog/props': {
      get: {
        operationId: 'propertyCatalog',
        summary: 'Top-level property keys with inferred value types (viewer+)',
        description:
          `Read from the ${PROPS_SAMPLE_EVENTS} most recently received events that carry properties (of one event name with event=). ` +
          'Types: string, number, boolean, datetime (ISO 8601 strings), object, array, mixed (more than one). ' +
          `Keys seen only with null values are left out; at most ${MAX_CATALOG_PROPS} keys (the most seen), sorted by key.`,
        tags: ['events'],
        security,
        parameters: [projectId, { name: 'event', in: 'query', required: false, description: 'only events of this name', schema: text(200) }],
        responses: {
          '200': jsonResponse('the catalog', {
            type: 'object',
            required: ['event', 'sampled_events', 'items', 'truncated'],
            properties: {
              event: nullable('string'),
              sampled_events: { type: 'integer' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['key', 'type', 'seen'],
                  properties: {
                    key: { type: 'string' },
                    type: { enum: ['string', 'number', 'boolean', 'datetime', 'object', 'array', 'mixed'] },
                    seen: { type: 'integer', description: 'sampled events carrying the key' },
                  },
                },
              },
              truncated: { type: 'boolean' },
            },
          }),
          ...errors(401, 404, 408, 422, 429),
        },
      },
    },
  },
};
