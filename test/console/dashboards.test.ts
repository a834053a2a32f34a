// Saved insights, dashboards and share links in chromium against the real server, on hand-made page
// views and signups of 60 people over four weeks: an analyst saves a funnel and a segmentation from
// their pages into a new dashboard, each tile's numbers are the API's answer to the saved body (and
// to it with the dashboard's range and filter laid over), tiles are moved with the keyboard and by
// dragging, resized both ways, a text tile is added and removed; a viewer gets no write control; an
// owner shares the dashboard, and the link opened in a fresh browser (no cookie) shows the same
// numbers and nothing else until it is revoked.

import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore, openConsole, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, org, project } = await createTenant(server, { timezone: 'UTC' });
const ownerToken = (await login(server, owner.email, TEST_PASSWORD)).token!;
const analyst = await addMember(server, org, 'analyst');
const viewer = await addMember(server, org, 'viewer');

const today = UTC_TODAY;
const from = daysBefore(27);
const lastWeek = daysBefore(6);
const base = `/projects/${project.id}`;

// Person i comes on day i % 28 before today: views the home page, every second person the pricing
// page too, every third signs up an hour later. Paths differ, so a dashboard filter on the path
// changes the answers; days differ, so the dashboard's range does.
await seedEvents(
  server,
  project.id,
  Array.from({ length: 60 }, (_, i): SeedEvent[] => {
    const day = daysBefore(i % 28);
    const who = { anonymous_id: `p${i}`, session_id: `s${i}` };
    return [
      { event: 'pp.page_view', ts: `${day}T09:${String(i % 60).padStart(2, '0')}:00Z`, url: 'https://shop.example/', ...who },
      ...(i % 2 === 0 ? [{ event: 'pp.page_view', ts: `${day}T09:${String(i % 60).padStart(2, '0')}:30Z`, url: 'https://shop.example/pricing', ...who }] : []),
      ...(i % 3 === 0 ? [{ event: 'signup', ts: `${day}T10:00:00Z`, ...who }] : []),
    ];
  }).flat(),
);

const FUNNEL = { steps: [{ event: 'pp.page_view' }, { event: 'signup' }], date_from: from, date_to: today, window_hours: 336, count_by: 'actors' };
const SEGMENTATION = { event: 'pp.page_view', metric: 'events', interval: 'day', date_from: from, date_to: today };

const api = (method: string, path: string, body?: unknown, token = ownerToken) => server.request(method, `/api/v1/projects/${project.id}${path}`, { token, body });
const ask = (kind: string, body: unknown) => askQuery(server, ownerToken, project.id, kind, body);
const numberIn = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
const funnelCounts = (answer: any): number[] => answer.steps.map((s: { count: number }) => s.count);
const segmentationTotal = (answer: any): number => answer.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0);

/** The dashboard named `name`, as the API answers it. */
async function dashboardNamed(name: string): Promise<any> {
  const list = await api('GET', '/dashboards');
  const found = list.body.items.find((d: { name: string }) => d.name === name);
  return found && (await api('GET', `/dashboards/${found.id}`)).body;
}

const tileNamed = (p: Page, name: string): Locator => p.locator('[data-testid=dash-tile]').filter({ has: p.getByRole('heading', { name, exact: true }) });
/** The tiles' headings in the order the grid draws them. */
const drawnOrder = (p: Page) => p.locator('[data-testid=dash-tile] h2').allTextContents();
/** The funnel counts a tile (or page) draws, once its answer is in. */
const drawnFunnel = (scope: Locator) =>
  scope
    .getByTestId('funnel-table')
    .locator('td[data-col=count]')
    .allTextContents()
    .then((cells) => cells.map(numberIn));
const drawnTotal = (scope: Locator) => scope.getByTestId('segmentation-table').locator('td[data-col=total]').first().textContent().then(numberIn);

