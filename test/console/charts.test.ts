// Time charts in chromium with the browser set to German: every date on a screen in the browser's
// locale (tables, the chart's numbers, the retention grid), lifecycle and stickiness drawn against a
// value axis, the hourly segmentation's groups named in words, and the bucket still filling (today,
// this week, this hour) marked when the range holds it and only then.

import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { UTC_TODAY, addressBuilt, answeredQuery, askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore, openFromNavigation, recordQueries, signedInConsole } from './consoleKit.js';

const LOCALE = 'de-DE';
const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

// Ten people over three weeks, some back on later days; plans in seven values and none for some, so
// a grouping has its top five, the other values and the events without a plan.
const plans = ['free', 'basic', 'team', 'pro', 'business', 'enterprise', 'edu', 'startup', 'agency', 'nonprofit', 'trial', 'legacy'];
const events: Array<Record<string, unknown>> = [];
for (let person = 0; person < 10; person++) {
  for (const days of [0, 1, 3, 8, 15].filter((d, i) => (person + i) % 2 === 0 || d === 0)) {
    const hour = String(Math.min(new Date().getUTCHours(), 1 + person)).padStart(2, '0');
    events.push({
      event: 'report_viewed',
      user_id: `u${person}`,
      ts: `${daysBefore(days)}T${days === 0 ? hour : '12'}:00:00Z`,
      props: person < 8 ? { plan: plans[(person * 3 + days) % plans.length] } : {},
    });
  }
}
// Today, one visit in each plan: more plans than a grouping keeps.
for (const [i, plan] of plans.entries()) events.push({ event: 'report_viewed', user_id: `v${i}`, ts: `${UTC_TODAY}T00:0${i % 10}:00Z`, props: { plan } });
const ingested = await ingestEvents(server, createIngestKey(server, project), events);
if (ingested.status !== 202 || ingested.body.rejected.length > 0) throw new Error(`ingest: ${ingested.status} ${ingested.text}`);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD, { locale: LOCALE });
const { page } = tab;
const sent = await recordQueries(page);
const ask = (kind: string, body: unknown) => askQuery(server, token, project.id, kind, body);

/** A bucket as the browser's locale writes a calendar day (or hour) of the project. */
const written = (p: Page, bucket: string, time = false): Promise<string> =>
  p.evaluate(
    ([b, withTime]) => {
      const [y, m, d] = [Number(b.slice(0, 4)), Number(b.slice(5, 7)) - 1, Number(b.slice(8, 10))];
      const h = withTime ? Number(b.slice(11, 13)) : 0;
      return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}), timeZone: 'UTC' }).format(new Date(Date.UTC(y, m, d, h)));
    },
    [bucket, time] as const,
  );

/** The SVG value axis: its labels, bottom to top, each the compact number of its value. */
async function checkValueAxis(t: Test, p: Page, chart: string, low: number, high: number): Promise<void> {
  const ticks = await p
    .getByRole('img', { name: chart })
    .locator('.chart-tick-svg')
    .evaluateAll((els) => els.map((el) => ({ value: Number(el.getAttribute('data-value')), text: el.textContent!, y: el.getBoundingClientRect().top })));
  t.ok(ticks.length >= 3, `${chart}: ${ticks.length} labels on the value axis`);
  t.ok(
    ticks.every((tick, i) => i === 0 || (tick.value > ticks[i - 1]!.value && tick.y < ticks[i - 1]!.y)),
    `${chart}: higher values higher up`,
  );
  t.ok(ticks[0]!.value <= Math.min(0, low) && ticks.at(-1)!.value >= high, `${chart}: the axis spans ${low}..${high} (${ticks[0]!.value}..${ticks.at(-1)!.value})`);
  const compact = await p.evaluate(
    (vs) => vs.map((v) => new Intl.NumberFormat(undefined, { notation: 'compact', maximumSignificantDigits: 3 }).format(v)),
    ticks.map((x) => x.value),
  );
  t.same(
    ticks.map((x) => x.text),
    compact,
    `${chart}: each label is its value, compact`,
  );
}

t.test('the browser speaks German', async (t) => {
  t.equal(await page.evaluate('navigator.language'), LOCALE);
  t.match(await written(page, '2026-11-05'), /^05\.11\.2026$/, 'a German medium date, so the assertions below test the locale');
});

