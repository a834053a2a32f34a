// Each insight page in chromium against the real server and the demo data generator's events in a
// project on New York time (the range crosses the end of daylight saving time), built as a person
// builds it: opened from the navigation, every event, step, breakdown, filter and date chosen with
// the controls (the mouse for some, the keyboard alone for others), never typed into the address.
// The numbers drawn must equal the API's answer to the query the page sent, asked again by the test,
// and that query must be the one the controls describe.

import t, { type Test } from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { loadDemoData } from '../../server/demo/loadDemoData.js';
import {
  addressBuilt,
  answeredQuery,
  askQuery,
  checkAccessible,
  checkClean,
  chooseWithKeyboard,
  openFromNavigation,
  recordQueries,
  signedInConsole,
  tabTo,
  daysBefore as daysBeforeDate,
} from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server: TestServer = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'America/New_York' });
await loadDemoData(server.running.services, project.id, owner.id, { visitors: 400 });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const sent = await recordQueries(page);

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
const daysBefore = (n: number) => daysBeforeDate(n, today);
const from = daysBefore(27);

const ask = (kind: string, body: unknown) => askQuery(server, token, project.id, kind, body);

/** A grouped value as the console words the server's markers. */
const inWords = (name: string) => (name === '$none' ? 'not set' : name === '$other' ? 'other values' : name);

const numberIn = (text: string | null): number => Number((text ?? '').replace(/[^\d.-]/g, ''));

async function columnOf(testId: string, column: number): Promise<number[]> {
  return page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows, c) => rows.map((r) => Number((r.children[c]!.textContent ?? '').replace(/[^\d.-]/g, ''))), column);
}

const stepsOf = (body: { steps: Array<{ event: string }> }) => body.steps.map((s) => s.event);
const stepSelect = (n: number) => page.getByLabel(`Step ${n}`, { exact: true });

/** The funnel's drawn step counts equal the API's answer to the body the page sent. */
async function checkFunnel(t: Test, body: any): Promise<any> {
  const expected = await ask('funnel', body);
  t.same(
    await columnOf('funnel-table', 1),
    expected.steps.map((s: { count: number }) => s.count),
    'people at each step',
  );
  return expected;
}

