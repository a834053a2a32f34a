// The insight kinds' URL ⇄ request codecs, without a browser: each page's URL gives the body the
// page asks, that body (as saved) gives the URL back, and the registry names every query route the
// server answers, each kind with its codec, page and view.

import t, { type Test } from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { INSIGHT_KINDS, insightPageUrl, kindLabel, kindOf } from '../../console/src/queries/kinds.js';
import type { UrlParams } from '../../console/src/queries/codec.js';
import { QUERIES } from '../../server/queries/index.js';
import { packageRoot } from '../../server/ground/packageRoot.js';

const TODAY = '2026-03-31';
const codecOf = (kind: string) => kindOf(kind)!.codec;

/** The URL → body → URL round trip of a URL that names every value the body keeps. */
function roundTrip(t: Test, kind: string, params: Record<string, string>, body: object) {
  const codec = codecOf(kind);
  const asked = codec.toRequest(params, TODAY);
  t.strictSame(asked, body, `${kind}: ${JSON.stringify(params)} asks the body`);
  const range = params.range;
  t.strictSame(codec.toUrl(asked, range), params, `${kind}: and the body gives the URL back`);
  // Whatever the URL left to its defaults, its body is stable from then on.
  t.strictSame(codec.toRequest(codec.toUrl(asked, range), TODAY), asked, `${kind}: the body's URL asks the same body`);
}

/** A URL with only some values: the body fills the defaults in, and its own URL asks it again. */
function stable(t: Test, kind: string, params: UrlParams): Record<string, any> {
  const codec = codecOf(kind);
  const asked = codec.toRequest(params, TODAY);
  t.strictSame(codec.toRequest(codec.toUrl(asked, params.range), TODAY), asked, `${kind}: ${JSON.stringify(params)} is stable`);
  return asked;
}

const FIXED = { from: '2026-03-01', to: '2026-03-15' };
const FIXED_BODY = { date_from: '2026-03-01', date_to: '2026-03-15' };

t.test('funnel: steps with empty slots, filters on step 1, breakdown, compare, revenue', async (t) => {
  roundTrip(
    t,
    'funnel',
    { steps: 'pp.page_view~signup~purchase', ...FIXED, window: '168', count_by: 'actors', breakdown: 'props.plan', compare: 'previous', value: 'revenue', filter: 'props.country|eq|FR~segment:3' },
    {
      steps: [{ event: 'pp.page_view', filters: [{ field: 'props.country', op: 'eq', value: 'FR' }, 'segment:3'] }, { event: 'signup' }, { event: 'purchase' }],
      ...FIXED_BODY,
      window_hours: 168,
      count_by: 'actors',
      breakdown: { property: 'props.plan' },
      compare: { period: 'previous' },
      value: 'revenue',
    },
  );
  // Unpicked steps are empty items: kept, in place.
  roundTrip(
    t,
    'funnel',
    { steps: '~signup~', range: 'last_7_days', window: '336', count_by: 'totals' },
    {
      steps: [{ event: '' }, { event: 'signup' }, { event: '' }],
      date_from: '2026-03-25',
      date_to: '2026-03-31',
      window_hours: 336,
      count_by: 'totals',
    },
  );
  roundTrip(
    t,
    'funnel',
    { steps: '', range: 'last_30_days', window: '336', count_by: 'actors' },
    { steps: [{ event: '' }], date_from: '2026-03-02', date_to: TODAY, window_hours: 336, count_by: 'actors' },
  );
  // Items holding the list's separator or escape survive.
  const escaped = stable(t, 'funnel', { steps: 'a!~b~c!!' });
  t.strictSame(escaped.steps, [{ event: 'a~b' }, { event: 'c!' }]);
  // Revenue is of people only: counted in attempts it is not asked.
  t.notOk('value' in codecOf('funnel').toRequest({ steps: 'a~b', count_by: 'totals', value: 'revenue' }, TODAY), 'no revenue of attempts');
  // With no dates, the last 30 days.
  t.match(codecOf('funnel').toRequest({ steps: 'a~b' }, TODAY), { date_from: '2026-03-02', date_to: TODAY, window_hours: 336, count_by: 'actors' });
});

t.test('retention: events, periods by granularity, value, compare, filters', async (t) => {
  roundTrip(
    t,
    'retention',
    { start: 'signup', return: 'report_viewed', ...FIXED, granularity: 'week', periods: '6', value: 'paid_conversion', compare: 'previous', filter: 'props.plan|in|pro,team' },
    {
      start_event: 'signup',
      return_event: 'report_viewed',
      granularity: 'week',
      periods: 6,
      value: 'paid_conversion',
      ...FIXED_BODY,
      filters: [{ field: 'props.plan', op: 'in', value: ['pro', 'team'] }],
      compare: { period: 'previous' },
    },
  );
  // 14 days and a week of periods unless named; 4 periods by the week.
  t.match(stable(t, 'retention', { start: 'signup' }), { return_event: 'any', granularity: 'day', periods: 7, value: 'actors', date_from: '2026-03-18', date_to: TODAY });
  t.match(stable(t, 'retention', { start: 'signup', granularity: 'week', range: 'this_month' }), { periods: 4, date_from: '2026-03-01', date_to: TODAY });
});

