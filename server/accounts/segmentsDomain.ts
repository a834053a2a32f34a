// HTTP surface of saved segments: list and read for viewers, create, change and delete for analysts.
// Creating or changing one needs the saved_segments entitlement; reading and deleting do not, so a
// lapsed license never strands data. Storage is segments.ts.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type Operation } from '../http/openapi.js';
import { NotFoundError } from '../ground/errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { project } from '../access/access.js';
import { checkFilters, type Filter } from '../engine/filters.js';
import { createSegment, deleteSegment, getSegment, listSegments, updateSegment, type SavedSegment } from './segments.js';

const BASE = '/api/v1/projects/{id}/segments';
const ONE = `${BASE}/{segmentID}`;

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' };
const filters: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: ref('QueryFilter'),
  description: 'Filter objects only (a segment cannot name another); at most 8192 bytes as JSON',
};

const schemas: Record<string, JsonSchema> = {
  SavedSegment: {
    type: 'object',
    required: ['id', 'name', 'filters', 'created_at', 'updated_at'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      filters: { type: 'array', items: ref('QueryFilter') },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
    },
  },
  SavedSegmentCreate: { type: 'object', additionalProperties: false, required: ['name', 'filters'], properties: { name, filters } },
  SavedSegmentChange: { type: 'object', additionalProperties: false, minProperties: 1, properties: { name, filters } },
};

const idParam = { name: 'id', in: 'path' as const, required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const segmentParam = { name: 'segmentID', in: 'path' as const, required: true, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } };

const op = (o: Omit<Operation, 'tags' | 'security'>): Operation => ({ ...o, tags: ['segments'], security: [{ accessToken: [] }] });

export const segmentsDomain: Domain = {
  name: 'segments',
  openapi: {
    schemas,
    paths: {
      [BASE]: {
        get: op({
          operationId: 'listSegments',
          summary: 'Saved segments of the project, by id (viewer+)',
          parameters: [
            idParam,
            { name: 'cursor', in: 'query', schema: { type: 'string', minLength: 1, maxLength: 512 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          ],
          responses: {
            '200': jsonResponse('one page', {
              type: 'object',
              required: ['items', 'next_cursor'],
              properties: { items: { type: 'array', items: ref('SavedSegment') }, next_cursor: { type: ['string', 'null'] } },
            }),
            ...errors(400, 401, 404, 422, 429),
          },
        }),
        post: op({
          operationId: 'createSegment',
          summary: 'Save a segment (analyst+, saved_segments entitlement)',
          parameters: [idParam],
          requestBody: jsonBody(ref('SavedSegmentCreate')),
          responses: { '201': jsonResponse('created', ref('SavedSegment')), ...errors(400, 401, 403, 404, 409, 422, 429) },
        }),
      },
      [ONE]: {
        get: op({
          operationId: 'getSegment',
          summary: 'One saved segment (viewer+)',
          parameters: [idParam, segmentParam],
          responses: { '200': jsonResponse('the segment', ref('SavedSegment')), ...errors(400, 401, 404, 429) },
        }),
        patch: op({
          operationId: 'updateSegment',
          summary: 'Rename a segment or replace its filters (analyst+, saved_segments entitlement)',
          parameters: [idParam, segmentParam],
          requestBody: jsonBody(ref('SavedSegmentChange')),
          responses: { '200': jsonResponse('the segment', ref('SavedSegment')), ...errors(400, 401, 403, 404, 409, 422, 429) },
        }),
        delete: op({
          operationId: 'deleteSegment',
          summary: 'Delete a segment (analyst+); queries naming it then answer 422',
          parameters: [idParam, segmentParam],
          responses: { '204': { description: 'deleted' }, ...errors(400, 401, 403, 404, 429) },
        }),
      },
    },
  },
  mount(routes, services) {
    const viewer = project('viewer');
    const saving = project('analyst', { entitlements: ['saved_segments'] });
    const segmentOf = (req: Request) => {
      const segment = getSegment(services.meta, req.project!.id, Number(req.valid.params.segmentID));
      if (!segment) throw new NotFoundError('segment not found');
      return segment;
    };

    routes.get(BASE, viewer, (req, res) => {
      const scope = { list: 'segments', project: req.project!.id };
      const limit = Number(req.valid.query.limit);
      const cursor = req.valid.query.cursor as string | undefined;
      const after = cursor === undefined ? 0 : decodeCursor<number>(services, scope, cursor);
      const rows = listSegments(services.meta, req.project!.id, after, limit + 1);
      const page = rows.slice(0, limit);
      const next = rows.length > limit ? encodeCursor(services, scope, page.at(-1)!.id) : null;
      res.json({ items: page.map(presentSegment), next_cursor: next });
    });

    routes.post(BASE, saving, validSegmentBody, (req, res) => {
      const body = req.body as { name: string; filters: Filter[] };
      const segment = createSegment(services.meta, req.project!.id, body, req.auth!.userId, services.clock.now());
      res.status(201).json(presentSegment(segment));
    });

    routes.get(ONE, viewer, (req, res) => {
      res.json(presentSegment(segmentOf(req)));
    });

    routes.patch(ONE, saving, validSegmentBody, (req, res) => {
      const segment = updateSegment(services.meta, req.project!.id, segmentOf(req).id, req.body as { name?: string; filters?: Filter[] }, services.clock.now());
      res.json(presentSegment(segment!));
    });

    routes.delete(ONE, project('analyst'), (req, res) => {
      deleteSegment(services.meta, req.project!.id, segmentOf(req).id);
      res.status(204).end();
    });
  },
};

/** Semantic filter checks (sizes, operator values) after the schema, before authorization. */
function validSegmentBody(req: Request, _res: unknown, next: () => void): void {
  checkFilters((req.body as { filters?: Filter[] }).filters);
  next();
}

export function presentSegment(s: SavedSegment): Omit<SavedSegment, 'project_id'> {
  return { id: s.id, name: s.name, filters: s.filters, created_at: s.created_at, updated_at: s.updated_at };
}