/** The page-view-to-signup funnel over four weeks, opened from the navigation and built with the mouse. */
async function buildFunnel(p: Page): Promise<void> {
  await openFromNavigation(p, 'Funnels');
  await p.getByLabel('Step 1', { exact: true }).selectOption('pp.page_view');
  await p.getByLabel('Step 2', { exact: true }).selectOption('signup');
  await p.getByLabel('From', { exact: true }).fill(from);
  const want = funnelCounts(await ask('funnel', FUNNEL)).join();
  await eventually(
    'the funnel over four weeks, as the API answers it',
    () => drawnFunnel(p.locator('main')).catch(() => []),
    (c) => c.join() === want,
  );
}

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, analyst.email, TEST_PASSWORD);
const { page } = tab;
let dashboardId = 0;

t.test('an analyst saves a funnel from its page into a new dashboard, and a segmentation into the same one', async (t) => {
  await buildFunnel(page);
  await page.getByRole('button', { name: 'Save / Add to dashboard' }).click();
  const dialog = page.getByTestId('save-insight-dialog');
  await dialog.getByLabel('Name').fill('Signup funnel');
  await dialog.getByLabel('Description (optional)').fill('Home to signup');
  await dialog.getByLabel('Add to a dashboard').selectOption({ label: 'a new dashboard…' });
  await dialog.getByLabel('New dashboard name').fill('Growth');
  await checkAccessible(t, page, 'save dialog');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('saved-note').waitFor();

  const insights = (await api('GET', '/insights')).body.items;
  const funnel = insights.find((i: { name: string }) => i.name === 'Signup funnel');
  t.match(funnel, { kind: 'funnel', description: 'Home to signup', query: FUNNEL }, 'the page’s query, saved as a funnel');
  const growth = await dashboardNamed('Growth');
  t.ok(growth, 'the new dashboard exists');
  dashboardId = growth.id;
  t.same(
    growth.tiles.map((tile: any) => tile.insight?.name),
    ['Signup funnel'],
    'with the funnel as its tile',
  );
  t.equal(await page.getByTestId('saved-note').getByRole('link', { name: 'Growth' }).getAttribute('href'), `${base}/dashboards/${growth.id}`);

  await openFromNavigation(page, 'Segmentation');
  await chooseWithKeyboard(page, page.getByLabel('Event', { exact: true }), 'pp.page_view');
  await page.getByLabel('From', { exact: true }).fill(from);
  await addressBuilt(page, 'the segmentation built', (q) => q.get('event') === 'pp.page_view' && q.get('from') === from);
  await page.getByTestId('segmentation-table').waitFor();
  t.equal(await drawnTotal(page.locator('main')), segmentationTotal(await ask('segmentation', SEGMENTATION)), 'the page draws the answer it saves');
  await page.getByRole('button', { name: 'Save / Add to dashboard' }).click();
  await dialog.getByLabel('Name').fill('Page views');
  await dialog.getByLabel('Add to a dashboard').selectOption({ label: 'Growth' });
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('saved-note').waitFor();
  const saved = (await api('GET', '/insights')).body.items.find((i: { name: string }) => i.name === 'Page views');
  t.match(saved, { kind: 'segmentation', query: SEGMENTATION });
  t.same(
    (await dashboardNamed('Growth')).tiles.map((tile: any) => tile.insight?.name),
    ['Signup funnel', 'Page views'],
    'appended last',
  );
  checkClean(t, tab);
});

t.test('each tile draws the API’s answer to its saved body', async (t) => {
  await page.goto(`${base}/dashboards`);
  await page.getByTestId('dashboards').getByRole('link', { name: 'Growth' }).click();
  await page.getByRole('heading', { name: 'Growth', level: 1 }).waitFor();
  const funnel = await ask('funnel', FUNNEL);
  t.ok(funnel.steps[1].count > 0 && funnel.steps[1].count < funnel.steps[0].count, `people signed up (${funnelCounts(funnel)})`);
  t.same(
    await eventually(
      'the funnel tile',
      () => drawnFunnel(tileNamed(page, 'Signup funnel')),
      (c) => c.length === 2,
    ),
    funnelCounts(funnel),
    'the funnel tile',
  );
  const segmentation = await ask('segmentation', SEGMENTATION);
  t.equal(
    await eventually(
      'the segmentation tile',
      () => drawnTotal(tileNamed(page, 'Page views')).catch(() => NaN),
      (n) => !Number.isNaN(n),
    ),
    segmentationTotal(segmentation),
    'the segmentation tile',
  );
  t.same(await drawnOrder(page), ['Signup funnel', 'Page views']);
  await checkAccessible(t, page, 'dashboard');
  checkClean(t, tab);
});