t.test('activity: the tiles and the 30-day trend', async (t) => {
  await openFromNavigation(page, 'Activity');
  await page.getByTestId('activity-tiles').waitFor();
  await page.getByText('Numbers of the chart').click();
  // The table is built once it is opened.
  await page.locator('.chart-data tbody tr').first().waitFor();
  const expected = await ask('activity-summary', { date_to: today, event: 'any' });
  for (const metric of ['dau', 'wau', 'mau']) {
    t.equal(numberIn(await page.locator(`[data-metric=${metric}] .tile-value`).textContent()), expected[metric], metric);
  }
  t.ok(expected.mau > 100, `the demo data gives the project activity (${expected.mau} monthly)`);
  const trend = await ask('segmentation', { event: 'any', metric: 'uniques', interval: 'day', date_from: daysBefore(29), date_to: today });
  const drawn = await page.locator('.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => [r.children[0]!.getAttribute('data-bucket'), Number(r.children[1]!.textContent)]));
  t.same(
    drawn,
    trend.series[0].points.map((p: { bucket: string; value: number }) => [p.bucket, p.value]),
    'every day of the trend',
  );
  await checkAccessible(t, page, 'activity');
});

t.test('funnel with the mouse: two steps, a third added, breakdown, compare, a filter and dates', async (t) => {
  await openFromNavigation(page, 'Funnels');
  await page.getByText('Choose at least two steps').waitFor();
  await stepSelect(1).selectOption('pp.page_view');
  await eventually(
    'step 1 in the URL',
    async () => page.url(),
    (u) => u.includes('steps=pp.page_view~'),
  );
  t.equal(await stepSelect(2).inputValue(), '', 'choosing step 1 keeps step 2, still to choose');
  await stepSelect(2).selectOption('pp.form_start');
  t.equal(await stepSelect(1).inputValue(), 'pp.page_view', 'choosing step 2 leaves step 1 where it was');
  await page.getByRole('button', { name: 'Add a step' }).click();
  t.equal(await stepSelect(3).inputValue(), '', 'a third step, still to choose');
  await page.getByText('Choose at least two steps').waitFor();
  await stepSelect(3).selectOption('signup');
  await page.getByRole('button', { name: 'Add a step' }).click();
  await stepSelect(4).selectOption('purchase');
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('Breakdown').selectOption('props.method');
  await page.getByLabel('Compare with the previous period').check();
  await page.getByRole('button', { name: 'Add a filter' }).click();
  t.same(
    await page.getByLabel('Filter 1 operator').locator('option').allTextContents(),
    ['is', 'is not', 'is one of', 'is none of', 'contains', 'does not contain', 'starts with', '>', '≥', '<', '≤', 'is set', 'is not set'],
    'operators read as words, not codes',
  );
  const fields = await page.getByLabel('Filter 1 field').evaluate((el) => [...el.children].map((c) => (c.tagName === 'OPTGROUP' ? `group:${(c as any).label}` : (c as any).value)));
  t.notOk(
    fields.some((f) => /^props\.(x|y|vw|vh|ox|oy|fixed)$/.test(f)),
    'the click geometry is not among the fields',
  );
  t.same(await page.getByLabel('Conversion window').locator('option').allTextContents(), ['1 hour', '1 day', '3 days', '7 days', '14 days', '30 days'], 'one day, not "1 days"');
  await page.getByLabel('Filter 1 operator').selectOption('starts_with');
  await page.getByLabel('Filter 1 value').fill('/pricing');
  await page.getByLabel('Filter 1 value').press('Enter');

  const want = {
    steps: [{ event: 'pp.page_view', filters: [{ field: 'path', op: 'starts_with', value: '/pricing' }] }, { event: 'pp.form_start' }, { event: 'signup' }, { event: 'purchase' }],
    date_from: from,
    date_to: today,
    breakdown: { property: 'props.method' },
    compare: { period: 'previous' },
  };
  const body = await answeredQuery(page, sent, 'funnel', (b) => stepsOf(b).length === 4 && b.steps[0].filters?.[0]?.value === '/pricing' && !!b.compare && !!b.breakdown && b.date_from === from);
  t.match(body, want, 'the query the controls describe');
  const expected = await checkFunnel(t, body);
  t.same(
    await columnOf('funnel-table', 6),
    expected.compare.steps.map((s: { count: number }) => s.count),
    'the previous period',
  );
  const rows = await page
    .getByTestId('funnel-breakdown')
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => c.textContent ?? '')));
  t.same(
    rows.map((r) => [r[0], ...r.slice(1, -1).map((v) => Number(v.replace(/,/g, '')))]),
    expected.breakdown.map((b: { name: string; steps: Array<{ count: number }> }) => [inWords(b.name), ...b.steps.map((s) => s.count)]),
    'each breakdown segment',
  );
  t.ok(expected.steps[2].count > 0, 'people signed up');
  t.ok(expected.steps[0].count < (await ask('funnel', { ...body, steps: stepsOf(body).map((event) => ({ event })) })).steps[0].count, 'the filter narrows step 1');
  await checkAccessible(t, page, 'funnel');

  await page.getByRole('button', { name: 'Remove step 2' }).click();
  const removed = await answeredQuery(page, sent, 'funnel', (b) => stepsOf(b).length === 3);
  t.same(stepsOf(removed), ['pp.page_view', 'signup', 'purchase'], 'the middle step removed, the others kept in order');
  await checkFunnel(t, removed);
  await page.getByRole('button', { name: 'Move step 3 up' }).click();
  const moved = await answeredQuery(page, sent, 'funnel', (b) => stepsOf(b)[1] === 'purchase');
  t.same(stepsOf(moved), ['pp.page_view', 'purchase', 'signup'], 'step 3 moved up');
  await checkFunnel(t, moved);
});

