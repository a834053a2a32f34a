// The licensed parts of the console, with a license that grants them: the people who dropped off
// at a funnel step and the people of a retention cell equal the API's lists; filters saved as a
// segment and used from the page give the API's answer for that segment; a release token is
// issued and revoked from the keys page.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { loadDemoData } from '../../server/demo/loadDemoData.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, chooseWithKeyboard, openFromNavigation, signedInConsole } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
await grantEntitlements(server, ['actor_drilldown', 'saved_segments']);
const { owner, project } = await createTenant(server);
await loadDemoData(server.running.services, project.id, owner.id, { visitors: 300 });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const today = new Date().toISOString().slice(0, 10);
const from = new Date(Date.now() - 27 * 86_400_000).toISOString().slice(0, 10);
const base = `/projects/${project.id}`;

const ask = (kind: string, body: unknown) => askQuery(server, token, project.id, kind, body);

t.test('funnel: who dropped off after step 2', async (t) => {
  await openFromNavigation(page, 'Funnels');
  await page.getByLabel('Step 1', { exact: true }).selectOption('pp.page_view');
  await chooseWithKeyboard(page, page.getByLabel('Step 2', { exact: true }), 'pp.form_start');
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByLabel('Step 3', { exact: true }).selectOption('signup');
  await page.getByLabel('From', { exact: true }).fill(from);
  await addressBuilt(page, 'the funnel built', (q) => q.get('steps') === 'pp.page_view~pp.form_start~signup' && q.get('from') === from);
  await page.getByRole('heading', { name: 'Who dropped off' }).waitFor();
  await page.getByLabel('Reached step').selectOption('2');
  await page.getByRole('button', { name: 'Show people' }).click();
  await page.getByTestId('dropped-actors').waitFor();
  const expected = await ask('funnel', { steps: [{ event: 'pp.page_view' }, { event: 'pp.form_start' }, { event: 'signup' }], date_from: from, date_to: today, dropped_at_step: 2 });
  const drawn = await page.getByTestId('dropped-actors').locator('code').allTextContents();
  t.same(
    drawn,
    expected.dropped.actors.map((a: { actor_id: string }) => a.actor_id),
  );
  t.ok(drawn.length > 0, `people dropped off (${drawn.length} on the first page)`);
  await checkAccessible(t, page, 'funnel with drill-down');
});

t.test('retention: the people of a cell', async (t) => {
  await openFromNavigation(page, 'Retention');
  await chooseWithKeyboard(page, page.getByLabel('People who did'), 'signup');
  await page.getByLabel('From', { exact: true }).fill(from);
  await addressBuilt(page, 'the retention built', (q) => q.get('start') === 'signup' && q.get('from') === from);
  const grid = page.getByTestId('retention-grid');
  await grid.waitFor();
  // The first cell after period 0 with somebody in it, once the grid draws the answer built.
  const readCells = () =>
    grid
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.flatMap((r) =>
          [...r.querySelectorAll('td.cell')].map((c, period) => ({ cohort: r.querySelector('th')!.getAttribute('data-cohort')!, period, value: Number(c.getAttribute('data-value') || 0) })),
        ),
      );
  const cells = await eventually('a retention cell with people back', readCells, (all) => all.some((c) => c.period > 0 && c.value > 0), 20_000);
  const cell = cells.find((c) => c.period > 0 && c.value > 0)!;
  t.ok(cell, 'some people came back');
  await grid.locator(`tbody tr:has(th[data-cohort="${cell.cohort}"])`).locator('td.cell').nth(cell.period).getByRole('button').click();
  await page.getByTestId('cell-actors').waitFor();
  const expected = await ask('retention/actors', {
    start_event: 'signup',
    return_event: 'any',
    granularity: 'day',
    periods: 7,
    date_from: from,
    date_to: today,
    cohort: cell.cohort,
    period: cell.period,
  });
  t.same(
    await page.getByTestId('cell-actors').locator('code').allTextContents(),
    expected.items.map((a: { actor_id: string }) => a.actor_id),
  );
});

t.test('filters saved as a segment, then the segment as the filter', async (t) => {
  await openFromNavigation(page, 'Segmentation');
  await page.getByLabel('Event', { exact: true }).selectOption('pp.page_view');
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByRole('button', { name: 'Add a filter' }).click();
  await page.getByLabel('Filter 1 value').fill('/pricing');
  await page.getByLabel('Filter 1 value').press('Enter');
  await addressBuilt(page, 'the segmentation built', (q) => q.get('filter') === 'path|eq|/pricing' && q.get('from') === from);
  await page.getByTestId('segmentation-table').waitFor();
  await page.getByLabel('Segment name').fill('Pricing visitors');
  await page.getByRole('button', { name: 'Save as a segment' }).click();
  await page.getByText('segment: Pricing visitors').waitFor();
  const segments = (await server.request('GET', `/api/v1/projects/${project.id}/segments`, { token })).body.items;
  t.match(segments, [{ name: 'Pricing visitors', filters: [{ field: 'path', op: 'eq', value: '/pricing' }] }]);
  t.match(page.url(), `filter=segment%3A${segments[0].id}`);
  await page.getByTestId('segmentation-table').waitFor();
  const expected = await ask('segmentation', { event: 'pp.page_view', metric: 'events', interval: 'day', date_from: from, date_to: today, filters: [`segment:${segments[0].id}`] });
  const total = expected.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0);
  t.ok(total > 0);
  const drawnTotal = async () => Number((await page.getByTestId('segmentation-table').locator('[data-col=total]').textContent())?.replace(/,/g, ''));
  t.equal(await eventually('the segment total', drawnTotal, (n) => n === total), total, 'the page answers for the segment');
});

t.test('release tokens: issued once, revoked', async (t) => {
  await page.goto(`${base}/keys`);
  await page.getByLabel('Token name').fill('CI deploys');
  await page.getByRole('button', { name: 'Issue the token' }).click();
  const value = (await page.getByTestId('issued-release-token').textContent())!;
  t.match(value, /^pp_rel_/);
  const deploy = await server.request('POST', `/api/v1/projects/${project.id}/release-markers/deploy`, {
    token: value,
    headers: { 'Idempotency-Key': 'deploy-0001' },
    body: { release: '1.2.3' },
  });
  t.equal(deploy.status, 201, 'the token records a deploy');
  await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
  await page.getByRole('dialog', { name: 'Revoke CI deploys?' }).getByRole('button', { name: 'Revoke the token' }).click();
  await page.getByTestId('release-tokens').locator('.badge.revoked').waitFor();
  t.pass('revoked from the page');
  await checkAccessible(t, page, 'keys with release tokens');
  checkClean(t, tab);
});