t.test('segmentation: event, metric, interval, group by, compare, filters', async (t) => {
  roundTrip(
    t,
    'segmentation',
    { event: 'pp.page_view', metric: 'uniques', interval: 'week', ...FIXED, group_by: 'props.path', compare: 'previous', filter: 'props.n|gt|5~props.ref|not_exists' },
    {
      event: 'pp.page_view',
      metric: 'uniques',
      interval: 'week',
      ...FIXED_BODY,
      group_by: { property: 'props.path' },
      compare: { period: 'previous' },
      filters: [
        { field: 'props.n', op: 'gt', value: 5 },
        { field: 'props.ref', op: 'not_exists' },
      ],
    },
  );
  roundTrip(
    t,
    'segmentation',
    { event: 'any', metric: 'events', interval: 'day', range: 'yesterday' },
    { event: 'any', metric: 'events', interval: 'day', date_from: '2026-03-30', date_to: '2026-03-30' },
  );
  // The chart kind is the page's own: no body has it, no saved link carries it.
  t.strictSame(codecOf('segmentation').toRequest({ chart: 'bar' }, TODAY), codecOf('segmentation').toRequest({}, TODAY));
});

t.test('lifecycle, stickiness and revenue: dates, interval, event and filters', async (t) => {
  roundTrip(t, 'lifecycle', { ...FIXED, interval: 'week', filter: 'props.plan|eq|pro' }, { ...FIXED_BODY, interval: 'week', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] });
  roundTrip(t, 'lifecycle', { range: 'last_4_weeks', interval: 'day' }, { date_from: '2026-03-04', date_to: TODAY, interval: 'day' });
  roundTrip(t, 'stickiness', { event: 'report_viewed', ...FIXED, filter: 'segment:12' }, { event: 'report_viewed', ...FIXED_BODY, filters: ['segment:12'] });
  t.match(stable(t, 'stickiness', {}), { event: 'any', date_from: '2026-03-02' });
  roundTrip(t, 'revenue-summary', { ...FIXED, filter: 'props.country|neq|US' }, { ...FIXED_BODY, filters: [{ field: 'props.country', op: 'neq', value: 'US' }] });
  roundTrip(t, 'revenue-summary', { range: 'since_2026-01-01' }, { date_from: '2026-01-01', date_to: TODAY });
});

t.test('paths: direction with its start or end, numbers, excluded events with empty items, breakdown', async (t) => {
  roundTrip(
    t,
    'paths',
    {
      event: '/pricing',
      direction: 'after',
      depth: '4',
      mode: 'session',
      end: 'signup',
      min_count: '3',
      top_n: '10',
      exclude: 'pp.scroll_depth~~pp.click',
      breakdown: 'props.utm_source',
      ...FIXED,
      filter: 'props.path|starts_with|/docs',
    },
    {
      ...FIXED_BODY,
      selected_event: '/pricing',
      direction: 'after',
      depth: 4,
      mode: 'session',
      min_count: 3,
      top_n: 10,
      end_event: 'signup',
      exclude_events: ['pp.scroll_depth', '', 'pp.click'],
      filters: [{ field: 'props.path', op: 'starts_with', value: '/docs' }],
      breakdown: { property: 'props.utm_source', limit: 5 },
    },
  );
  roundTrip(
    t,
    'paths',
    { event: 'signup', direction: 'before', depth: '5', start: '/home', min_count: '1', top_n: '20', range: 'last_30_days' },
    {
      date_from: '2026-03-02',
      date_to: TODAY,
      selected_event: 'signup',
      direction: 'before',
      depth: 5,
      mode: 'actor',
      min_count: 1,
      top_n: 20,
      start_event: '/home',
    },
  );
  // A start before the anchor means nothing after it: the body leaves it out.
  t.notOk('start_event' in codecOf('paths').toRequest({ direction: 'after', start: '/home' }, TODAY), 'no start when routes go after');
  t.match(stable(t, 'paths', {}), { selected_event: 'pp.page_view', direction: 'after', depth: 5, mode: 'actor', min_count: 1, top_n: 20 });
});

t.test('correlations and activation drivers', async (t) => {
  roundTrip(
    t,
    'correlations',
    { target: 'purchase', ...FIXED, min_n: '10', managed: 'include', filter: 'props.plan|eq|pro' },
    {
      target_event: 'purchase',
      ...FIXED_BODY,
      min_n: 10,
      exclude_managed: false,
      filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }],
    },
  );
  roundTrip(t, 'correlations', { target: 'purchase', range: 'last_7_days', min_n: '5' }, { target_event: 'purchase', date_from: '2026-03-25', date_to: TODAY, min_n: 5, exclude_managed: true });
  roundTrip(
    t,
    'activation-drivers',
    { anchor: 'signup', outcome: 'report_viewed', from_day: '14', to_day: '42', ...FIXED, filter: 'segment:2' },
    {
      ...FIXED_BODY,
      anchor_event: 'signup',
      outcome: { event: 'report_viewed', from_day: 14, to_day: 42 },
      filters: ['segment:2'],
    },
  );
  // 60 days unless dated.
  t.match(stable(t, 'activation-drivers', { anchor: 'signup', outcome: 'x' }), { date_from: '2026-01-31', date_to: TODAY, outcome: { from_day: 7, to_day: 28 } });
});