t.test('lifecycle: a value axis, German dates, today marked while the range holds it', async (t) => {
  await openFromNavigation(page, 'Lifecycle');
  const body = await answeredQuery(page, sent, 'lifecycle', (b) => b.interval === 'day' && b.date_to === UTC_TODAY);
  await page.getByTestId('lifecycle-table').waitFor();
  const expected = await ask('lifecycle', body);
  const up = Math.max(...expected.buckets.map((b: Record<string, number>) => b.new + b.returning + b.resurrecting));
  const down = Math.min(...expected.buckets.map((b: Record<string, number>) => -Math.abs(b.dormant)));
  t.ok(up > 0 && down < 0, `people above and below zero (${up}, ${down})`);
  await checkValueAxis(t, page, 'Active people by lifecycle state', down, up);

  const rows = await page.getByTestId('lifecycle-table').locator('tbody th').allTextContents();
  const buckets: string[] = expected.buckets.map((b: { bucket: string }) => b.bucket);
  const want = await Promise.all(buckets.map((b) => written(page, b)));
  t.same(rows.slice(0, -1), want.slice(0, -1), 'every day in the browser locale');
  t.equal(rows.at(-1), `${want.at(-1)} (so far)`, 'today, the last row, is marked as still counting');
  t.equal(await page.getByTestId('partial-note').textContent(), ' Today so far: the last day is still counting.');
  t.equal(await page.locator('.svg-chart [data-partial=true] .partial-bar').count(), 1, "today's bar is hatched");
  await checkAccessible(t, page, 'lifecycle');

  await chooseWithKeyboard(page, page.getByLabel('Per', { exact: true }), 'week');
  await answeredQuery(page, sent, 'lifecycle', (b) => b.interval === 'week' && b.date_to === UTC_TODAY);
  await page.getByText('This week so far').waitFor();
  t.pass('per week: this week is the one still counting');

  await page.getByLabel('To', { exact: true }).fill(daysBefore(1));
  await answeredQuery(page, sent, 'lifecycle', (b) => b.date_to === daysBefore(1));
  await page.getByTestId('lifecycle-table').waitFor();
  t.equal(await page.getByTestId('partial-note').count(), 0, 'a range ending yesterday has nothing still counting');
  t.equal(await page.locator('.so-far').count(), 0, 'and no row marked');
  t.equal(await page.locator('.partial-bar').count(), 0, 'nor a hatched bar');
});

t.test('stickiness: a value axis', async (t) => {
  await openFromNavigation(page, 'Stickiness');
  const body = await answeredQuery(page, sent, 'stickiness', (b) => b.event === 'any');
  await page.getByTestId('stickiness-table').waitFor();
  const expected = await ask('stickiness', body);
  await checkValueAxis(t, page, 'People by number of active days', 0, Math.max(...expected.distribution.map((d: { actors: number }) => d.actors)));
  await checkAccessible(t, page, 'stickiness');
});

t.test('segmentation per hour, grouped: the groups in words, German day and time, this hour marked', async (t) => {
  await openFromNavigation(page, 'Segmentation');
  await chooseWithKeyboard(page, page.getByLabel('Per', { exact: true }), 'hour');
  await page.getByRole('button', { name: '7 days' }).click();
  await page.getByLabel('Group by').selectOption('props.plan');
  await addressBuilt(page, 'grouped by plan', (q) => q.get('group_by') === 'props.plan');
  const body = await answeredQuery(page, sent, 'segmentation', (b) => b.interval === 'hour' && b.group_by?.property === 'props.plan' && b.date_from === daysBefore(6));
  const expected = await ask('segmentation', body);
  const names: string[] = expected.series.map((s: { name: string }) => s.name);
  t.ok(names.includes('$other') && names.includes('$none'), `the answer has both markers (${names.join(', ')})`);

  const legend = await page
    .locator('.u-legend .u-series')
    .evaluateAll((rows) => rows.map((r) => ({ label: r.querySelector('.u-label')?.textContent ?? '', value: r.querySelector('.u-value')?.textContent ?? '' })));
  const labels = legend.slice(1).map((s) => s.label);
  t.same(
    labels,
    names.map((n) => (n === '$none' ? 'not set' : n === '$other' ? 'other values' : n)),
    'the groups as the funnel and paths name them',
  );
  t.notOk(
    legend.some((s) => /\$|--/.test(s.label + s.value)),
    `no server marker and no "--" in the legend: ${JSON.stringify(legend)}`,
  );

  await page.getByText('Numbers of the chart').click();
  // The table is built once it is opened.
  await page.locator('.chart-data tbody th').first().waitFor();
  const rows = await page.locator('.chart-data tbody th').evaluateAll((ths) => ths.map((th) => ({ bucket: th.getAttribute('data-bucket')!, text: th.textContent! })));
  const points: string[] = expected.series[0].points.map((p: { bucket: string }) => p.bucket);
  t.same(
    rows.map((r) => r.bucket),
    points,
    'every hour of the answer',
  );
  const first = rows[0]!;
  t.equal(first.text, await written(page, first.bucket, true), `an hour as German day and time (${first.text})`);
  t.match(first.text, /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  const hour = `${UTC_TODAY}T${String(new Date().getUTCHours()).padStart(2, '0')}`;
  const marked = rows.filter((r) => r.text.endsWith(' (so far)'));
  t.same(
    marked.map((r) => r.bucket.slice(0, 13)),
    [hour],
    'the current hour, and only it, is marked',
  );
  t.equal(await page.getByTestId('partial-note').textContent(), ' This hour so far: the last hour is still counting.');
  await checkAccessible(t, page, 'segmentation per hour');
});

t.test('retention: cohorts dated in the browser locale', async (t) => {
  await openFromNavigation(page, 'Retention');
  await page.getByLabel('People who did').selectOption('report_viewed');
  await page.getByLabel('and came back to do').selectOption('report_viewed');
  await addressBuilt(page, 'both events chosen', (q) => q.get('start') === 'report_viewed' && q.get('return') === 'report_viewed');
  await answeredQuery(page, sent, 'retention', (b) => b.start_event === 'report_viewed' && b.return_event === 'report_viewed');
  const cohorts = await page
    .getByTestId('retention-grid')
    .locator('tbody th')
    .evaluateAll((ths) => ths.map((th) => [th.getAttribute('data-cohort')!, th.textContent!]));
  t.ok(cohorts.length > 0);
  for (const [cohort, text] of cohorts) t.equal(text, await written(page, cohort), `cohort ${cohort}`);
  checkClean(t, tab);
});
