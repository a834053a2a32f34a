// The OpenAPI part of saved insights, dashboards and share links: request schemas (ajv checks bodies
// against them) and the shapes of the answers. A saved query's body is checked against its own
// kind's request schema by savedQueries.ts, which the schema here cannot express.

import { jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import { QUERIES } from '../queries/index.js';
import { DASHBOARD_LIMITS, TILE_DEFAULTS } from './dashboards.js';
import { INSIGHT_LIMITS } from './insights.js';
import { KINDS } from './savedQueries.js';
import { ROLLING_RANGE_HELP, ROLLING_RANGE_PATTERN } from '../engine/rollingRange.js';

const id: JsonSchema = { type: 'integer', format: 'int64', minimum: 1 };
const stamp: JsonSchema = { type: 'string', format: 'date-time' };
const name: JsonSchema = { type: 'string', minLength: 1, maxLength: INSIGHT_LIMITS.name };
const description = (max: number): JsonSchema => ({ type: ['string', 'null'], maxLength: max });
const author: JsonSchema = { anyOf: [ref('Author'), { type: 'null' }], description: 'null once the user is deleted' };
const day = (what: string): JsonSchema => ({ type: ['string', 'null'], format: 'date', description: `${what}, a local date YYYY-MM-DD; null for none` });
const filters: JsonSchema = { anyOf: [ref('QueryFilters'), { type: 'null' }], description: 'added (AND) to each query’s top-level filters; null for none' };
const width: JsonSchema = { type: 'integer', minimum: 1, maximum: DASHBOARD_LIMITS.width, description: 'grid columns of 12' };
const height: JsonSchema = { type: 'integer', minimum: 1, maximum: DASHBOARD_LIMITS.height, description: 'grid rows' };
const text: JsonSchema = { type: 'string', minLength: 1, maxLength: DASHBOARD_LIMITS.text, description: 'plain text; blank lines separate paragraphs' };

const body = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', additionalProperties: false, required, properties });
const out = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required: Object.keys(properties), properties });
const list = (item: string, order: string): JsonSchema => out({ items: { type: 'array', items: ref(item), description: order } });

const rolling = (what: string): JsonSchema => ({
  type: ['string', 'null'],
  pattern: ROLLING_RANGE_PATTERN,
  description: `${what}: ${ROLLING_RANGE_HELP}; resolved in the project’s time zone when answered; null for none`,
});
const overrideFields = {
  date_from: day('replaces each query’s date_from'),
  date_to: day('replaces each query’s date_to'),
  date_range: rolling('a rolling range replacing each query’s dates, instead of date_from and date_to'),
  filters,
};
const insightRange = rolling('a rolling range replacing the query’s own dates when answered');

const insightFields = {
  id,
  project_id: { type: 'integer' },
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  kind: { enum: KINDS },
  query: { type: 'object', description: 'the body of POST /projects/{id}/queries/<kind>' },
  date_range: insightRange,
};
const dashboardFields = { id, project_id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, ...overrideFields };
const tileFields = (insight: string) => ({
  id,
  position: { type: 'integer', minimum: 0, description: 'order on the dashboard, from 0' },
  width,
  height,
  kind: { enum: ['insight', 'text'] },
  insight: { anyOf: [ref(insight), { type: 'null' }] },
  text: { type: ['string', 'null'] },
});
const changes = { created_by: author, updated_by: author, created_at: stamp, updated_at: stamp };

