// Refusals of the query routes, in the order a caller meets them: 401, 422 (schema, then semantic
// checks, before any entitlement), 403 entitlement, 404, then success for every role.

import t from 'tap';
import fc from 'fast-check';
import { queryHarness } from './harness.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';

const h = await queryHarness(t);
const project = h.project('Europe/London');

const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ event: `e${i}` }));
const funnel = { date_from: '2026-03-01', date_to: '2026-03-10', steps: steps(2) };
const range = { date_from: '2026-03-01', date_to: '2026-03-10' };
const retentionActors = { start_event: 'signup', return_event: 'any', granularity: 'week', periods: 3, ...range, cohort: '2026-02-23', period: 0 };
const paths = { ...range, selected_event: 'signup', direction: 'after', depth: 3, mode: 'actor' };
const tooMany = Array.from({ length: 21 }, () => ({ field: 'props.plan', op: 'exists' }));
const bulky = [{ field: 'props.note', op: 'eq', value: 'x'.repeat(8200) }];
const bulkyBytes = Buffer.byteLength(JSON.stringify(bulky));
const FIELD_PATTERN = '^(url|path|referrer|source|sdk_name|release|props\\.[^*]{1,200})$';

/** Every path with one valid body, to check the route-independent refusals on each. */
const VALID: Array<[string, object]> = [
  ['funnel', funnel],
  ['retention', { start_event: 'signup', ...range }],
  ['retention/actors', retentionActors],
  ['segmentation', { metric: 'events', event: 'any', ...range }],
  ['lifecycle', range],
  ['stickiness', range],
  ['activity-summary', { date_to: '2026-03-10' }],
  ['revenue-summary', range],
  ['paths', paths],
  ['paths/actors', { ...paths, step: 0, item: 'signup' }],
  ['correlations', { ...range, target_event: 'purchase' }],
  ['activation-drivers', { ...range, anchor_event: 'signup', outcome: { event: 'report', from_day: 7, to_day: 14 } }],
];

