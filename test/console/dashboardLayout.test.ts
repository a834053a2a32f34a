// A dashboard's layout mode, its tiles' overflow and the filters of its public view, in chromium
// against the real server on hand-made page views: the arranging, resizing and removing controls
// show only between "Edit layout" and "Done"; a tile made shorter than its answer scrolls inside
// itself and links to its insight, drawn whole there; the dashboard's range and filter, set with
// the controls, are shown on the page a share link opens, the filter as the dashboard holds it.

import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, daysBefore, openConsole, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const base = `/projects/${project.id}`;
const lastWeek = daysBefore(6);
const today = UTC_TODAY;

// One visitor a day for four weeks views the home page, every second one the pricing page too:
// a daily segmentation has a row a day, far taller than a tile one row high.
await seedEvents(
  server,
  project.id,
  Array.from({ length: 28 }, (_, i) => {
    const who = { anonymous_id: `p${i}`, session_id: `s${i}` };
    const ts = `${daysBefore(i)}T09:00:00Z`;
    return [{ event: 'pp.page_view', ts, url: 'https://shop.example/', ...who }, ...(i % 2 === 0 ? [{ event: 'pp.page_view', ts, url: 'https://shop.example/pricing', ...who }] : [])];
  }).flat(),
);

const api = async (method: string, path: string, body?: unknown) => {
  const res = await server.request(method, `/api/v1/projects/${project.id}${path}`, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};
const insight = await api('POST', '/insights', {
  name: 'Page views',
  kind: 'segmentation',
  query: { event: 'pp.page_view', metric: 'events', interval: 'day', date_from: daysBefore(27), date_to: UTC_TODAY },
});
const dashboard = await api('POST', '/dashboards', { name: 'Traffic' });
await api('POST', `/dashboards/${dashboard.id}/tiles`, { insight_id: insight.id });
await api('POST', `/dashboards/${dashboard.id}/tiles`, { text: 'Notes' });
const stored = () => api('GET', `/dashboards/${dashboard.id}`);

const tileNamed = (p: Page, name: string): Locator => p.locator('[data-testid=dash-tile]').filter({ has: p.getByRole('heading', { name, exact: true }) });
const ARRANGING = [
  'Move Page views right',
  'Move Text left',
  'Make Page views wider',
  'Make Page views narrower',
  'Make Page views taller',
  'Make Page views shorter',
  'Remove Page views',
  'Remove Text',
  'Edit text',
];

/** How many of each arranging control the page shows, handles included. */
async function arrangingControls(p: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of ARRANGING) counts[name] = await p.getByRole('button', { name, exact: true }).count();
  counts['drag handles'] = await p.getByTestId('drag-handle').count();
  counts['resize corners'] = await p.getByTestId('resize-handle').count();
  return counts;
}
/** Each arranging control `n` times, and a handle and a corner on each of the two tiles. */
const every = (n: number) => ({ ...Object.fromEntries(ARRANGING.map((name) => [name, n])), 'drag handles': 2 * n, 'resize corners': 2 * n });

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

t.test('the arranging controls show only between Edit layout and Done', async (t) => {
  await openFromNavigation(page, 'Dashboards');
  await page.getByTestId('dashboards').getByRole('link', { name: 'Traffic' }).click();
  await tileNamed(page, 'Page views').getByTestId('segmentation-table').waitFor();
  t.same(await arrangingControls(page), every(0), 'none before Edit layout');

  await page.getByRole('button', { name: 'Edit layout' }).click();
  await page.getByRole('button', { name: 'Done' }).waitFor();
  t.same(await arrangingControls(page), every(1), 'each of them in Edit layout');
  await checkAccessible(t, page, 'dashboard in Edit layout');
  await page.getByRole('button', { name: 'Make Page views shorter' }).click();
  await eventually('a row shorter', stored, (d) => d.tiles[0].height === 2);
  await page.getByRole('button', { name: 'Make Page views shorter' }).click();
  t.equal((await eventually('two rows shorter', stored, (d) => d.tiles[0].height === 1)).tiles[0].height, 1, 'one row high, saved');

  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Edit layout' }).waitFor();
  t.same(await arrangingControls(page), every(0), 'none after Done');
  t.equal(await tileNamed(page, 'Page views').getAttribute('data-height'), '1', 'the layout stays as changed');
  checkClean(t, tab);
});