export const schemas: Record<string, JsonSchema> = {
  Author: out({ id, email: { type: 'string' }, name: { type: ['string', 'null'] } }),
  InsightBody: body(
    {
      name,
      description: description(INSIGHT_LIMITS.description),
      kind: { enum: KINDS, description: 'the query route below /queries/' },
      query: { type: 'object', description: 'that route’s request body, checked as it checks it' },
      date_range: insightRange,
    },
    ['name', 'kind', 'query'],
  ),
  InsightPatch: body({ name, description: description(INSIGHT_LIMITS.description), query: { type: 'object', description: 'the whole new body; the kind cannot change' }, date_range: insightRange }),
  Insight: out({ ...insightFields, ...changes, dashboards: { type: 'array', items: out({ id, name: { type: 'string' } }), description: 'dashboards showing it, by name' } }),
  InsightList: list('Insight', 'most recently changed first'),
  ResultOverrides: body(overrideFields),
  DashboardBody: body({ name, description: description(DASHBOARD_LIMITS.description), ...overrideFields }, ['name']),
  DashboardPatch: body({
    name,
    description: description(DASHBOARD_LIMITS.description),
    ...overrideFields,
    layout: {
      type: 'array',
      maxItems: DASHBOARD_LIMITS.tiles,
      items: body({ id, width, height }, ['id', 'width', 'height']),
      description: 'every tile of the dashboard once, in the new order, with its size',
    },
  }),
  Tile: out(tileFields('Insight')),
  Dashboard: out({ ...dashboardFields, ...changes, tiles: { type: 'array', items: ref('Tile'), description: 'in order' } }),
  DashboardSummary: out({ ...dashboardFields, ...changes, tile_count: { type: 'integer', minimum: 0 } }),
  DashboardList: list('DashboardSummary', 'by name, then id'),
  TileBody: {
    ...body({ insight_id: { ...id, description: 'a saved insight of the project' }, text, width: { ...width, default: TILE_DEFAULTS.width }, height: { ...height, default: TILE_DEFAULTS.height } }),
    description: 'either insight_id or text',
  },
  TilePatch: body({ text: { ...text, description: 'text tiles only' }, width, height }),
  QueryAnswer: { anyOf: [...new Set(QUERIES.map((q) => q.doc.response))].map(ref), description: 'exactly what the insight’s query route answers for its body with the overrides' },
  ShareLinkBody: {
    ...body({ dashboard_id: id, insight_id: id, expires_at: { ...stamp, description: 'in the future; absent for a link that does not expire' } }),
    description: 'either dashboard_id or insight_id',
  },
  ShareLink: out({
    id,
    project_id: { type: 'integer' },
    target: out({ kind: { enum: ['dashboard', 'insight'] }, id, name: { type: 'string' } }),
    expires_at: { type: ['string', 'null'], format: 'date-time' },
    created_by: author,
    created_at: stamp,
    last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'the last time the public side opened it' },
  }),
  CreatedShareLink: {
    allOf: [ref('ShareLink')],
    required: ['token', 'url_path'],
    properties: {
      token: { type: 'string', pattern: '^pps_[A-Za-z0-9_-]{43}$', description: 'shown this once; only its hash is kept' },
      url_path: { type: 'string', description: 'the console page showing it: /shared/<token>' },
    },
  },
  ShareLinkList: list('ShareLink', 'newest first; tokens are never shown again'),
  SharedInsight: out({ id, name: { type: 'string' }, description: { type: ['string', 'null'] }, kind: { enum: KINDS }, query: { type: 'object' }, date_range: insightRange }),
  SharedTile: out(tileFields('SharedInsight')),
  SharedDashboard: out({ ...dashboardFields, created_at: stamp, updated_at: stamp, tiles: { type: 'array', items: ref('SharedTile') } }),
  SharedView: {
    type: 'object',
    required: ['kind', 'project'],
    properties: {
      kind: { enum: ['dashboard', 'insight'] },
      project: out({ name: { type: 'string' }, timezone: { type: 'string' } }),
      dashboard: ref('SharedDashboard'),
      insight: ref('SharedInsight'),
    },
  },
};

const int = (what: string): JsonSchema => ({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: what });
export const params: Record<'project' | 'insight' | 'dashboard' | 'tile' | 'link' | 'token', Parameter> = {
  project: { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
  insight: { name: 'insightID', in: 'path', required: true, schema: int('insight id') },
  dashboard: { name: 'dashboardID', in: 'path', required: true, schema: int('dashboard id') },
  tile: { name: 'tileID', in: 'path', required: true, schema: int('tile id') },
  link: { name: 'linkID', in: 'path', required: true, schema: int('share link id') },
  // Any text: a malformed token is the same 404 as an unknown one.
  token: { name: 'token', in: 'path', required: true, schema: { type: 'string', description: 'the share token (redacted from logs)' } },
};

/** An operation of a signed-in user. */
export const op = (tag: string, parameters: Parameter[], o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({
  ...o,
  parameters,
  tags: [tag],
  security: [{ accessToken: [] }],
});

/** An operation of the public side: no credentials, the token in the path. */
export const publicOp = (parameters: Parameter[], o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({
  ...o,
  parameters,
  tags: ['shared'],
  security: [],
});

export const answer = { '200': jsonResponse('the answer; X-PP-Cache says hit, miss or bypass', ref('QueryAnswer')) };