const CASES: Array<[string, string, object, string]> = [
  // [label, path, body, exact message]
  ['no steps', 'funnel', { ...range }, 'invalid request body: steps is required'],
  ['one step', 'funnel', { ...funnel, steps: steps(1) }, 'invalid request body: steps must NOT have fewer than 2 items'],
  ['21 steps', 'funnel', { ...funnel, steps: steps(21) }, 'invalid request body: steps must NOT have more than 20 items'],
  ['reversed range', 'funnel', { ...funnel, date_from: '2026-03-10', date_to: '2026-03-01' }, 'date_from 2026-03-10 is after date_to 2026-03-01'],
  ['401 days', 'funnel', { ...funnel, date_from: '2025-01-01', date_to: '2026-02-05' }, 'the range 2025-01-01..2026-02-05 spans 401 days; at most 400 are allowed'],
  ['half a range', 'funnel', { steps: steps(2), date_from: '2026-03-01' }, 'date_from and date_to go together; date_to is missing'],
  ['impossible date', 'funnel', { ...funnel, date_to: '2026-02-30' }, 'invalid request body: date_to must match format "date"'],
  ['unknown count_by', 'funnel', { ...funnel, count_by: 'people' }, 'invalid request body: count_by must be one of "actors", "totals"'],
  ['unknown field', 'funnel', { ...funnel, colour: 'red' }, 'invalid request body: colour is not a known field'],
  ['dropped_at_step 0', 'funnel', { ...funnel, dropped_at_step: 0 }, 'dropped_at_step 0 must be between 1 and 1 (a step that has a next step)'],
  ['dropped_at_step = steps', 'funnel', { ...funnel, dropped_at_step: 2 }, 'dropped_at_step 2 must be between 1 and 1 (a step that has a next step)'],
  ['dropped with totals', 'funnel', { ...funnel, count_by: 'totals', dropped_at_step: 1 }, 'dropped_at_step needs count_by=actors, got count_by=totals'],
  ['revenue with totals', 'funnel', { ...funnel, count_by: 'totals', value: 'revenue' }, 'value=revenue needs count_by=actors, got count_by=totals'],
  ['cursor without step', 'funnel', { ...funnel, dropped_cursor: 'c1.x.y' }, 'dropped_cursor needs dropped_at_step'],
  ['21 step filters', 'funnel', { ...funnel, steps: [{ event: 'a', filters: tooMany }, { event: 'b' }] }, 'invalid request body: steps[0].filters must NOT have more than 20 items'],
  ['bulky step filters', 'funnel', { ...funnel, steps: [{ event: 'a', filters: bulky }, { event: 'b' }] }, `steps[0].filters takes ${bulkyBytes} bytes; at most 8192 are allowed`],
  ['both compare forms', 'funnel', { ...funnel, compare: { period: 'previous', ...range } }, 'compare takes either period or date_from/date_to, not both'],
  ['empty compare', 'funnel', { ...funnel, compare: {} }, 'compare needs period "previous" or date_from and date_to'],
  ['long compare', 'funnel', { ...funnel, compare: { date_from: '2024-01-01', date_to: '2026-01-01' } }, 'the range 2024-01-01..2026-01-01 spans 732 days; at most 400 are allowed'],
  ['unknown granularity', 'retention', { start_event: 'signup', granularity: 'month' }, 'invalid request body: granularity must be one of "day", "week"'],
  ['no arppu', 'retention', { start_event: 'signup', value: 'arppu' }, 'invalid request body: value must be one of "actors", "revenue", "paid_conversion"'],
  ['zero periods', 'retention', { start_event: 'signup', periods: 0 }, 'invalid request body: periods must be >= 1'],
  ['no cohort', 'retention/actors', { ...retentionActors, cohort: undefined }, 'invalid request body: cohort is required'],
  ['paths without mode', 'paths', { ...paths, mode: undefined }, 'invalid request body: mode is required'],
  ['paths depth 21', 'paths', { ...paths, depth: 21 }, 'invalid request body: depth must be <= 20'],
  ['start_event after', 'paths', { ...paths, start_event: 'a' }, 'start_event begins routes that lead to the selected event: it needs direction=before (use end_event with after)'],
  ['end_event before', 'paths', { ...paths, direction: 'before', end_event: 'a' }, 'end_event ends routes that leave the selected event: it needs direction=after (use start_event with before)'],
  ['selected excluded', 'paths', { ...paths, exclude_events: ['signup'] }, 'selected_event "signup" is also in exclude_events'],
  ['period past periods', 'retention/actors', { ...retentionActors, period: 4 }, 'period 4 is past periods 3'],
  [
    'cohort outside range',
    'retention/actors',
    { ...retentionActors, cohort: '2026-03-16' },
    'cohort 2026-03-16 is not a week cohort of 2026-03-01..2026-03-10 (week cohorts are labelled by their Monday)',
  ],
  ['no metric', 'segmentation', { event: 'any' }, 'invalid request body: metric is required'],
  ['unknown interval', 'segmentation', { metric: 'events', event: 'any', interval: 'year' }, 'invalid request body: interval must be one of "hour", "day", "week", "month"'],
  ['21 filters', 'segmentation', { metric: 'events', event: 'any', filters: tooMany }, 'invalid request body: filters must NOT have more than 20 items'],
  ['bulky filters', 'segmentation', { metric: 'events', event: 'any', filters: bulky }, `filters takes ${bulkyBytes} bytes; at most 8192 are allowed`],
  [
    'unknown filter field',
    'segmentation',
    { metric: 'events', event: 'any', filters: [{ field: 'colour', op: 'eq', value: 'red' }] },
    `invalid request body: filters[0].field must match pattern "${FIELD_PATTERN}"`,
  ],
  [
    'unknown operator',
    'segmentation',
    { metric: 'events', event: 'any', filters: [{ field: 'url', op: 'like', value: 'x' }] },
    `invalid request body: filters[0].op must be one of ${['eq', 'neq', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists'].map((o) => `"${o}"`).join(', ')}`,
  ],
  ['bad segment reference', 'segmentation', { metric: 'events', event: 'any', filters: ['segment:abc'] }, 'invalid request body: filters[0] must match pattern "^segment:[1-9][0-9]{0,15}$"'],
  [
    'numeric op on a column',
    'segmentation',
    { metric: 'events', event: 'any', filters: [{ field: 'url', op: 'gt', value: 3 }] },
    'filters[0]: op gt compares numbers and applies only to props.<key> fields, not url',
  ],
  ['eq without value', 'segmentation', { metric: 'events', event: 'any', filters: [{ field: 'url', op: 'eq' }] }, 'filters[0]: op eq needs a string, number or boolean value, got null'],
  [
    'in with a scalar',
    'segmentation',
    { metric: 'events', event: 'any', filters: [{ field: 'url', op: 'in', value: 'x' }] },
    'filters[0]: op in needs a non-empty array of strings, numbers or booleans, got "x"',
  ],
  ['exists with a value', 'segmentation', { metric: 'events', event: 'any', filters: [{ field: 'url', op: 'exists', value: 1 }] }, 'filters[0]: op exists needs no value, got 1'],
  ['gt with a string', 'segmentation', { metric: 'events', event: 'any', filters: [{ field: 'props.n', op: 'gt', value: '3' }] }, 'filters[0]: op gt needs a number value, got "3"'],
  ['unknown lifecycle interval', 'lifecycle', { ...range, interval: 'month' }, 'invalid request body: interval must be one of "day", "week"'],
  ['stickiness without date_to', 'stickiness', { date_from: '2026-03-01' }, 'invalid request body: date_to is required'],
  ['stickiness over 400 days', 'stickiness', { date_from: '2025-01-01', date_to: '2026-06-01' }, 'the range 2025-01-01..2026-06-01 spans 517 days; at most 400 are allowed'],
  ['activity summary without date', 'activity-summary', {}, 'invalid request body: date_to is required'],
  ['activity summary in year 9999', 'activity-summary', { date_to: '9999-12-31' }, 'date_to 9999-12-31 is outside 1970-01-01..2999-12-31'],
  ['range in year 1900', 'lifecycle', { date_from: '1900-01-01', date_to: '1900-01-02' }, 'date_from 1900-01-01 is outside 1970-01-01..2999-12-31'],
  [
    'compare in year 9999',
    'segmentation',
    { metric: 'events', event: 'any', compare: { date_from: '9999-01-01', date_to: '9999-01-02' } },
    'compare.date_from 9999-01-01 is outside 1970-01-01..2999-12-31',
  ],
  ['revenue summary reversed', 'revenue-summary', { date_from: '2026-03-02', date_to: '2026-03-01' }, 'date_from 2026-03-02 is after date_to 2026-03-01'],
];