t.test('the dashboard’s range and filter are laid over every tile', async (t) => {
  await page.goto(`${base}/dashboards/${dashboardId}`);
  await tileNamed(page, 'Signup funnel').getByTestId('funnel-table').waitFor();
  await page.getByRole('button', { name: '7 days' }).click();
  const week = await eventually(
    'the range saved',
    () => dashboardNamed('Growth'),
    (d) => d.date_range === 'last_7_days',
  );
  t.match(week, { date_from: null, date_to: null }, 'kept as the rule, not as two dates');
  t.equal(await page.getByLabel('From', { exact: true }).inputValue(), lastWeek, 'its dates today');
  t.equal(await page.getByLabel('To', { exact: true }).inputValue(), today);
  const funnel = await ask('funnel', { ...FUNNEL, date_from: lastWeek, date_to: today });
  t.ok(funnel.steps[0].count < 60, `fewer people in the last week (${funnel.steps[0].count})`);
  t.same(
    await eventually(
      'the funnel over the week',
      () => drawnFunnel(tileNamed(page, 'Signup funnel')),
      (c) => c[0] === funnel.steps[0].count,
    ),
    funnelCounts(funnel),
  );
  const segmentation = await ask('segmentation', { ...SEGMENTATION, date_from: lastWeek, date_to: today });
  t.equal(
    await eventually(
      'the page views over the week',
      () => drawnTotal(tileNamed(page, 'Page views')).catch(() => NaN),
      (n) => n === segmentationTotal(segmentation),
    ),
    segmentationTotal(segmentation),
  );

  await page.getByRole('button', { name: 'Add a filter' }).click();
  await page.getByLabel('Filter 1 value').fill('/pricing');
  await page.getByLabel('Filter 1 value').press('Enter');
  const filtered = await eventually(
    'the filter saved',
    () => dashboardNamed('Growth'),
    (d) => JSON.stringify(d.filters) === JSON.stringify([{ field: 'path', op: 'eq', value: '/pricing' }]),
  );
  t.same(filtered.filters, [{ field: 'path', op: 'eq', value: '/pricing' }]);
  const pricing = await ask('segmentation', { ...SEGMENTATION, date_from: lastWeek, date_to: today, filters: [{ field: 'path', op: 'eq', value: '/pricing' }] });
  t.ok(segmentationTotal(pricing) < segmentationTotal(segmentation), 'the filter narrows the page views');
  t.equal(
    await eventually(
      'the filtered page views',
      () => drawnTotal(tileNamed(page, 'Page views')).catch(() => NaN),
      (n) => n === segmentationTotal(pricing),
    ),
    segmentationTotal(pricing),
    'filters added to the segmentation’s own',
  );
  const tileAnswer = await api('POST', `/dashboards/${dashboardId}/tiles/${filtered.tiles[1].id}/result`, {});
  t.equal(segmentationTotal(tileAnswer.body), segmentationTotal(pricing), 'the tile’s own result call agrees');

  await page.getByRole('button', { name: 'Remove filter 1' }).click();
  await page.getByRole('button', { name: "Use each tile's own dates" }).click();
  await eventually(
    'the overrides cleared',
    () => dashboardNamed('Growth'),
    (d) => d.date_from === null && d.date_range === null && (d.filters === null || d.filters.length === 0),
  );
  t.same(
    await eventually(
      'the funnel on its own dates',
      () => drawnFunnel(tileNamed(page, 'Signup funnel')),
      (c) => c[0] === 60,
    ),
    funnelCounts(await ask('funnel', FUNNEL)),
  );
  checkClean(t, tab);
});