t.test('activity: one day, today unless named; a rolling range stands for it', async (t) => {
  roundTrip(t, 'activity-summary', { date: '2026-03-10', event: 'report_viewed' }, { date_to: '2026-03-10', event: 'report_viewed' });
  t.strictSame(codecOf('activity-summary').toRequest({}, TODAY), { date_to: TODAY, event: 'any' });
  t.strictSame(codecOf('activity-summary').toUrl({ date_to: '2026-03-10', event: 'any' }, 'today'), { event: 'any', range: 'today' });
});

t.test("a saved insight's page link: its kind's path, its URL, `range` for its rolling dates, `saved`", async (t) => {
  const funnel = { steps: [{ event: 'pp.page_view' }, { event: 'beta~invite!' }], date_from: '2026-03-01', date_to: '2026-03-15', window_hours: 168, count_by: 'actors' };
  t.equal(insightPageUrl(7, 'funnel', funnel, 3), '/projects/7/insights/funnel?steps=pp.page_view~beta!~invite!!&from=2026-03-01&to=2026-03-15&window=168&count_by=actors&saved=3');
  t.equal(insightPageUrl(7, 'funnel', funnel, 3, 'last_7_days'), '/projects/7/insights/funnel?steps=pp.page_view~beta!~invite!!&window=168&count_by=actors&range=last_7_days&saved=3');
  t.equal(insightPageUrl(7, 'activity-summary', { date_to: '2026-03-10', event: 'any' }), '/projects/7?date=2026-03-10&event=any');
  t.equal(insightPageUrl(7, 'activity-summary', { date_to: '2026-03-10', event: 'any' }, 1, 'today'), '/projects/7?event=any&range=today&saved=1');
  t.equal(insightPageUrl(7, 'segmentation', { event: 'a b', filters: [{ field: 'props.q', op: 'eq', value: 'x&y' }] }), '/projects/7/insights/segmentation?event=a%20b&filter=props.q%7Ceq%7Cx%26y');
  t.equal(insightPageUrl(7, 'no-such-kind', {}), undefined, 'an unknown kind has no page');
  t.equal(kindLabel('revenue-summary'), 'Revenue');
  t.equal(kindLabel('no-such-kind'), 'no-such-kind');
});

t.test('the registry names every query route the server answers, each kind with its codec, page and view', async (t) => {
  const served = QUERIES.map((q) => q.path);
  const kinds = INSIGHT_KINDS.map((k) => k.kind as string);
  // A route below another (retention/actors) is asked by its kind's page, not a kind of its own.
  const ownKinds = served.filter((p) => !p.includes('/'));
  t.strictSame([...kinds].sort(), [...ownKinds].sort(), 'one kind per query route');
  for (const sub of served.filter((p) => p.includes('/'))) t.ok(kinds.includes(sub.split('/')[0]!), `${sub} belongs to a kind`);
  t.equal(new Set(INSIGHT_KINDS.map((k) => k.path)).size, INSIGHT_KINDS.length, 'each kind on its own page');

  const queries = path.join(packageRoot(), 'console', 'src', 'queries');
  for (const k of INSIGHT_KINDS) {
    t.type(k.codec.toRequest, 'function', `${k.kind} has a codec`);
    t.type(k.codec.toUrl, 'function');
    t.ok(k.label && k.navLabel, `${k.kind} has its labels`);
  }
  // Each kind's codec comes from its folder, which holds its page and its view, both loaded by the registry.
  const kindsSource = readFileSync(path.join(queries, 'kinds.ts'), 'utf8');
  const registry = readFileSync(path.join(queries, 'registry.tsx'), 'utf8');
  // A folder beside the queries (`./funnel`) or a domain's own (`../web`), named relative to them.
  const codecFolders = [...kindsSource.matchAll(/from '(\.\.?\/[A-Za-z]+)\/codec\.js'/g)].map((m) => m[1]!);
  const loaded = [...registry.matchAll(/import\('(\.\.?\/[A-Za-z]+)\/(Page|View)'\)/g)].map((m) => `${m[1]}/${m[2]}`);
  t.equal(new Set(codecFolders).size, INSIGHT_KINDS.length, 'a folder per kind');
  for (const folder of codecFolders) {
    for (const part of ['Page', 'View']) {
      t.ok(existsSync(path.join(queries, folder, `${part}.tsx`)), `${folder}/${part}.tsx exists`);
      t.ok(loaded.includes(`${folder}/${part}`), `the registry loads ${folder}/${part}`);
    }
  }
});