t.test('401 without a valid token, on every query', async (t) => {
  for (const [path, body] of VALID) {
    const res = await h.server.request('POST', `/api/v1/projects/${project}/queries/${path}`, { body });
    t.equal(res.status, 401, path);
    t.equal(res.body.error.code, 'unauthorized', path);
  }
});

t.test('422 validation_failed with the exact message', async (t) => {
  for (const [label, path, body, message] of CASES) {
    const res = await h.query(project, path, body);
    t.equal(res.status, 422, label);
    t.equal(res.body.error?.code, 'validation_failed', label);
    t.equal(res.body.error?.message, message, label);
  }
});

// Until a later test applies one, this server has no license: no entitlements.
t.test('validation comes before entitlement checks', async (t) => {
  const res = await h.query(project, 'funnel', { ...funnel, dropped_at_step: 1, count_by: 'totals' });
  t.equal(res.status, 422);
  const actors = await h.query(project, 'retention/actors', { ...retentionActors, period: 9 });
  t.equal(actors.status, 422);
});

t.test('403 entitlement_required for plan-gated parameters', async (t) => {
  for (const [path, body, entitlement] of [
    ['funnel', { ...funnel, dropped_at_step: 1 }, 'actor_drilldown'],
    ['retention/actors', retentionActors, 'actor_drilldown'],
    ['segmentation', { metric: 'events', event: 'any', filters: ['segment:1'] }, 'saved_segments'],
    ['funnel', { ...funnel, steps: [{ event: 'a', filters: ['segment:1'] }, { event: 'b' }] }, 'saved_segments'],
    ['paths', { ...paths, mode: 'session' }, 'actor_drilldown'],
    ['paths/actors', { ...paths, step: 0, item: 'signup' }, 'actor_drilldown'],
    ['paths', { ...paths, filters: ['segment:1'] }, 'saved_segments'],
  ] as const) {
    const res = await h.query(project, path, body);
    t.equal(res.status, 403, path);
    t.equal(res.body.error.code, 'entitlement_required', path);
    t.same(res.body.error.details, { entitlement }, path);
  }
  // With the entitlement, a segment the project does not have is a bad filter value.
  await grantEntitlements(h.server, ['saved_segments']);
  const unknown = await h.query(project, 'lifecycle', { ...range, filters: ['segment:999'] });
  t.equal(unknown.status, 422);
  t.equal(unknown.body.error.message, 'filters name segment:999, which does not exist in this project');
});