t.test('a text tile; tiles moved with the keyboard and by dragging, resized both ways, removed', async (t) => {
  await page.goto(`${base}/dashboards/${dashboardId}`);
  await page.getByLabel('Text', { exact: true }).fill('Read the funnel first.');
  await page.getByRole('button', { name: 'Add the text' }).click();
  await tileNamed(page, 'Text').getByText('Read the funnel first.').waitFor();
  const order = async () => (await dashboardNamed('Growth')).tiles.map((tile: any) => tile.insight?.name ?? tile.text);
  t.same(await order(), ['Signup funnel', 'Page views', 'Read the funnel first.']);
  await page.getByRole('button', { name: 'Edit layout' }).click();
  await tileNamed(page, 'Text').getByRole('button', { name: 'Edit text' }).click();
  await page.getByRole('dialog').getByLabel('Text').fill('Read the funnel first.\n\nThen the page views.');
  await page.getByRole('dialog').getByRole('button', { name: 'Save the text' }).click();
  await tileNamed(page, 'Text').getByText('Then the page views.').waitFor();
  t.equal(await tileNamed(page, 'Text').locator('p').count(), 2, 'a blank line starts a paragraph');
  t.same(await eventually('the text saved', order, (o) => o[2] !== 'Read the funnel first.'), ['Signup funnel', 'Page views', 'Read the funnel first.\n\nThen the page views.']);

  await page.getByRole('button', { name: 'Move Text left' }).focus();
  await page.keyboard.press('Enter');
  const text = 'Read the funnel first.\n\nThen the page views.';
  t.same(await eventually('the text moved left', order, (o) => o[1] === text), ['Signup funnel', text, 'Page views'], 'moved with the keyboard');
  t.same(await drawnOrder(page), ['Signup funnel', 'Text', 'Page views']);

  // Both tiles in view at once: the page views' handle is two rows below the funnel.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.getByTestId('dash-grid').scrollIntoViewIfNeeded();
  const handle = await tileNamed(page, 'Page views').getByTestId('drag-handle').boundingBox();
  const target = await tileNamed(page, 'Signup funnel').boundingBox();
  await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
  await page.mouse.down();
  await page.mouse.move(target!.x + target!.width / 2, target!.y + 40, { steps: 8 });
  await page.mouse.up();
  t.same(await eventually('the page views dragged first', order, (o) => o[0] === 'Page views'), ['Page views', 'Signup funnel', text], 'moved by dragging');
  t.same(await drawnOrder(page), ['Page views', 'Signup funnel', 'Text']);

  const sizeOf = async (name: string) => (await dashboardNamed('Growth')).tiles.find((tile: any) => (tile.insight?.name ?? 'Text') === name);
  await page.getByRole('button', { name: 'Make Signup funnel wider' }).click();
  await page.getByRole('button', { name: 'Make Signup funnel taller' }).click();
  const wider = await eventually(
    'the funnel wider and taller',
    () => sizeOf('Signup funnel'),
    (tile) => tile.width === 7 && tile.height === 4,
  );
  t.match(wider, { width: 7, height: 4 }, 'one column wider and one row taller than the default 6 × 3');
  t.equal(await tileNamed(page, 'Signup funnel').getAttribute('data-width'), '7');

  const before = await sizeOf('Page views');
  const corner = await tileNamed(page, 'Page views').getByTestId('resize-handle').boundingBox();
  const grid = await page.getByTestId('dash-grid').boundingBox();
  await page.mouse.move(corner!.x + corner!.width / 2, corner!.y + corner!.height / 2);
  await page.mouse.down();
  // Three columns narrower and one row taller.
  await page.mouse.move(corner!.x - (grid!.width / 12) * 3, corner!.y + 136, { steps: 8 });
  await page.mouse.up();
  const dragged = await eventually(
    'the page views resized',
    () => sizeOf('Page views'),
    (tile) => tile.width !== before.width,
  );
  t.match(dragged, { width: before.width - 3, height: before.height + 1 }, 'resized by dragging its corner');
  t.equal(await tileNamed(page, 'Page views').getAttribute('data-width'), String(dragged.width));

  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('button', { name: 'Remove Text' }).click();
  t.same(await eventually('the text removed', order, (o) => o.length === 2), ['Page views', 'Signup funnel']);
  await tileNamed(page, 'Text').waitFor({ state: 'detached' });
  t.same(await drawnOrder(page), ['Page views', 'Signup funnel'], 'the text tile is gone from the grid');
  await checkAccessible(t, page, 'dashboard after changes');
  checkClean(t, tab);
});