t.test('funnel with the keyboard alone: steps chosen by typing, a step added, a preset range', async (t) => {
  await page.getByRole('link', { name: 'pp home' }).click();
  await page.getByTestId('activity-tiles').waitFor();
  await tabTo(page, page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Funnels', exact: true }));
  await page.keyboard.press('Enter');
  await page.getByText('Choose at least two steps').waitFor();
  await chooseWithKeyboard(page, stepSelect(1), 'pp.page_view');
  await chooseWithKeyboard(page, stepSelect(2), 'signup');
  t.equal(await stepSelect(1).inputValue(), 'pp.page_view', 'step 1 kept');
  await tabTo(page, page.getByRole('button', { name: 'Add a step' }));
  await page.keyboard.press('Enter');
  await chooseWithKeyboard(page, stepSelect(3), 'report_viewed');
  await tabTo(page, page.getByRole('button', { name: '7 days' }));
  await page.keyboard.press('Enter');
  await chooseWithKeyboard(page, page.getByLabel('Count', { exact: true }), 'attempts');

  const body = await answeredQuery(page, sent, 'funnel', (b) => stepsOf(b).length === 3 && !!b.steps[2].event && b.date_from === daysBefore(6) && b.count_by === 'totals');
  t.same(stepsOf(body), ['pp.page_view', 'signup', 'report_viewed'], 'three steps, in the order chosen');
  t.match(body, { date_from: daysBefore(6), date_to: today, count_by: 'totals' });
  const expected = await checkFunnel(t, body);
  t.ok(expected.steps[1].count > 0, 'attempts reached signup in the week');
  await page.getByTestId('funnel-table').getByText('3. report_viewed').waitFor();
});

t.test('retention: the grid, cell by cell', async (t) => {
  await openFromNavigation(page, 'Retention');
  await page.getByText('Choose the event that starts a cohort').waitFor();
  await page.getByLabel('People who did').selectOption('signup');
  await chooseWithKeyboard(page, page.getByLabel('and came back to do'), 'report_viewed');
  const body = await answeredQuery(page, sent, 'retention', (b) => b.start_event === 'signup' && b.return_event === 'report_viewed');
  t.match(body, { start_event: 'signup', return_event: 'report_viewed', granularity: 'day', periods: 7, value: 'actors', date_from: daysBefore(13), date_to: today });
  await page.getByTestId('retention-grid').waitFor();
  const expected = await ask('retention', body);
  const drawn = await page
    .getByTestId('retention-grid')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => ({
        cohort: r.children[0]!.getAttribute('data-cohort'),
        size: Number(r.children[1]!.textContent!.replace(/,/g, '')),
        values: [...r.querySelectorAll('td.cell')].map((c) => (c.getAttribute('data-value') === '' ? null : Number(c.getAttribute('data-value')))),
      })),
    );
  t.same(
    drawn,
    expected.cohorts.map((c: { cohort: string; size: number; values: Array<number | null> }) => ({ cohort: c.cohort, size: c.size, values: c.values })),
  );
  t.ok(
    expected.cohorts.some((c: { size: number }) => c.size > 0),
    'cohorts with people',
  );
  await checkAccessible(t, page, 'retention');
});

