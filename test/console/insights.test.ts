// Each insight page in chromium against the real server and the demo data generator's events in a
// project on New York time (the range crosses the end of daylight saving time): the numbers drawn
// must equal the API's answer to the same question, asked independently by the test, and the
// parameters live in the URL.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { loadDemoData } from '../../server/demo/loadDemoData.js';
import { askQuery, checkAccessible, checkClean, signedInConsole, daysBefore as daysBeforeDate } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server: TestServer = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'America/New_York' });
await loadDemoData(server.running.services, server.url, project.id, owner.id, { visitors: 400 });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
const daysBefore = (n: number) => daysBeforeDate(n, today);
const from = daysBefore(27);
const base = `/projects/${project.id}`;

const ask = (kind: string, body: unknown) => askQuery(server, token, project.id, kind, body);

const numberIn = (text: string | null): number => Number((text ?? '').replace(/[^\d.-]/g, ''));

async function columnOf(testId: string, column: number): Promise<number[]> {
  return page.getByTestId(testId).locator('tbody tr').evaluateAll((rows, c) => rows.map((r) => Number((r.children[c]!.textContent ?? '').replace(/[^\d.-]/g, ''))), column);
}

t.test('activity: the tiles and the 30-day trend', async (t) => {
  await page.goto(base);
  await page.getByTestId('activity-tiles').waitFor();
  await page.getByText('Numbers of the chart').click();
  await page.locator('.chart-data').waitFor();
  const expected = await ask('activity-summary', { date_to: today, event: 'any' });
  for (const metric of ['dau', 'wau', 'mau']) {
    t.equal(numberIn(await page.locator(`[data-metric=${metric}] .tile-value`).textContent()), expected[metric], metric);
  }
  t.ok(expected.mau > 100, `the demo data gives the project activity (${expected.mau} monthly)`);
  const trend = await ask('segmentation', { event: 'any', metric: 'uniques', interval: 'day', date_from: daysBefore(29), date_to: today });
  const drawn = await page.locator('.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => [r.children[0]!.textContent, Number(r.children[1]!.textContent)]));
  t.same(drawn, trend.series[0].points.map((p: { bucket: string; value: number }) => [p.bucket, p.value]), 'every day of the trend');
  await checkAccessible(t, page, 'activity');
});

t.test('funnel: step counts, breakdown and compare, from a link', async (t) => {
  const steps = ['pp.page_view', 'pp.form_start', 'signup', 'purchase'];
  await page.goto(`${base}/insights/funnel?steps=${steps.join('~')}&from=${from}&to=${today}&breakdown=props.method&compare=previous`);
  await page.getByTestId('funnel-table').waitFor();
  const expected = await ask('funnel', { steps: steps.map((event) => ({ event })), date_from: from, date_to: today, breakdown: { property: 'props.method' }, compare: { period: 'previous' } });
  t.same(await columnOf('funnel-table', 1), expected.steps.map((s: { count: number }) => s.count), 'people at each step');
  t.same(await columnOf('funnel-table', 6), expected.compare.steps.map((s: { count: number }) => s.count), 'the previous period');
  const rows = await page.getByTestId('funnel-breakdown').locator('tbody tr').evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => c.textContent ?? '')));
  t.same(
    rows.map((r) => [r[0], ...r.slice(1, -1).map((v) => Number(v.replace(/,/g, '')))]),
    expected.breakdown.map((b: { name: string; steps: Array<{ count: number }> }) => [b.name, ...b.steps.map((s) => s.count)]),
    'each breakdown segment',
  );
  t.ok(expected.steps[2].count > 0, 'people signed up');
  await checkAccessible(t, page, 'funnel');
  await page.getByLabel('Step 4', { exact: true }).selectOption('report_viewed');
  const url = await eventually('the step in the URL', async () => page.url(), (u) => u.includes('steps=pp.page_view~pp.form_start~signup~report_viewed'));
  t.match(url, 'steps=pp.page_view~pp.form_start~signup~report_viewed');
  await page.getByTestId('funnel-table').getByText('4. report_viewed').waitFor();
  t.pass('a changed step is written into the URL and answered');
});

t.test('retention: the grid, cell by cell', async (t) => {
  await page.goto(`${base}/insights/retention?start=signup&return=report_viewed&from=${daysBefore(13)}&to=${today}`);
  await page.getByTestId('retention-grid').waitFor();
  const expected = await ask('retention', { start_event: 'signup', return_event: 'report_viewed', granularity: 'day', periods: 7, value: 'actors', date_from: daysBefore(13), date_to: today });
  const drawn = await page.getByTestId('retention-grid').locator('tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({ cohort: r.children[0]!.textContent, size: Number(r.children[1]!.textContent!.replace(/,/g, '')), values: [...r.querySelectorAll('td.cell')].map((c) => (c.getAttribute('data-value') === '' ? null : Number(c.getAttribute('data-value')))) })),
  );
  t.same(drawn, expected.cohorts.map((c: { cohort: string; size: number; values: Array<number | null> }) => ({ cohort: c.cohort, size: c.size, values: c.values })));
  await checkAccessible(t, page, 'retention');
});