t.test('saved insights: the list, one insight with its answer, and back to its insight page', async (t) => {
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Saved insights' }).click();
  await page.getByTestId('saved-insights').waitFor();
  t.same(await page.getByTestId('saved-insights').locator('tbody th').allTextContents(), ['Page views', 'Signup funnel'], 'latest changed first');
  await checkAccessible(t, page, 'saved insights');
  await page.getByRole('link', { name: 'Signup funnel' }).click();
  await page.getByRole('heading', { name: 'Signup funnel', level: 1 }).waitFor();
  const answer = page.getByTestId('insight-answer');
  t.same(
    await eventually(
      'the saved funnel',
      () => drawnFunnel(answer),
      (c) => c.length === 2,
    ),
    funnelCounts(await ask('funnel', FUNNEL)),
  );
  await checkAccessible(t, page, 'saved insight');
  await page.getByRole('link', { name: 'Open in Funnel' }).click();
  await page.getByTestId('funnel-table').waitFor();
  const url = new URL(page.url());
  t.equal(url.pathname, `${base}/insights/funnel`);
  const funnelId = (await api('GET', '/insights')).body.items.find((i: { name: string }) => i.name === 'Signup funnel').id;
  t.same(Object.fromEntries(url.searchParams), { steps: 'pp.page_view~signup', from, to: today, window: '336', count_by: 'actors', saved: String(funnelId) }, 'the saved query in the page’s URL');

  // Changed on its page, the funnel is saved back to the same insight.
  await page.getByLabel('Conversion window').selectOption('168');
  await eventually(
    'the new window in the URL',
    async () => new URL(page.url()).searchParams.get('window'),
    (w) => w === '168',
  );
  await page.getByTestId('funnel-table').waitFor();
  await page.getByRole('button', { name: 'Save changes to “Signup funnel”' }).click();
  await page.getByTestId('saved-note').getByText('Saved the changes to').waitFor();
  const changed = (await api('GET', `/insights/${funnelId}`)).body;
  t.equal(changed.query.window_hours, 168, 'the new window is saved');
  t.equal((await api('GET', '/insights')).body.items.length, 2, 'no new insight');
  const restored = await api('PATCH', `/insights/${funnelId}`, { query: FUNNEL });
  t.equal(restored.status, 200);
  checkClean(t, tab);
});

t.test('a saved step named with the list separator and its escape opens as one step', async (t) => {
  const made = await api('POST', '/insights', { name: 'Odd names', kind: 'funnel', query: { ...FUNNEL, steps: [{ event: 'pp.page_view' }, { event: 'beta~invite!' }] } });
  t.equal(made.status, 201);
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Saved insights' }).click();
  await page.getByRole('link', { name: 'Odd names' }).click();
  await page.getByRole('link', { name: 'Open in Funnel' }).click();
  await page.getByTestId('funnel-table').getByText('2. beta~invite!').waitFor();
  t.equal(await page.getByLabel('Step 2', { exact: true }).inputValue(), 'beta~invite!', 'the second step whole');
  t.equal(await page.getByLabel('Step 3', { exact: true }).count(), 0, 'and no third');
  t.equal(new URL(page.url()).searchParams.get('steps'), 'pp.page_view~beta!~invite!!', 'escaped in the link');
  t.equal((await api('DELETE', `/insights/${made.body.id}`)).status, 204);
});

