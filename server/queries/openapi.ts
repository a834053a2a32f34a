// The queries' part of the OpenAPI document: request schemas (ajv validates bodies against them,
// defaults included) and the response shapes. Semantic rules the schemas cannot state live in each
// query's validate function and are named in the descriptions.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Operation } from '../http/openapi.js';
import { FILTER_OPS, MAX_FILTERS } from '../engine/filters.js';
import { webSummarySchemas } from './web/types.js';

const date: JsonSchema = { type: 'string', format: 'date', description: 'inclusive local date in the project time zone, YYYY-MM-DD' };
const eventName: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const pathItem: JsonSchema = { type: 'string', minLength: 1, maxLength: 1000 };
const anyOrEvent: JsonSchema = { ...eventName, description: 'an event name, or `any` for every event' };
const property: JsonSchema = {
  type: 'string',
  pattern: '^(url|path|referrer|source|sdk_name|release|props\\.[^*]{1,200})$',
  description: '`url`, `path`, `referrer`, `source`, `sdk_name`, `release` or `props.<key>` (a top-level key, no `*`)',
};
const rate: JsonSchema = { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'fraction 0..1; null when the denominator is 0' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const cursor: JsonSchema = { type: 'string', minLength: 1, maxLength: 4096, description: 'opaque cursor from the previous page, bound to this query' };
const pageLimit: JsonSchema = { type: 'integer', minimum: 1, maximum: 1000, default: 50 };

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/** Response objects list what they carry; clients should ignore fields added later. */
const out = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
});

const rangeFields = { date_from: date, date_to: date };

/** The paths request and a node (or link) of its graph, with a page of the actors there. */
function pathsActorsRequest(): JsonSchema {
  const paths = schemas.PathsRequest as { properties: Record<string, JsonSchema>; required: string[] };
  return obj(
    {
      ...paths.properties,
      step: { type: 'integer', minimum: -20, maximum: 20, description: "the node's step as the paths answer gives it: 0…depth after the anchor, -depth…0 before it" },
      item: { ...pathItem, description: "the node's item as the paths answer gives it (`$other` and `$end` included)" },
      next_item: { ...pathItem, description: 'with it, the link from the node to this item at step + 1' },
      cursor,
      limit: pageLimit,
    },
    [...paths.required, 'step', 'item'],
  );
}