t.test('segmentation: every bucket of every group', async (t) => {
  await openFromNavigation(page, 'Segmentation');
  await page.getByLabel('Event', { exact: true }).selectOption('pp.page_view');
  await page.getByLabel('Measure').selectOption('uniques');
  await chooseWithKeyboard(page, page.getByLabel('Group by'), 'path');
  // As a person does, the next control once the page shows the grouping chosen.
  await addressBuilt(page, 'grouped by path', (q) => q.get('group_by') === 'path');
  await page.getByLabel('From', { exact: true }).fill(from);
  const body = await answeredQuery(page, sent, 'segmentation', (b) => b.event === 'pp.page_view' && b.metric === 'uniques' && !!b.group_by && b.date_from === from);
  t.match(body, { event: 'pp.page_view', metric: 'uniques', interval: 'day', group_by: { property: 'path' }, date_from: from, date_to: today });
  await page.getByText('Numbers of the chart').click();
  // The table is built once it is opened.
  await page.locator('.chart-data tbody tr').first().waitFor();
  const expected = await ask('segmentation', body);
  const header = await page.locator('.chart-data thead th').allTextContents();
  t.same(
    header.slice(1),
    expected.series.map((s: { name: string }) => inWords(s.name)),
    'one series per group, the markers in words',
  );
  const drawn = await page.locator('.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent)))));
  const want = expected.series[0].points.map((_: unknown, i: number) => expected.series.map((s: { points: Array<{ value: number | null }> }) => s.points[i]!.value));
  t.same(drawn, want);
  await checkAccessible(t, page, 'segmentation');
});

t.test('a filter with a list operator, built with the keyboard, gives the API answer for that filter', async (t) => {
  await openFromNavigation(page, 'Segmentation');
  await chooseWithKeyboard(page, page.getByLabel('Event', { exact: true }), 'pp.page_view');
  await chooseWithKeyboard(page, page.getByLabel('Per', { exact: true }), 'week');
  await tabTo(page, page.getByRole('button', { name: 'Add a filter' }));
  await page.keyboard.press('Enter');
  await chooseWithKeyboard(page, page.getByLabel('Filter 1 operator'), 'is one of');
  await tabTo(page, page.getByLabel('Filter 1 value'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('/pricing,/signup');
  await page.keyboard.press('Enter');
  const body = await answeredQuery(page, sent, 'segmentation', (b) => b.interval === 'week' && b.filters?.[0]?.op === 'in' && b.filters[0].value.length === 2);
  t.match(body, { event: 'pp.page_view', metric: 'events', interval: 'week', filters: [{ field: 'path', op: 'in', value: ['/pricing', '/signup'] }] });
  const expected = await ask('segmentation', body);
  const total = expected.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0);
  t.ok(total > 0, `pricing and signup views (${total})`);
  t.equal(Number((await page.getByTestId('segmentation-table').locator('[data-col=total]').textContent())!.replace(/,/g, '')), total);
});

t.test('lifecycle: new, returning, resurrecting and dormant per week', async (t) => {
  await openFromNavigation(page, 'Lifecycle');
  await chooseWithKeyboard(page, page.getByLabel('Per', { exact: true }), 'week');
  await page.getByLabel('From', { exact: true }).fill(from);
  const body = await answeredQuery(page, sent, 'lifecycle', (b) => b.interval === 'week' && b.date_from === from);
  await page.getByTestId('lifecycle-table').waitFor();
  const expected = await ask('lifecycle', body);
  for (const [i, key] of ['new', 'returning', 'resurrecting', 'dormant'].entries()) {
    t.same(
      await columnOf('lifecycle-table', i + 1),
      expected.buckets.map((b: Record<string, number>) => b[key]),
      key,
    );
  }
  await checkAccessible(t, page, 'lifecycle');
});

t.test('stickiness: people by active days', async (t) => {
  await openFromNavigation(page, 'Stickiness');
  await page.getByLabel('Event', { exact: true }).selectOption('report_viewed');
  await page.getByRole('button', { name: '90 days' }).click();
  const body = await answeredQuery(page, sent, 'stickiness', (b) => b.event === 'report_viewed' && b.date_from === daysBefore(89));
  await page.getByTestId('stickiness-table').waitFor();
  const expected = await ask('stickiness', body);
  t.same(
    await columnOf('stickiness-table', 1),
    expected.distribution.map((d: { actors: number }) => d.actors),
  );
  t.ok(
    expected.distribution.some((d: { actors: number }) => d.actors > 0),
    'people came back on several days',
  );
  await checkAccessible(t, page, 'stickiness');
});

t.test('revenue: the summary tiles', async (t) => {
  await openFromNavigation(page, 'Revenue');
  await page.getByLabel('From', { exact: true }).fill(from);
  const body = await answeredQuery(page, sent, 'revenue-summary', (b) => b.date_from === from);
  await page.getByTestId('revenue-tiles').waitFor();
  const expected = await ask('revenue-summary', body);
  t.ok(expected.revenue > 0, 'the demo data has purchases');
  t.equal(numberIn(await page.locator('[data-metric=revenue] .tile-value').textContent()), expected.revenue, 'revenue');
  t.equal(numberIn(await page.locator('[data-metric=paying_actors] .tile-value').textContent()), expected.paying_actors, 'paying people');
  t.equal(numberIn(await page.locator('[data-metric=active_actors] .tile-value').textContent()), expected.active_actors, 'active people');
  await checkAccessible(t, page, 'revenue');
});

t.test('a locked feature explains itself; nothing went wrong in the page', async (t) => {
  await openFromNavigation(page, 'Funnels');
  await stepSelect(1).selectOption('pp.page_view');
  await stepSelect(2).selectOption('signup');
  await page.getByTestId('funnel-table').waitFor();
  t.match(await page.locator('.gated[data-feature=actor_drilldown]').textContent(), /People drill-down needs a license/);
  checkClean(t, tab);
});