t.test('segmentation: every bucket of every group', async (t) => {
  await page.goto(`${base}/insights/segmentation?event=pp.page_view&metric=uniques&group_by=path&from=${from}&to=${today}`);
  await page.getByTestId('segmentation-table').waitFor();
  await page.getByText('Numbers of the chart').click();
  await page.locator('.chart-data').waitFor();
  const expected = await ask('segmentation', { event: 'pp.page_view', metric: 'uniques', interval: 'day', group_by: { property: 'path' }, date_from: from, date_to: today });
  const header = await page.locator('.chart-data thead th').allTextContents();
  t.same(header.slice(1), expected.series.map((s: { name: string }) => s.name), 'one series per group');
  const drawn = await page.locator('.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].slice(1).map((c) => (c.textContent === '' ? null : Number(c.textContent)))));
  const want = expected.series[0].points.map((_: unknown, i: number) => expected.series.map((s: { points: Array<{ value: number | null }> }) => s.points[i]!.value));
  t.same(drawn, want);
  await checkAccessible(t, page, 'segmentation');
});

t.test('a filter from the URL, a list operator included, gives the API answer for that filter', async (t) => {
  await page.goto(`${base}/insights/segmentation?event=pp.page_view&metric=events&interval=week&from=${from}&to=${today}&filter=path|in|/pricing,/signup`);
  await page.getByTestId('segmentation-table').waitFor();
  const expected = await ask('segmentation', { event: 'pp.page_view', metric: 'events', interval: 'week', date_from: from, date_to: today, filters: [{ field: 'path', op: 'in', value: ['/pricing', '/signup'] }] });
  const total = expected.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0);
  t.ok(total > 0, `pricing and signup views (${total})`);
  t.equal(Number((await page.getByTestId('segmentation-table').locator('[data-col=total]').textContent())!.replace(/,/g, '')), total);
  t.equal(await page.getByLabel('Filter 1 operator').inputValue(), 'in', 'the filter row shows the operator');
});

t.test('lifecycle: new, returning, resurrecting and dormant per day', async (t) => {
  await page.goto(`${base}/insights/lifecycle?from=${from}&to=${today}`);
  await page.getByTestId('lifecycle-table').waitFor();
  const expected = await ask('lifecycle', { date_from: from, date_to: today, interval: 'day' });
  for (const [i, key] of ['new', 'returning', 'resurrecting', 'dormant'].entries()) {
    t.same(await columnOf('lifecycle-table', i + 1), expected.buckets.map((b: Record<string, number>) => b[key]), key);
  }
  await checkAccessible(t, page, 'lifecycle');
});

t.test('stickiness: people by active days', async (t) => {
  await page.goto(`${base}/insights/stickiness?event=report_viewed&from=${from}&to=${today}`);
  await page.getByTestId('stickiness-table').waitFor();
  const expected = await ask('stickiness', { event: 'report_viewed', date_from: from, date_to: today });
  t.same(await columnOf('stickiness-table', 1), expected.distribution.map((d: { actors: number }) => d.actors));
  await checkAccessible(t, page, 'stickiness');
});

t.test('revenue: the summary tiles', async (t) => {
  await page.goto(`${base}/insights/revenue?from=${from}&to=${today}`);
  await page.getByTestId('revenue-tiles').waitFor();
  const expected = await ask('revenue-summary', { date_from: from, date_to: today });
  t.ok(expected.revenue > 0, 'the demo data has purchases');
  t.equal(numberIn(await page.locator('[data-metric=revenue] .tile-value').textContent()), expected.revenue, 'revenue');
  t.equal(numberIn(await page.locator('[data-metric=paying_actors] .tile-value').textContent()), expected.paying_actors, 'paying people');
  t.equal(numberIn(await page.locator('[data-metric=active_actors] .tile-value').textContent()), expected.active_actors, 'active people');
  await checkAccessible(t, page, 'revenue');
});

t.test('a locked feature explains itself; nothing went wrong in the page', async (t) => {
  await page.goto(`${base}/insights/funnel?steps=pp.page_view~signup&from=${from}&to=${today}`);
  await page.getByTestId('funnel-table').waitFor();
  t.match(await page.locator('.gated[data-feature=actor_drilldown]').textContent(), /People drill-down needs a license/);
  checkClean(t, tab);
});