const schemas: Record<string, JsonSchema> = {
  QueryFilter: {
    ...obj(
      {
        field: property,
        op: { enum: [...FILTER_OPS] },
        value: {
          type: ['string', 'number', 'boolean', 'array', 'null'],
          items: { type: ['string', 'number', 'boolean'] },
          maxItems: 100,
          description:
            'eq/neq: a scalar; in/not_in: a non-empty array; contains/not_contains/starts_with: a string; gt/gte/lt/lte: a number (props.<key> only, JSON numbers only); exists/not_exists: none',
        },
      },
      ['field', 'op'],
    ),
    description: 'Scalars compare by their text (5 matches "5"). neq, not_in and not_contains also match events without the field; a JSON null counts as absent.',
  },
  QueryFilterItem: {
    description: 'a QueryFilter, or `segment:<id>` naming a saved segment of the project (needs the saved_segments entitlement)',
    if: { type: 'string' },
    then: { type: 'string', pattern: '^segment:[1-9][0-9]{0,15}$' },
    else: ref('QueryFilter'),
  },
  QueryFilters: {
    type: 'array',
    maxItems: MAX_FILTERS,
    items: ref('QueryFilterItem'),
    description: 'all items must match (AND); at most 20 items and 8192 bytes as JSON',
  },
  CompareRequest: {
    ...obj({ period: { enum: ['previous'] }, ...rangeFields }, []),
    description: '`{period: "previous"}` (the same number of days just before date_from) or an explicit `{date_from, date_to}`',
  },
  FunnelStep: obj({ event: eventName, filters: ref('QueryFilters'), label: { type: 'string', maxLength: 200 } }, ['event']),
  Breakdown: obj({ property, limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 } }, ['property']),
  GroupBy: obj({ property, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }, ['property']),

  FunnelRequest: obj(
    {
      ...rangeFields,
      window_hours: { type: 'integer', minimum: 1, maximum: 8784, default: 336, description: 'conversion window from the step-1 event, inclusive' },
      steps: { type: 'array', minItems: 2, maxItems: 20, items: ref('FunnelStep') },
      breakdown: ref('Breakdown'),
      count_by: { enum: ['actors', 'totals'], default: 'actors' },
      value: { enum: ['actors', 'revenue'], default: 'actors', description: 'revenue adds the estimated monthly loss per transition in the project currency (count_by=actors only)' },
      compare: ref('CompareRequest'),
      dropped_at_step: { type: 'integer', description: '1 ≤ k < steps; actors whose level is exactly k (needs actor_drilldown; count_by=actors only)' },
      dropped_cursor: cursor,
      dropped_limit: pageLimit,
    },
    ['steps'],
  ),
  RetentionRequest: obj(
    {
      start_event: eventName,
      return_event: { ...anyOrEvent, default: 'any' },
      granularity: { enum: ['day', 'week'], default: 'day' },
      periods: { type: 'integer', minimum: 1, maximum: 400, default: 7, description: 'periods after period 0; values has periods + 1 entries' },
      ...rangeFields,
      filters: ref('QueryFilters'),
      value: { enum: ['actors', 'revenue', 'paid_conversion'], default: 'actors' },
      compare: ref('CompareRequest'),
    },
    ['start_event'],
  ),
  RetentionActorsRequest: obj(
    {
      start_event: eventName,
      return_event: anyOrEvent,
      granularity: { enum: ['day', 'week'] },
      periods: { type: 'integer', minimum: 1, maximum: 400 },
      ...rangeFields,
      cohort: { ...date, description: 'a cohort label exactly as the retention response gives it' },
      period: { type: 'integer', minimum: 0, description: '0 is the whole cohort; at most periods' },
      filters: ref('QueryFilters'),
      cursor,
      limit: pageLimit,
    },
    ['start_event', 'return_event', 'granularity', 'periods', 'date_from', 'date_to', 'cohort', 'period'],
  ),
  SegmentationRequest: obj(
    {
      metric: { enum: ['events', 'uniques', 'revenue', 'revenue_avg'] },
      event: anyOrEvent,
      filters: ref('QueryFilters'),
      group_by: ref('GroupBy'),
      interval: { enum: ['hour', 'day', 'week', 'month'], default: 'day' },
      ...rangeFields,
      compare: ref('CompareRequest'),
    },
    ['metric', 'event'],
  ),
  LifecycleRequest: obj({ ...rangeFields, interval: { enum: ['day', 'week'], default: 'day' }, filters: ref('QueryFilters') }, ['date_from', 'date_to']),
  StickinessRequest: obj({ ...rangeFields, event: { ...anyOrEvent, default: 'any' }, filters: ref('QueryFilters') }, ['date_from', 'date_to']),
  ActivitySummaryRequest: obj({ date_to: { ...date, description: 'the last local day counted, normally the last complete one' }, event: { ...anyOrEvent, default: 'any' } }, ['date_to']),
  RevenueSummaryRequest: obj({ ...rangeFields, filters: ref('QueryFilters') }, ['date_from', 'date_to']),
  CorrelationsRequest: obj(
    {
      ...rangeFields,
      target_event: { ...eventName, description: 'the conversion: actors who did it in the range converted' },
      filters: ref('QueryFilters'),
      min_n: { type: 'integer', minimum: 1, default: 5, description: 'candidates are events at least this many actors did in their observation window' },
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 20, description: 'candidates listed, by lift' },
      exclude_managed: { type: 'boolean', default: true, description: 'leave out autocapture (`pp.*`) and labeled-event rows' },
    },
    ['target_event', 'date_from', 'date_to'],
  ),
  ActivationOutcome: {
    ...obj({
      event: { ...eventName, description: 'the outcome event' },
      from_day: { type: 'integer', minimum: 1, maximum: 400, description: 'first local day of the outcome window, counted from the anchor day (day 0)' },
      to_day: { type: 'integer', minimum: 2, maximum: 401, description: 'the window ends before this day' },
    }),
    description: 'retained: the outcome event at least once in [anchor day + from_day, anchor day + to_day); repeats do not strengthen it',
  },
  ActivationDriversRequest: obj(
    {
      ...rangeFields,
      anchor_event: { ...eventName, description: "each actor's first such event with its local date in the range is their anchor" },
      behavior_windows_days: {
        type: 'array',
        minItems: 1,
        maxItems: 10,
        items: { type: 'integer', minimum: 1, maximum: 400 },
        description: 'each at most outcome.from_day (a window must end before the outcome window); default [1, 3, 7, 10, 14, 30] trimmed to outcome.from_day',
      },
      outcome: ref('ActivationOutcome'),
      filters: ref('QueryFilters'),
      exclude_managed_events: { type: 'boolean', default: true, description: 'leave out autocapture (`pp.*`) and labeled-event rows as candidates' },
      excluded_events: { type: 'array', maxItems: 50, items: eventName, description: 'never candidates' },
      candidate_limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'the events most eligible actors did within the longest window' },
    },
    ['date_from', 'date_to', 'anchor_event', 'outcome'],
  ),
  PathBreakdown: obj({ property, limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'values kept (by units); the rest fold into `$other`' } }, ['property']),
  PathsRequest: obj(
    {
      ...rangeFields,
      selected_event: { ...pathItem, description: 'the anchor: an event name, `pp.page_view` for any page view, or a cleaned page path such as `/pricing`' },
      direction: { enum: ['before', 'after'], description: 'after: the anchor and the items following it; before: the items leading to it' },
      start_event: { ...pathItem, description: 'direction=before only: routes begin at the last such item before the anchor' },
      end_event: { ...pathItem, description: 'direction=after only: routes end at the first such item after the anchor' },
      depth: { type: 'integer', minimum: 1, maximum: 20, description: 'items after (or before) the anchor' },
      min_count: { type: 'integer', minimum: 1, default: 1, description: 'routes below it are not listed; graph links below it fold into `$other`' },
      mode: { enum: ['actor', 'session'], description: 'a route per actor, or per session (mode=session needs actor_drilldown)' },
      filters: ref('QueryFilters'),
      breakdown: ref('PathBreakdown'),
      exclude_events: { type: 'array', maxItems: 50, uniqueItems: true, items: pathItem, description: 'items removed before routes are formed' },
      top_n: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'routes listed, and named items per graph step' },
    },
    ['date_from', 'date_to', 'selected_event', 'direction', 'depth', 'mode'],
  ),

  FunnelStepResult: out({
    event: { type: 'string' },
    label: { type: 'string' },
    count,
    conversion_rate: { ...rate, description: 'count / step-1 count' },
    step_conversion_rate: { ...rate, description: 'count / previous step count' },
    median_seconds_from_previous: { type: ['number', 'null'] },
    mean_seconds_from_previous: { type: ['number', 'null'] },
  }),
  FunnelResult: out(
    {
      ...rangeFields,
      steps: { type: 'array', items: ref('FunnelStepResult') },
      breakdown: {
        type: 'array',
        description: 'segments in rank order, `$other` last; they add up to the total',
        items: out({ name: { type: 'string', description: 'the value, `$none` (absent) or `$other`' }, value: { type: ['string', 'null'] }, steps: { type: 'array', items: ref('FunnelStepResult') } }),
      },
      revenue: out({
        converting_actors: count,
        revenue_per_converting_actor: { type: ['number', 'null'], description: 'project currency, over the range' },
        transitions: {
          type: 'array',
          items: out({ from_step: count, to_step: count, dropped: count, estimated_monthly_loss: { type: ['number', 'null'], description: 'project currency per 30 days' } }),
        },
      }),
    },
    ['date_from', 'date_to', 'steps'],
  ),
  FunnelResponse: {
    allOf: [ref('FunnelResult')],
    properties: {
      compare: ref('FunnelResult'),
      dropped: out({ step: count, actors: { type: 'array', items: out({ actor_id: { type: 'string' } }) }, next_cursor: { type: ['string', 'null'] } }),
    },
  },
  RetentionResult: out({
    ...rangeFields,
    cohorts: {
      type: 'array',
      items: out(
        {
          cohort: date,
          size: count,
          values: { type: 'array', items: { type: ['number', 'null'] }, description: 'index = period; null before the period starts or for an empty cohort' },
          counts: { type: 'array', items: { type: ['integer', 'null'] }, description: 'value=actors only' },
        },
        ['cohort', 'size', 'values'],
      ),
    },
  }),
  RetentionResponse: {
    allOf: [ref('RetentionResult')],
    properties: { granularity: { enum: ['day', 'week'] }, periods: count, value: { enum: ['actors', 'revenue', 'paid_conversion'] }, compare: ref('RetentionResult') },
  },
  PathsActorsResponse: out({
    step: { type: 'integer' },
    item: { type: 'string' },
    next_item: { type: ['string', 'null'] },
    units: { ...count, description: 'units (actors, or sessions) through the node or link, as the graph counts them' },
    total: { ...count, description: 'distinct actors of those units, every page together' },
    items: { type: 'array', items: out({ actor_id: { type: 'string' }, recorded: { type: 'boolean', description: 'the actor has recordings to watch' } }) },
    next_cursor: { type: ['string', 'null'] },
  }),
  RetentionActorsResponse: out({ cohort: date, period: count, items: { type: 'array', items: out({ actor_id: { type: 'string' } }) }, next_cursor: { type: ['string', 'null'] } }),
  SegmentationResult: out({
    ...rangeFields,
    series: {
      type: 'array',
      items: out({
        name: { type: 'string', description: '`total` without group_by; else the value, `$none` or `$other`' },
        value: { type: ['string', 'null'] },
        points: {
          type: 'array',
          items: out({
            bucket: { type: 'string', description: 'YYYY-MM-DD bucket start, or local RFC 3339 with offset for hours' },
            value: { type: ['number', 'null'] },
          }),
        },
      }),
    },
  }),
  SegmentationResponse: {
    allOf: [ref('SegmentationResult')],
    properties: { metric: { type: 'string' }, interval: { type: 'string' }, compare: ref('SegmentationResult') },
  },
  LifecycleResponse: out({
    ...rangeFields,
    interval: { enum: ['day', 'week'] },
    buckets: {
      type: 'array',
      items: out({ bucket: date, new: count, returning: count, resurrecting: count, dormant: { type: 'integer', maximum: 0 } }),
    },
  }),
  StickinessResponse: out({ ...rangeFields, event: { type: 'string' }, distribution: { type: 'array', items: out({ days: count, actors: count }) } }),
  ActivitySummaryResponse: out({
    date_to: date,
    event: { type: 'string' },
    dau: count,
    wau: count,
    mau: count,
    dau_mau: rate,
    usage_frequency: { type: ['number', 'null'], description: 'mean active days (of 30) per MAU actor' },
    repeat_activity: { ...rate, description: 'share of MAU actors active on two or more days' },
  }),
  CorrelationsResponse: out({
    ...rangeFields,
    target_event: { type: 'string' },
    actors: { ...count, description: 'actors with any (matching) event in the range' },
    converters: count,
    conversion_rate: rate,
    observation_seconds: { type: ['number', 'null'], description: "non-converters are observed this long from their first activity (the converters' median time to convert); null without converters" },
    candidates_tested: { ...count, description: 'candidates that met min_n; the q values adjust over all of them' },
    skewed: { type: 'boolean', description: 'converters and non-converters differ by more than 10 to 1' },
    warning: { type: 'string', description: 'these are associations, not causes' },
    candidates: {
      type: 'array',
      description: 'by lift (highest first; null last), ties by event name',
      items: out({
        event: { type: 'string' },
        actors: count,
        converted_did: count,
        converted_did_not: count,
        not_converted_did: count,
        not_converted_did_not: count,
        conversion_with: rate,
        conversion_without: rate,
        lift: { type: ['number', 'null'], description: 'P(convert | did) / P(convert)' },
        odds_ratio: { type: 'number', description: 'one added to each cell' },
        odds_ratio_low: { type: 'number', description: '95% interval' },
        odds_ratio_high: { type: 'number' },
        p_value: { type: 'number', description: 'two-sided, of the log odds ratio' },
        q_value: { type: 'number', description: 'Benjamini–Hochberg over every candidate tested' },
      }),
    },
  }),
  ActivationDriversResponse: out({
    ...rangeFields,
    anchor_event: { type: 'string' },
    outcome: ref('ActivationOutcome'),
    as_of: { type: 'string', format: 'date-time', description: 'the instant maturity was judged against, captured once when the request started' },
    windows_days: { type: 'array', items: count },
    thresholds: { type: 'array', items: count, description: 'k in "did it at least k times"' },
    anchored: { ...count, description: 'actors with an anchor in the range' },
    eligible: { ...count, description: 'anchored actors whose outcome window has closed by as_of' },
    immature: { ...count, description: 'anchored actors whose outcome window is still open: left out, not counted as lost' },
    retained: count,
    retention_rate: rate,
    split: out({ method: { type: 'string' }, discovery_share: { type: 'number' }, validation_share: { type: 'number' }, discovery_actors: count, validation_actors: count }),
    candidates_considered: count,
    warning: { type: 'string', description: 'these are associations, not causes' },
    drivers: {
      type: 'array',
      description: 'by validation phi (highest first, null last), ties by event name',
      items: out({
        event: { type: 'string' },
        window_days: count,
        threshold: count,
        discovery: out({ phi: { type: 'number' }, actors: count, support: count }),
        validation: out({
          phi: { type: ['number', 'null'] },
          phi_low: { type: ['number', 'null'], description: "95% interval by Fisher's z" },
          phi_high: { type: ['number', 'null'] },
          actors: count,
          support: count,
          retention_above: rate,
          retention_below: rate,
          lift: { type: ['number', 'null'] },
          ppv: rate,
          tpr: rate,
        }),
        validated: { type: 'boolean', description: 'the validation interval leaves out zero' },
        band: { enum: ['highly predictive', 'moderately predictive', 'slightly predictive', 'not predictive'] },
        direction: { enum: ['positive', 'negative', 'none'] },
      }),
    },
  }),
  PathGraph: out({
    units: { ...count, description: 'units (actors or sessions) whose route reached the anchor' },
    routes: {
      type: 'array',
      description: 'most frequent whole routes first, ties by their items; in time order',
      items: out({ items: { type: 'array', items: { type: 'string' } }, count, share: { ...rate, description: 'count / units' } }),
    },
    sankey: out({
      nodes: {
        type: 'array',
        description: 'by step; each step adds up to the units on their route one step nearer the anchor',
        items: out({ step: { type: 'integer', description: '0 is the anchor; negative before it' }, item: { type: 'string', description: 'an item, `$other` or `$end`' }, count }),
      },
      links: { type: 'array', description: 'forward in time', items: out({ source: count, target: count, value: count }) },
    }),
  }),
  PathResponse: {
    allOf: [ref('PathGraph')],
    properties: {
      ...rangeFields,
      direction: { enum: ['before', 'after'] },
      counted: { enum: ['actors', 'sessions'] },
      breakdown: {
        type: 'array',
        description: 'per value of the anchor event, in rank order, `$other` last',
        items: {
          allOf: [ref('PathGraph')],
          properties: { name: { type: 'string', description: 'the value, `$none` (absent) or `$other`' }, value: { type: ['string', 'null'] } },
          required: ['name', 'value'],
        },
      },
    },
    required: ['date_from', 'date_to', 'direction', 'counted'],
  },
  RevenueSummaryResponse: out({
    ...rangeFields,
    currency: { type: 'string', description: 'ISO 4217 code of the project currency (project settings), which every amount here is in' },
    revenue: { type: 'number', description: 'signed sum' },
    paying_actors: count,
    active_actors: count,
    arpu: { type: ['number', 'null'] },
    arppu: { type: ['number', 'null'] },
    refunds: { type: 'number', maximum: 0 },
    refund_count: count,
  }),
};
schemas.PathsActorsRequest = pathsActorsRequest();

export interface QueryOperationDoc {
  operationId: string;
  summary: string;
  description: string;
  request: string;
  response: string;
  /** Whether the operation can refuse with 403 (role or entitlement). */
  gated: boolean;
}

export function queryOperation(doc: QueryOperationDoc): Operation {
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags: ['queries'],
    security: [{ accessToken: [] }],
    parameters: [{ name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } }],
    requestBody: jsonBody(ref(doc.request)),
    responses: {
      '200': jsonResponse('the result', ref(doc.response)),
      ...errors(400, 401, ...(doc.gated ? [403] : []), 404, 408, 422, 429),
    },
  };
}

export function queriesFragment(paths: OpenApiFragment['paths']): OpenApiFragment {
  return { paths, schemas: { ...schemas, ...webSummarySchemas } };
}