t.test('an analyst is not offered sharing; a viewer gets no write control', async (t) => {
  await page.goto(`${base}/dashboards/${dashboardId}`);
  await tileNamed(page, 'Signup funnel').getByTestId('funnel-table').waitFor();
  t.equal(await page.getByRole('button', { name: 'Share' }).count(), 0, 'sharing is for admins and owners');

  const viewerTab = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  const v = viewerTab.page;
  await v.goto(`${base}/dashboards/${dashboardId}`);
  await tileNamed(v, 'Signup funnel').getByTestId('funnel-table').waitFor();
  t.same(await drawnFunnel(tileNamed(v, 'Signup funnel')), funnelCounts(await ask('funnel', FUNNEL)), 'the viewer reads the numbers');
  for (const name of [
    'Share',
    'Rename',
    'Delete the dashboard',
    'Add the insight',
    'Add the text',
    'Move Signup funnel left',
    'Make Signup funnel wider',
    'Remove Signup funnel',
    'Add a filter',
    "Use each tile's own dates",
  ]) {
    t.equal(await v.getByRole('button', { name, exact: true }).count(), 0, `no ${name}`);
  }
  t.equal(await v.getByTestId('drag-handle').count(), 0, 'no drag handle');
  t.equal(await v.getByTestId('resize-handle').count(), 0, 'no resize corner');
  t.match(await v.getByTestId('dash-overrides').textContent(), 'Each tile over its own dates', 'the range and filters are shown, not offered');

  // A viewer looks at the last week: every tile asks its insight over it, and nothing is saved.
  const funnelInsight = (await api('GET', '/insights')).body.items.find((i: { name: string }) => i.name === 'Signup funnel');
  const week = (await api('POST', `/insights/${funnelInsight.id}/result`, { date_from: lastWeek, date_to: today }, (await login(server, viewer.email, TEST_PASSWORD)).token!)).body;
  t.not(funnelCounts(week).join(), funnelCounts(await ask('funnel', FUNNEL)).join(), 'the week differs from the saved range');
  await v.getByRole('button', { name: '7 days', exact: true }).click();
  t.same(
    await eventually(
      'the week on the tile',
      () => drawnFunnel(tileNamed(v, 'Signup funnel')),
      (c) => c.join() === funnelCounts(week).join(),
    ),
    funnelCounts(week),
  );
  t.equal((await api('GET', `/dashboards/${dashboardId}`)).body.date_from, null, 'the dashboard keeps its dates');
  const saved = funnelCounts(await ask('funnel', FUNNEL));
  await v.getByRole('button', { name: "Back to the dashboard's dates" }).click();
  t.same(
    await eventually(
      'the saved range again',
      () => drawnFunnel(tileNamed(v, 'Signup funnel')),
      (c) => c.join() === saved.join(),
    ),
    saved,
  );
  await buildFunnel(v);
  t.equal(await v.getByRole('button', { name: 'Save / Add to dashboard' }).count(), 0, 'no save on insight pages');
  await v.goto(`${base}/insights/saved`);
  await v.getByTestId('saved-insights').waitFor();
  t.equal(await v.getByRole('button', { name: /^Delete/ }).count(), 0, 'no delete in the saved insights');
  await checkAccessible(t, v, 'dashboard as a viewer');
  checkClean(t, viewerTab);
});

