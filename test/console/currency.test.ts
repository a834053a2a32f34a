// The project currency in chromium: an admin picks it in the project settings with the controls,
// opens revenue from the navigation, and the tiles and the value axis of the revenue chart show the
// API's numbers in it, formatted in the browser's own locale; no amount wraps, no axis label is cut.

import t from 'tap';
import type { Locator } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { answeredQuery, askQuery, checkAccessible, checkClean, daysBefore, openFromNavigation, recordQueries, signedInConsole } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { org, project } = await createTenant(server);
const admin = await addMember(server, org, 'admin');
const token = (await login(server, admin.email, TEST_PASSWORD)).token!;

// Amounts large enough that the axis labels are wider than uPlot's default axis (50 px), one refund.
const purchases: Array<[days: number, user: string, revenue: number]> = [
  [1, 'u1', 125000],
  [2, 'u2', 48250.5],
  [3, 'u3', 99999.99],
  [5, 'u1', -2500],
  [8, 'u4', 15000],
  [10, 'u5', 7300.25],
];
const key = createIngestKey(server, project);
const ingested = await ingestEvents(
  server,
  key,
  purchases.map(([days, user, revenue]) => ({ event: revenue < 0 ? 'refund' : 'purchase', user_id: user, ts: `${daysBefore(days)}T12:00:00Z`, props: { revenue } })),
);
if (ingested.status !== 202 || ingested.body.rejected.length > 0) throw new Error(`ingest: ${ingested.status} ${ingested.text}`);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, admin.email, TEST_PASSWORD);
const { page } = tab;
const sent = await recordQueries(page);

type Box = { left: number; right: number; top: number; bottom: number };
const boxOf = (l: Locator): Promise<Box> => l.evaluate((el) => el.getBoundingClientRect().toJSON());
/** Where a text is drawn, which may spill out of its element's own box. */
const textBoxOf = (l: Locator): Promise<Box> =>
  l.evaluate((el: any) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect().toJSON();
  });
const inside = (inner: Box, outer: Box) => inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;

/** The lines a text occupies, told apart by where each line's boxes start. */
const linesOf = (l: Locator): Promise<number> =>
  l.evaluate((el: any) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
  });

t.test('an admin chooses the currency in the project settings', async (t) => {
  await openFromNavigation(page, 'Project settings');
  const currency = page.getByLabel('Currency');
  t.equal(await currency.inputValue(), 'USD', 'USD until someone chooses');
  await currency.selectOption('RUB');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  t.equal((await server.request('GET', `/api/v1/projects/${project.id}`, { token })).body.currency, 'RUB', 'saved through the API');
  await checkAccessible(t, page, 'project settings');
});

t.test('revenue: the tiles in the chosen currency, on one line each', async (t) => {
  await openFromNavigation(page, 'Revenue');
  const body = await answeredQuery(page, sent, 'revenue-summary', (b) => b.date_from === daysBefore(29));
  await page.getByTestId('revenue-tiles').waitFor();
  const expected = await askQuery(server, token, project.id, 'revenue-summary', body);
  t.equal(expected.currency, 'RUB', 'the answer names the project currency');
  t.ok(Math.abs(expected.revenue - 293050.74) < 1e-6, 'the purchases less the refund');
  const money = (n: number) => page.evaluate(([n, currency]) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(n), [n, expected.currency] as const);
  const tiles: Array<[string, string]> = [
    ['revenue', await money(expected.revenue)],
    ['arpu', await money(expected.arpu)],
    ['arppu', await money(expected.arppu)],
    ['refunds', `${await money(expected.refunds)} (1)`],
  ];
  for (const [metric, text] of tiles) {
    const tile = page.locator(`[data-metric=${metric}]`);
    const value = tile.locator('.tile-value');
    t.equal(await value.textContent(), text, `${metric}: the API's number in the browser's format of RUB`);
    t.equal(await linesOf(value), 1, `${metric}: the currency stays on the number's line`);
    t.ok(inside(await textBoxOf(value), await boxOf(tile)), `${metric}: the amount inside its tile`);
  }
});

t.test('revenue: the value axis in the chosen currency, every label inside the chart', async (t) => {
  const asked = await answeredQuery(page, sent, 'segmentation', (b) => b.metric === 'revenue' && b.date_from === daysBefore(29));
  await page.getByText('Numbers of the chart').click();
  await page.locator('.chart-data tbody tr').first().waitFor();
  const daily = await askQuery(server, token, project.id, 'segmentation', asked);
  const values: number[] = daily.series[0].points.map((p: { value: number }) => p.value);
  const drawn = await page.locator('.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.children[1]!.textContent)));
  t.same(drawn, values, "the chart draws the API's revenue per day");
  t.equal(await page.getByRole('img', { name: 'Revenue per day (RUB)' }).count(), 1, 'the chart names the currency');

  const ticks = await page
    .locator('.chart-tick')
    .evaluateAll((els) => els.map((el) => ({ value: Number((el as any).dataset.value), text: el.textContent!, box: el.getBoundingClientRect().toJSON() as Box })));
  t.ok(ticks.length >= 3, `${ticks.length} labels on the axis`);
  const compact = await page.evaluate(
    (vs) => vs.map((v) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'RUB', notation: 'compact', maximumSignificantDigits: 3, currencyDisplay: 'narrowSymbol' }).format(v)),
    ticks.map((tick) => tick.value),
  );
  t.same(
    ticks.map((tick) => tick.text),
    compact,
    'each label is its value, compact, in RUB',
  );
  t.ok(
    ticks.every((tick) => tick.text.includes('₽')),
    `the rouble sign on every label: ${ticks.map((tick) => tick.text).join(' ')}`,
  );
  const step = ticks[1]!.value - ticks[0]!.value;
  t.ok(step > 0 && ticks.every((tick, i) => i === 0 || tick.box.top < ticks[i - 1]!.box.top), 'higher values higher up');
  t.ok(ticks[0]!.value - step < Math.min(...values) && Math.max(...values) < ticks.at(-1)!.value + step, 'the axis spans the revenue per day');

  const chart = await boxOf(page.locator('.chart .uplot'));
  for (const tick of ticks) t.ok(inside(tick.box, chart), `"${tick.text}" whole inside the chart (${JSON.stringify(tick.box)} in ${JSON.stringify(chart)})`);
  await checkAccessible(t, page, 'revenue');
  checkClean(t, tab);
});
