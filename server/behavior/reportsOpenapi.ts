// OpenAPI of the behavior and forms reports: their query parameters and answers
// (docs/behavior.md says what every figure means).

import { errors, jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import { DEFAULT_REPORT_LIMIT, MAX_REPORT_LIMIT } from './reportParams.js';
import { MAX_CELLS } from './pageBehavior.js';
import { HEATMAP_BANDS } from '../engine/rollups/clickDays.js';

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const date = (name: string): Parameter => ({
  name,
  in: 'query',
  required: false,
  description: 'inclusive local date; give date_from and date_to together (neither: the latest 30 local dates)',
  schema: { type: 'string', format: 'date' },
});
const REPORT_PARAMETERS: Parameter[] = [
  projectId,
  date('date_from'),
  date('date_to'),
  {
    name: 'filters',
    in: 'query',
    required: false,
    description: 'JSON array of at most 20 Filter objects (8192 bytes decoded); saved segments are not accepted',
    schema: { type: 'string', maxLength: 65536 },
  },
  { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page; bound to the whole query scope', schema: { type: 'string', maxLength: 4096 } },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `page size (default ${DEFAULT_REPORT_LIMIT}, at most ${MAX_REPORT_LIMIT})`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_REPORT_LIMIT },
  },
];
const urlParameter = (required: boolean, description: string): Parameter => ({ name: 'url', in: 'query', required, description, schema: { type: 'string', minLength: 1, maxLength: 4096 } });

const count: JsonSchema = { type: 'integer', minimum: 0 };
const share: JsonSchema = { type: ['number', 'null'], minimum: 0, description: 'fraction; null when the denominator is 0' };
const ms: JsonSchema = { type: ['number', 'null'], description: 'milliseconds; null when nothing was measured' };
const obj = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({ type: 'object', required: Object.keys(properties), properties, ...(description ? { description } : {}) });
const list = (item: string): Record<string, JsonSchema> => ({ items: { type: 'array', items: ref(item) }, next_cursor: { type: ['string', 'null'] } });
const range = { date_from: { type: 'string', format: 'date' }, date_to: { type: 'string', format: 'date' } };
const cell = obj({ x: count, y: count, clicks: count });

const figures: Record<string, JsonSchema> = {
  events: count,
  page_views: count,
  clicks: count,
  unique_clickers: count,
  rage_clicks: count,
  rage_click_rate: { type: 'number', minimum: 0, description: 'rage_clicks / clicks (0 without clicks)' },
  dead_clicks: count,
  dead_click_rate: { type: 'number', minimum: 0, description: 'dead_clicks / clicks (0 without clicks)' },
  scroll: obj({ measured: count, reach_25: share, reach_50: share, reach_75: share, reach_100: share, mean_depth: { type: ['number', 'null'] } }),
};

const schemas: Record<string, JsonSchema> = {
  PageFigures: obj(figures),
  BehaviorURL: obj({ url: { type: 'string', description: 'normalized page URL' }, ...figures }),
  BehaviorURLsPage: obj({ ...range, ...list('BehaviorURL') }),
  ClickedElement: obj({
    selector: { type: 'string' },
    tag: { type: 'string' },
    text: { type: ['string', 'null'], description: 'most frequent visible text, standard privacy mode only' },
    clicks: count,
    unique_clickers: { ...count, description: 'distinct actors with a pp.click on this element' },
    rage_clicks: count,
    dead_clicks: count,
    cells: { type: 'array', items: cell, description: 'clicks per 10 % cell of the element box (x, y: lower bounds in percent)' },
  }),
  HeatmapBand: obj({
    band: { enum: HEATMAP_BANDS.map((b) => b.band) },
    min_width: count,
    max_width: { type: ['integer', 'null'] },
    clicks: count,
    fixed_clicks: count,
    cells: { type: 'array', items: cell, maxItems: MAX_CELLS, description: 'x: lower bound of a 2 % column of the viewport width; y: lower bound of a 25 px row of the page' },
    truncated: { type: 'boolean' },
  }),
  BehaviorPage: obj({
    url: { type: 'string' },
    ...range,
    privacy_mode: { enum: ['standard', 'strict'] },
    summary: ref('PageFigures'),
    heatmap: obj({ x_step_percent: count, y_step_px: count, unplaced: count, bands: { type: 'array', items: ref('HeatmapBand') } }),
    ...list('ClickedElement'),
  }),
  FormSummary: obj({
    form: { type: 'string', description: 'privacy-safe form selector' },
    url: { type: 'string', description: 'normalized page URL' },
    views: count,
    starts: count,
    starters: count,
    submits: count,
    submitters: count,
    resubmissions: count,
    abandons: count,
    start_rate: share,
    conversion_rate: share,
    abandonment_rate: share,
    median_time_to_submit_ms: ms,
  }),
  FormsPage: obj({ ...range, ...list('FormSummary') }),
  FormField: obj({
    field: { type: 'string', description: 'field selector, relative to its form' },
    tag: { type: ['string', 'null'] },
    type: { type: ['string', 'null'] },
    drop_offs: count,
    drop_off_rate: share,
    interactions: count,
    median_time_ms: ms,
    median_to_change_ms: ms,
    refocuses: count,
    corrections: count,
    left_blank: count,
  }),
  FormDetailPage: obj({
    form: { type: 'string' },
    url: { type: ['string', 'null'] },
    ...range,
    attempts: count,
    submitted: count,
    abandoned: count,
    median_hesitation_ms: ms,
    ...list('FormField'),
  }),
};

const operation = (operationId: string, summary: string, parameters: Parameter[], answer: string, statuses: number[]): Operation => ({
  operationId,
  summary,
  tags: ['behavior'],
  security: [{ accessToken: [] }],
  parameters,
  responses: { '200': jsonResponse(summary, ref(answer)), ...errors(...statuses) },
});

export const reportsOpenapi = {
  schemas,
  paths: {
    '/api/v1/projects/{id}/pages/behavior/urls': {
      get: operation('listBehaviorUrls', 'Pages ordered by event count, with click, rage/dead-click and scroll figures', REPORT_PARAMETERS, 'BehaviorURLsPage', [401, 404, 408, 422, 429]),
    },
    '/api/v1/projects/{id}/pages/behavior': {
      get: operation(
        'getPageBehavior',
        'One page: figures, click heatmap and clicked elements',
        [urlParameter(true, 'the page; normalized before matching'), ...REPORT_PARAMETERS],
        'BehaviorPage',
        [401, 404, 408, 422, 429],
      ),
    },
    '/api/v1/projects/{id}/forms': {
      get: operation('listForms', 'Forms with views, starts, submits, conversion and abandonment', REPORT_PARAMETERS, 'FormsPage', [401, 402, 403, 404, 408, 422, 429]),
    },
    '/api/v1/projects/{id}/forms/detail': {
      get: operation(
        'getFormDetail',
        "One form's fields ranked by drop-off; never an entered value",
        [
          { name: 'form', in: 'query', required: true, description: 'exact privacy-safe form selector', schema: { type: 'string', minLength: 1, maxLength: 2000 } },
          urlParameter(false, 'exact page; without it every page with this form counts'),
          ...REPORT_PARAMETERS,
        ],
        'FormDetailPage',
        [401, 402, 403, 404, 408, 422, 429],
      ),
    },
  },
};