t.test('an owner shares the dashboard: the public view shows the same numbers and nothing else, until revoked', async (t) => {
  await api('PATCH', `/dashboards/${dashboardId}`, { date_from: lastWeek, date_to: today });
  const ownerTab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const o = ownerTab.page;
  await openFromNavigation(o, 'Dashboards');
  await o.getByTestId('dashboards').getByRole('link', { name: 'Growth' }).click();
  await o.getByRole('button', { name: 'Share' }).click();
  const dialog = o.getByTestId('share-dialog');
  await dialog.getByLabel('The link expires').selectOption({ label: 'in 7 days' });
  await dialog.getByRole('button', { name: 'Create a link' }).click();
  const address = (await dialog.getByTestId('share-url').textContent())!;
  t.match(address, new RegExp(`^${server.url}/shared/pps_[A-Za-z0-9_-]+$`), 'the whole address of the link');
  const links = (await api('GET', '/share-links')).body.items;
  t.equal(links.length, 1);
  t.match(links[0], { target: { kind: 'dashboard', id: dashboardId, name: 'Growth' } });
  t.ok(links[0].expires_at && Date.parse(links[0].expires_at) > Date.now() + 6 * 86_400_000, 'expires in about a week');
  await dialog.getByRole('row').nth(1).waitFor();
  await checkAccessible(t, o, 'share dialog');

  const visitor = await openConsole(browser, server, new URL(address).pathname);
  t.teardown(() => visitor.close());
  const p = visitor.page;
  await p.getByRole('heading', { name: 'Growth', level: 1 }).waitFor();
  const funnel = await ask('funnel', { ...FUNNEL, date_from: lastWeek, date_to: today });
  t.same(
    await eventually(
      'the shared funnel',
      () => drawnFunnel(tileNamed(p, 'Signup funnel')),
      (c) => c.length === 2,
    ),
    funnelCounts(funnel),
    'the funnel with the dashboard’s range',
  );
  const pages = await ask('segmentation', { ...SEGMENTATION, date_from: lastWeek, date_to: today });
  t.equal(
    await eventually(
      'the shared page views',
      () => drawnTotal(tileNamed(p, 'Page views')).catch(() => NaN),
      (n) => !Number.isNaN(n),
    ),
    segmentationTotal(pages),
  );
  t.same(await visitor.context.cookies(), [], 'no cookie in the visitor’s browser');
  t.equal(await p.getByRole('navigation').count(), 0, 'no navigation');
  t.same(await p.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [], 'no link anywhere (no events, no project pages)');
  t.equal(await p.getByRole('button', { name: /Move|Remove|Wider|Share|Save/ }).count(), 0, 'no write control');
  t.equal(await p.getByText(owner.email).count(), 0, 'no member named');
  await checkAccessible(t, p, 'shared dashboard');
  checkClean(t, visitor);

  await dialog.getByRole('button', { name: new RegExp(`^Revoke link ${links[0].id},`) }).click();
  await eventually(
    'the link revoked',
    async () => (await api('GET', '/share-links')).body.items.length,
    (n) => n === 0,
  );
  await p.reload();
  await p.getByText('This link has expired or was revoked').waitFor();
  t.equal(await p.locator('[data-testid=dash-tile]').count(), 0, 'no figure after revoking');
  await checkAccessible(t, p, 'revoked link');
  checkClean(t, ownerTab);
});

t.test('a shared insight opens alone; an unknown token says the link is gone', async (t) => {
  const insight = (await api('GET', '/insights')).body.items.find((i: { name: string }) => i.name === 'Page views');
  const link = await api('POST', '/share-links', { insight_id: insight.id });
  t.equal(link.status, 201);
  const visitor = await openConsole(browser, server, link.body.url_path);
  t.teardown(() => visitor.close());
  await visitor.page.getByRole('heading', { name: 'Page views', level: 1 }).waitFor();
  const answer = visitor.page.getByTestId('insight-answer');
  t.equal(
    await eventually(
      'the shared insight',
      () => drawnTotal(answer).catch(() => NaN),
      (n) => !Number.isNaN(n),
    ),
    segmentationTotal(await ask('segmentation', SEGMENTATION)),
    'its own saved dates',
  );
  await visitor.page.goto('/shared/pps_unknown');
  await visitor.page.getByText('This link has expired or was revoked').waitFor();
  t.equal(await visitor.page.getByRole('navigation').count(), 0);
  checkClean(t, visitor);
});