t.test('a tile shorter than its answer scrolls inside itself and opens its insight whole', async (t) => {
  const tile = tileNamed(page, 'Page views');
  await tile.getByTestId('segmentation-table').waitFor();
  const body = tile.getByRole('region', { name: 'Page views, answer' });
  const fit = await body.evaluate((el: any) => ({
    taller: el.scrollHeight > el.clientHeight,
    overflowY: el.ownerDocument.defaultView.getComputedStyle(el).overflowY,
    insideTile: el.getBoundingClientRect().bottom <= el.closest('article').getBoundingClientRect().bottom + 0.5,
  }));
  t.same(fit, { taller: true, overflowY: 'auto', insideTile: true }, 'the answer is taller than the tile, which holds it in a scrolling box');
  await body.evaluate((el: any) => (el.scrollTop = el.scrollHeight));
  t.ok(await body.evaluate((el: any) => el.scrollTop > 0), 'the box scrolls');
  t.equal(await tileNamed(page, 'Text').getByRole('region').getAttribute('data-overflows'), 'false', 'a text that fits is not taken for one that does not');

  const open = tile.getByRole('link', { name: 'Open Page views' });
  t.equal(await open.getAttribute('href'), `${base}/insights/saved/${insight.id}`, 'Open leads to the saved insight');
  await checkAccessible(t, page, 'dashboard with an overflowing tile');
  await open.click();
  await page.getByRole('heading', { name: 'Page views', level: 1 }).waitFor();
  await page.getByTestId('insight-answer').getByTestId('segmentation-table').waitFor();
  t.pass('the insight drawn whole on its page');
  checkClean(t, tab);
});

t.test('the page a share link opens shows the dashboard’s range and filters', async (t) => {
  await openFromNavigation(page, 'Dashboards');
  await page.getByTestId('dashboards').getByRole('link', { name: 'Traffic' }).click();
  await page.getByRole('button', { name: '7 days' }).click();
  await page.getByRole('button', { name: 'Add a filter' }).click();
  await page.getByLabel('Filter 1 value').fill('/pricing');
  await page.getByLabel('Filter 1 value').press('Enter');
  const saved = await eventually('the range and filter saved', stored, (d) => d.date_range === 'last_7_days' && d.filters?.length === 1 && d.filters[0].value === '/pricing');
  t.same(saved.filters, [{ field: 'path', op: 'eq', value: '/pricing' }]);

  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByTestId('share-dialog');
  await dialog.getByRole('button', { name: 'Create a link' }).click();
  const address = (await dialog.getByTestId('share-url').textContent())!;
  const visitor = await openConsole(browser, server, new URL(address).pathname);
  t.teardown(() => visitor.close());
  const p = visitor.page;
  await p.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
  const overrides = p.getByTestId('dash-overrides');
  t.match(await overrides.textContent(), `Every tile: Last 7 days (${lastWeek} to ${today})`, 'the rolling range by its name and today’s dates');
  const chips = await p.getByRole('list', { name: 'filtered by' }).getByRole('listitem').allTextContents();
  t.same(
    chips,
    saved.filters.map((f: { field: string; op: string; value: string }) => `${f.field}|${f.op}|${f.value}`),
    'each filter as the dashboard holds it',
  );
  t.equal(await overrides.locator('input, select, button').count(), 0, 'read-only');
  await tileNamed(p, 'Page views').getByTestId('segmentation-table').waitFor();
  t.equal(await p.getByRole('link').count(), 0, 'still no link anywhere');
  await checkAccessible(t, p, 'shared dashboard with filters');
  checkClean(t, visitor);
  checkClean(t, tab);
});
