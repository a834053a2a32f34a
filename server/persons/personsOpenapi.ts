// The OpenAPI fragment of person requests: a person's page, the download of everything stored
// about them, and their deletion as a job that can be polled.

import { errors, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Parameter } from '../http/openapi.js';
import { ID_MAX } from '../ingest/eventSchema.js';
import { REFUSAL_DAYS } from '../ingest/erasedIds.js';
import { TOP_EVENTS } from './personSummary.js';

export const PERSON = '/api/v1/projects/{id}/persons/{key}';
export const PERSON_EXPORT = `${PERSON}/export`;
export const DELETION = '/api/v1/projects/{id}/person-deletions/{jobID}';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const key: Parameter = {
  name: 'key',
  in: 'path',
  required: true,
  description: 'any id of the person: a user id, an anonymous id or a distinct id (URL-encoded)',
  schema: { type: 'string', minLength: 1, maxLength: ID_MAX },
};
const jobId: Parameter = { name: 'jobID', in: 'path', required: true, description: 'deletion job id', schema: { type: 'integer', format: 'int64', minimum: 1 } };
const security = [{ accessToken: [] }];
const tags = ['persons'];
const ids = { type: 'array', items: { type: 'string' } };
const time = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });
const count = (description: string): JsonSchema => ({ type: ['integer', 'null'], minimum: 0, description });

const schemas: Record<string, JsonSchema> = {
  Person: {
    type: 'object',
    required: ['actor_id', 'distinct_ids', 'user_ids', 'first_seen', 'last_seen', 'events', 'labeled_events', 'top_events', 'sessions', 'recordings'],
    properties: {
      actor_id: { type: 'string', description: 'the actor the key resolves to, as queries and actor lists name the person' },
      distinct_ids: { ...ids, description: 'every id of the person, sorted: ids linked by identify and alias, and the anonymous and user ids sent together with them' },
      user_ids: { ...ids, description: 'the ids the person was identified by' },
      first_seen: time('time of their earliest event; null without events'),
      last_seen: time('time of their latest event'),
      events: { type: 'integer', minimum: 0, description: 'events naming one of their ids (labeled events not included)' },
      labeled_events: { type: 'integer', minimum: 0, description: 'events labeling rules derived from theirs' },
      top_events: {
        type: 'array',
        maxItems: TOP_EVENTS,
        description: `their ${TOP_EVENTS} most frequent event names (labeled ones included), most first`,
        items: { type: 'object', required: ['event', 'count'], properties: { event: { type: 'string' }, count: { type: 'integer' } } },
      },
      sessions: { type: 'integer', minimum: 0, description: 'distinct session ids of their events' },
      recordings: { type: 'integer', minimum: 0, description: 'recorded sessions of theirs' },
    },
  },
  PersonDeletionJob: {
    type: 'object',
    required: ['id', 'state', 'ids', 'deleted_events', 'deleted_recordings', 'error', 'requested_by', 'created_at', 'started_at', 'finished_at'],
    properties: {
      id: { type: 'integer', format: 'int64' },
      state: { enum: ['queued', 'running', 'succeeded', 'failed'], description: 'queued → running → succeeded or failed; a job running when the server stopped is queued again at its start' },
      ids: { type: 'integer', minimum: 0, description: 'how many ids of the person were asked to be deleted (the ids themselves are not kept)' },
      deleted_events: count('events deleted, labeled events derived from theirs included; null until the job succeeded'),
      deleted_recordings: count('recordings deleted; null until the job succeeded'),
      error: { type: ['string', 'null'], description: 'why the job failed; null otherwise' },
      requested_by: { type: ['integer', 'null'], description: 'id of the user who asked for the deletion' },
      created_at: { type: 'string', format: 'date-time' },
      started_at: time('when the job last started; null while it never ran'),
      finished_at: time('null until the job succeeded or failed'),
    },
  },
};

const access = 'Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it), like the other per-person views.';

export const personsOpenapi: OpenApiFragment = {
  schemas,
  paths: {
    [PERSON]: {
      get: {
        operationId: 'getPerson',
        summary: "A person's ids, first and last seen, event counts, sessions and recordings (analyst+, actor_drilldown)",
        description: `404 when no event, identity link, trait or recording names the key. ${access}`,
        tags,
        security,
        parameters: [projectId, key],
        responses: { '200': jsonResponse('the person', ref('Person')), ...errors(400, 401, 402, 403, 404, 408, 429) },
      },
      delete: {
        operationId: 'deletePerson',
        summary: 'Delete everything stored about a person (admin+), as a background job',
        description:
          "Queues a job deleting every event naming one of the person's ids (labeled events derived from them included), their identity links and traits, " +
          'their recordings, and their share of the per-day rollups (folded again from the remaining events); cached answers drop. ' +
          `From the request on, their ids are refused at ingest for ${REFUSAL_DAYS} days (code \`person_erased\` in rejected[]), unless a server key sends them with \`"consent": true\`. ` +
          'The audit log records who asked, never the ids. Poll the job at /person-deletions/{jobID}. Needs no entitlement: erasure never depends on the plan.',
        tags,
        security,
        parameters: [projectId, key],
        responses: { '202': jsonResponse('the queued job', ref('PersonDeletionJob')), ...errors(400, 401, 402, 403, 404, 408, 429) },
      },
    },
    [PERSON_EXPORT]: {
      post: {
        operationId: 'exportPerson',
        summary: 'Download everything stored about a person as NDJSON (admin+)',
        description:
          'Answered at once, streamed as it is read (the server holds a page at a time): one JSON object per line, each with a `type`: ' +
          '`person` (first: the ids), `event` (every event naming one of their ids, oldest first; `labeled` marks derived ones), `identity_link`, `traits`, ' +
          'and `recording_chunk` (each stored chunk of their recordings with its rrweb events). Served as an attachment. The audit log records the export. ' +
          "Needs no entitlement: a person's access to their data never depends on the plan.",
        tags,
        security,
        parameters: [projectId, key],
        responses: {
          '200': { description: "the person's data", content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          ...errors(400, 401, 402, 403, 404, 408, 429),
        },
      },
    },
    [DELETION]: {
      get: {
        operationId: 'getPersonDeletion',
        summary: 'One person deletion job of the project (admin+)',
        tags,
        security,
        parameters: [projectId, jobId],
        responses: { '200': jsonResponse('the job', ref('PersonDeletionJob')), ...errors(400, 401, 402, 403, 404, 429) },
      },
    },
  },
};