t.test("404 for another organization's project or none", async (t) => {
  const other = await createTenant(h.server);
  for (const [path, body] of VALID) {
    const res = await h.query(other.project.id, path, body);
    t.equal(res.status, 404, path);
    t.equal(res.body.error.code, 'not_found', path);
  }
  const missing = await h.query(2147483000, 'stickiness', range);
  t.equal(missing.status, 404);
  const badId = await h.server.request('POST', '/api/v1/projects/abc/queries/stickiness', { body: range, token: h.token });
  t.equal(badId.status, 400);
});

t.test('every member role may query', async (t) => {
  await grantEntitlements(h.server, ['actor_drilldown', 'saved_segments']);
  const viewer = await addMember(h.server, h.tenant.org, 'viewer');
  const token = await accessTokenFor(h.server, viewer, h.tenant.org);
  for (const [path, body] of VALID) {
    const res = await h.query(project, path, body, token);
    t.equal(res.status, 200, path);
  }
});

t.test('arbitrary bodies never give a 500', async (t) => {
  const date = fc.oneof(
    fc.integer({ min: 0, max: 40_000 }).map((d) => new Date(Date.UTC(1900, 0, 1) + d * 86_400_000).toISOString().slice(0, 10)),
    fc.constantFrom('2026-02-29', '2026-13-01', '', 'yesterday'),
  );
  const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('any', 'props.plan', 'props.*', 'segment:1', 'url'));
  const scalar = fc.oneof(text, fc.double({ noNaN: true }), fc.integer(), fc.boolean(), fc.constant(null));
  const filter = fc.record(
    { field: text, op: fc.constantFrom('eq', 'neq', 'in', 'gt', 'exists', 'contains', 'nope'), value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })) },
    { requiredKeys: ['field', 'op'] },
  );
  const body = fc.record(
    {
      date_from: date,
      date_to: date,
      event: text,
      start_event: text,
      return_event: text,
      metric: fc.constantFrom('events', 'uniques', 'revenue', 'revenue_avg', 'x'),
      interval: fc.constantFrom('hour', 'day', 'week', 'month', 'year'),
      granularity: fc.constantFrom('day', 'week', 'x'),
      periods: fc.integer({ min: -2, max: 500 }),
      period: fc.integer({ min: -1, max: 10 }),
      cohort: date,
      window_hours: fc.integer({ min: -1, max: 10_000 }),
      count_by: fc.constantFrom('actors', 'totals'),
      value: fc.constantFrom('actors', 'revenue', 'paid_conversion'),
      dropped_at_step: fc.integer({ min: -1, max: 4 }),
      limit: fc.integer({ min: -1, max: 2000 }),
      steps: fc.array(fc.record({ event: text, filters: fc.array(fc.oneof(filter, text), { maxLength: 2 }) }, { requiredKeys: ['event'] }), { maxLength: 4 }),
      filters: fc.array(fc.oneof(filter, text), { maxLength: 3 }),
      group_by: fc.record({ property: text, limit: fc.integer({ min: 0, max: 60 }) }),
      breakdown: fc.record({ property: text }),
      compare: fc.oneof(fc.record({ period: fc.constant('previous') }), fc.record({ date_from: date, date_to: date })),
      cursor: text,
      dropped_cursor: text,
      selected_event: text,
      end_event: text,
      direction: fc.constantFrom('before', 'after', 'x'),
      depth: fc.integer({ min: -1, max: 25 }),
      mode: fc.constantFrom('actor', 'session', 'x'),
      min_count: fc.integer({ min: -1, max: 5 }),
      top_n: fc.integer({ min: 0, max: 120 }),
      exclude_events: fc.array(text, { maxLength: 3 }),
      target_event: text,
      min_n: fc.integer({ min: -1, max: 10 }),
      exclude_managed: fc.oneof(fc.boolean(), text),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...VALID.map(([path]) => path)), body, async (path, b) => {
      const res = await h.query(project, path, b);
      if (![200, 403, 422].includes(res.status)) throw new Error(`${path} ${JSON.stringify(b)}: ${res.status} ${res.text}`);
    }),
    { numRuns: 150 },
  );
  t.pass('only 200, 403 and 422');
});
