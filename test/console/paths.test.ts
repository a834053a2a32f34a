// The paths insight and the path-cleaning rules in chromium against the real server, on hand-made
// page views and events of six people: the units, the routes and the graph's nodes drawn must be
// the API's answer to the same question; a node picked with the mouse or the keyboard anchors the
// query on it (in the URL, answered anew); a rule added in the project settings cleans a tried URL
// and, saved, the routes; a bad pattern shows the server's message; viewers only read the rules.

import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, org, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

const today = UTC_TODAY;
const from = daysBefore(6);
const day = daysBefore(2);

/** One person's route, a minute per item: a path is a page view of that path, anything else an event. */
function route(who: string, items: string[]): SeedEvent[] {
  return items.map((item, i) => ({
    ...(item.startsWith('/') ? { event: 'pp.page_view', url: `https://shop.example${item}?ref=mail` } : { event: item }),
    ts: `${day}T12:${String(i).padStart(2, '0')}:00Z`,
    user_id: who,
    session_id: `${who}-s1`,
  }));
}

await seedEvents(server, project.id, [
  ...route('u1', ['/home', '/pricing', 'signup', '/users/42']),
  ...route('u2', ['/home', '/pricing', 'signup', '/users/7']),
  ...route('u3', ['/home', '/docs', '/pricing', 'purchase']),
  ...route('u4', ['/home', '/pricing', 'purchase']),
  ...route('u5', ['/blog', '/home', '/pricing']),
  ...route('u6', ['/home', '/docs']),
]);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const base = `/projects/${project.id}`;

const QUERY = { date_from: from, date_to: today, direction: 'after', depth: 5, mode: 'actor', min_count: 1, top_n: 20 };
const ask = (selected: string) => askQuery(server, token, project.id, 'paths', { ...QUERY, selected_event: selected });

interface Route {
  items: string[];
  count: number;
  share: number;
}

/** The routes table as drawn: rank, route, count, share. */
function routesOnPage(p: Page): Promise<string[][]> {
  return p
    .getByTestId('paths-routes')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
}

/** The same rows from the API's answer, counts and shares as the page formats them. */
const routesOf = (routes: Route[]) => routes.map((r, i) => [String(i + 1), r.items.join(' → '), r.count.toLocaleString('en-US'), `${(r.share * 100).toFixed(1)}%`]);

/** Paths opened from the navigation over the last week, anchored on `selected` typed into its field. */
async function openPaths(p: Page, selected = 'pp.page_view'): Promise<void> {
  await openFromNavigation(p, 'Paths');
  await p.getByRole('button', { name: '7 days' }).click();
  if (selected !== 'pp.page_view') {
    await p.getByLabel('Selected event or page').fill(selected);
    await p.getByLabel('Selected event or page').press('Enter');
  }
  await eventually(
    'the paths built',
    async () => new URL(p.url()).searchParams,
    (q) => q.get('range') === 'last_7_days' && (q.get('event') ?? 'pp.page_view') === selected,
  );
}

const selectedInUrl = () => new URL(page.url()).searchParams.get('event');

t.test('the routes after any page view, as the API answers them', async (t) => {
  await openPaths(page);
  await page.getByTestId('paths-routes').waitFor();
  const expected = await ask('pp.page_view');
  t.equal(expected.units, 6, 'six people viewed a page');
  t.match(await page.getByTestId('paths-units').textContent(), `${expected.units} people`, 'the units counted, as people');
  t.same(await routesOnPage(page), routesOf(expected.routes), 'every route, its count and share');
  await page.locator('[data-testid=sankey][data-drawn=whole]').waitFor();
  const drawn = await page.locator('[data-testid=sankey] rect.sankey-node').evaluateAll((rects) => rects.map((r) => [Number(r.getAttribute('data-step')), r.getAttribute('data-item')]));
  t.same(
    drawn,
    expected.sankey.nodes.map((n: { step: number; item: string }) => [n.step, n.item]),
    'a bar per node of the graph, in the API order',
  );
  t.equal(await page.locator('svg[role=img][aria-label^="Routes after pp.page_view"]').count(), 1, 'the graph is a labelled image');
  t.ok(
    expected.sankey.nodes.some((n: { item: string }) => n.item === '$end'),
    'some routes end within the steps',
  );
  t.ok((await page.locator('[data-testid=sankey] text', { hasText: 'Route ends' }).count()) > 0, '$end is drawn as "Route ends"');
  await checkAccessible(t, page, 'paths');
});

t.test('a node clicked, then one picked with the keyboard, anchors the query on its item', async (t) => {
  await page.locator('.sankey-pick[data-item="/pricing"]').first().click();
  await eventually(
    'the anchor in the URL',
    async () => selectedInUrl(),
    (e) => e === '/pricing',
  );
  t.equal(await page.getByLabel('Selected event or page').inputValue(), '/pricing', 'the field follows');
  const pricing = await ask('/pricing');
  t.same(
    await eventually(
      'the routes after /pricing',
      () => routesOnPage(page),
      (rows) => JSON.stringify(rows) === JSON.stringify(routesOf(pricing.routes)),
    ),
    routesOf(pricing.routes),
  );
  await page.locator('[data-testid=sankey][data-drawn=whole]').waitFor();
  t.equal(await page.locator('[data-testid=sankey] rect.sankey-node').count(), pricing.sankey.nodes.length, 'the graph redrawn');

  await page.locator('.sankey-pick[data-item="signup"]').first().focus();
  await page.keyboard.press('Enter');
  await eventually(
    'the keyboard anchor in the URL',
    async () => selectedInUrl(),
    (e) => e === 'signup',
  );
  const signup = await ask('signup');
  t.same(
    await eventually(
      'the routes after signup',
      () => routesOnPage(page),
      (rows) => JSON.stringify(rows) === JSON.stringify(routesOf(signup.routes)),
    ),
    routesOf(signup.routes),
  );
  t.same(
    signup.routes.map((r: Route) => r.items),
    [
      ['signup', '/users/42'],
      ['signup', '/users/7'],
    ],
    'each user page its own item before any rule',
  );
});

t.test('a graph wider than the window shows its first screen, then all of it with its buttons', async (t) => {
  const narrow = await page.context().newPage();
  t.teardown(() => narrow.close());
  await narrow.setViewportSize({ width: 480, height: 900 });
  // What the page holds when it marks its chart as drawn (the first pass, painted).
  await narrow.addInitScript(`{
    const mark = performance.mark.bind(performance);
    performance.mark = (name, options) => {
      if (name === 'pp:drawn') window.drawnNodes = document.querySelectorAll('rect.sankey-node').length;
      return mark(name, options);
    };
  }`);
  await narrow.goto(base);
  await openPaths(narrow);
  await narrow.locator('[data-testid=sankey][data-drawn=whole]').waitFor();
  const expected = await ask('pp.page_view');
  const firstScreen = (await narrow.evaluate('window.drawnNodes')) as number;
  t.ok(firstScreen > 0 && firstScreen < expected.sankey.nodes.length, `the first screen drew ${firstScreen} of ${expected.sankey.nodes.length} nodes`);
  const drawn = await narrow.locator('[data-testid=sankey] rect.sankey-node').evaluateAll((rects) => rects.map((r) => [Number(r.getAttribute('data-step')), r.getAttribute('data-item')]));
  t.same(
    drawn,
    expected.sankey.nodes.map((n: { step: number; item: string }) => [n.step, n.item]),
    'then every node',
  );
  const named = expected.sankey.nodes.filter((n: { item: string }) => n.item !== '$end' && n.item !== '$other');
  t.equal(await narrow.locator('.sankey-pick').count(), named.length, 'and a button on every named node');
});

t.test('broken down by a property of the selected event, one segment at a time', async (t) => {
  await openPaths(page);
  await chooseWithKeyboard(page, page.getByLabel('Break down by (on the selected event)'), 'path');
  await page.getByLabel('Segment').waitFor();
  const expected = await askQuery(server, token, project.id, 'paths', { ...QUERY, selected_event: 'pp.page_view', breakdown: { property: 'path', limit: 5 } });
  const segments = expected.breakdown as Array<{ name: string; units: number; routes: Route[] }>;
  t.same(
    segments.map((g) => [g.name, g.units]),
    [
      ['/home', 5],
      ['/blog', 1],
    ],
    'the first page of each person',
  );
  t.same(await page.getByLabel('Segment').locator('option').allTextContents(), ['all (6)', '/home (5)', '/blog (1)']);
  t.same(await routesOnPage(page), routesOf(expected.routes), 'all segments together first');
  await page.getByLabel('Segment').selectOption('/blog');
  const blog = segments.find((g) => g.name === '/blog')!;
  t.same(
    await eventually(
      'the /blog segment',
      () => routesOnPage(page),
      (rows) => JSON.stringify(rows) === JSON.stringify(routesOf(blog.routes)),
    ),
    routesOf(blog.routes),
  );
  t.equal(new URL(page.url()).searchParams.get('segment'), '/blog', 'in the URL');
  t.match(await page.getByTestId('paths-units').textContent(), '1 person ·');
});

t.test('an empty answer and a refused question say so', async (t) => {
  await openPaths(page, 'never_sent');
  await page.getByText('No people with never_sent').waitFor();
  t.equal((await ask('never_sent')).units, 0, 'the API counts nobody');
  await openPaths(page, 'signup');
  await page.getByLabel('Steps', { exact: true }).fill('30');
  await page.getByLabel('Steps', { exact: true }).press('Enter');
  const refused = await server.request('POST', `/api/v1/projects/${project.id}/queries/paths`, { token, body: { ...QUERY, depth: 30, selected_event: 'signup' } });
  t.equal(refused.status, 422);
  t.match(await page.locator('.error-note').textContent(), refused.body.error.message, "the server's message");
  // The sessions choice is disabled without the license, so only a link shared by a licensed
  // project's member asks for it.
  await page.goto(`${base}/insights/paths?event=signup&mode=session&from=${from}&to=${today}`);
  await page.locator('.gated[data-feature=actor_drilldown]').waitFor();
  t.equal(await page.getByTestId('paths-routes').count(), 0, 'sessions without the license: explained, not asked');
  t.equal(await page.getByLabel('Count', { exact: true }).locator('option[value=session]').textContent(), 'sessions (needs a license)');
});

t.test('left out: a name from the list drops its item; text that names nothing is refused, not kept', async (t) => {
  await openPaths(page);
  const field = page.getByLabel('Leave out');
  await field.fill('/nowhere');
  await field.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'No event or page is named “/nowhere” here; choose one from the list.' }).waitFor();
  t.equal(new URL(page.url()).searchParams.get('exclude'), null, 'nothing left out');
  await field.fill('/docs');
  await field.press('Enter');
  await eventually(
    '/docs left out',
    async () => page.url(),
    (u) => new URL(u).searchParams.get('exclude') === '/docs',
  );
  t.equal(await page.getByRole('alert').filter({ hasText: '/nowhere' }).count(), 0, 'the refusal is gone once a name is taken');
  await page.getByTestId('paths-routes').waitFor();
  const expected = await askQuery(server, token, project.id, 'paths', { ...QUERY, selected_event: 'pp.page_view', exclude_events: ['/docs'] });
  await eventually(
    'the routes without /docs',
    () => routesOnPage(page),
    (rows) => JSON.stringify(rows) === JSON.stringify(routesOf(expected.routes)),
  );
  t.notOk(
    expected.routes.some((r: Route) => r.items.includes('/docs')),
    'no route passes /docs',
  );
  await checkAccessible(t, page, 'paths with an item left out');
  await page.getByRole('button', { name: 'Remove /docs' }).click();
  await eventually(
    'nothing left out',
    async () => page.url(),
    (u) => new URL(u).searchParams.get('exclude') === null,
  );
});

t.test('a rule tried, saved, and used by the paths', async (t) => {
  await page.goto(`${base}/settings`);
  await page.getByRole('heading', { name: 'Path cleaning' }).waitFor();
  await page.getByText('Revision 0').waitFor();
  await page.getByRole('button', { name: 'Edit the rules' }).click();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  await page.getByLabel('Rule 1 pattern').fill('/users/\\d+');
  await page.getByLabel('Rule 1 alias').fill('/users/:id');
  await page.getByLabel('URL or path').fill('/users/42');
  await page.getByRole('button', { name: 'Try', exact: true }).click();
  await page.getByTestId('cleaned-path').waitFor();
  t.equal(await page.getByTestId('cleaned-path').textContent(), '/users/:id', 'the tried URL, cleaned by the unsaved rule');
  const steps = await page
    .getByTestId('cleaning-steps')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
  t.same(steps, [['1', '/users/\\d+', '/users/:id', 'yes', '/users/:id']], 'the step: matched, and its result');
  t.equal((await server.request('GET', `/api/v1/projects/${project.id}/path-cleaning`, { token })).body.revision, 0, 'trying saved nothing');

  await page.getByRole('button', { name: 'Save the rules' }).click();
  await page.getByText('Revision 1').waitFor();
  const saved = (await server.request('GET', `/api/v1/projects/${project.id}/path-cleaning`, { token })).body;
  t.same(saved.rules, [{ pattern: '/users/\\d+', alias: '/users/:id' }], 'saved through the API');
  await checkAccessible(t, page, 'project settings with path cleaning');

  await openPaths(page, 'signup');
  await page.getByTestId('paths-routes').waitFor();
  const cleaned = await ask('signup');
  t.same(
    cleaned.routes.map((r: Route) => [r.items, r.count]),
    [[['signup', '/users/:id'], 2]],
    'the API folds both user pages into one',
  );
  // The table drawn for the query built, not the one the page showed before it was answered.
  const drawnRoutes = await eventually(
    'the cleaned routes drawn',
    () => routesOnPage(page),
    (rows) => JSON.stringify(rows) === JSON.stringify(routesOf(cleaned.routes)),
  );
  t.same(drawnRoutes, routesOf(cleaned.routes), 'and so does the page');
  await page.locator('[data-testid=sankey][data-drawn=whole]').waitFor();
  t.ok((await page.locator('.sankey-pick[data-item="/users/:id"]').count()) > 0, 'the cleaned path is a node');
});

t.test('a bad pattern shows the server message beside it', async (t) => {
  await page.goto(`${base}/settings`);
  await page.getByRole('button', { name: 'Edit the rules' }).click();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  await page.getByLabel('Rule 2 pattern').fill('(');
  await page.getByRole('button', { name: 'Save the rules' }).click();
  await page.locator('.rules .problem').waitFor();
  const refused = await server.request('PUT', `/api/v1/projects/${project.id}/path-cleaning`, {
    token,
    body: {
      rules: [
        { pattern: '/users/\\d+', alias: '/users/:id' },
        { pattern: '(', alias: '' },
      ],
    },
  });
  t.equal(refused.status, 422);
  t.equal(refused.body.error.details.field, 'rules[1].pattern');
  t.equal(await page.locator('.rules .problem').textContent(), refused.body.error.message, 'the 422 message, beside the second pattern');
  t.equal(await page.getByLabel('Rule 2 pattern').getAttribute('aria-invalid'), 'true');
  t.equal((await server.request('GET', `/api/v1/projects/${project.id}/path-cleaning`, { token })).body.revision, 1, 'nothing saved');
  checkClean(t, tab);
});

t.test('a viewer reads the rules and can try a URL, but not change them', async (t) => {
  const viewer = await addMember(server, org, 'viewer');
  const other = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  await other.page.goto(`${base}/settings`);
  await other.page.getByTestId('cleaning-rules').waitFor();
  t.same(await other.page.getByTestId('cleaning-rules').locator('tbody code').allTextContents(), ['/users/\\d+', '/users/:id']);
  t.equal(await other.page.getByRole('button', { name: 'Edit the rules' }).count(), 0, 'no editing');
  await other.page.getByLabel('URL or path').fill('https://shop.example/users/7/');
  await other.page.getByRole('button', { name: 'Try', exact: true }).click();
  await other.page.getByTestId('cleaned-path').waitFor();
  t.equal(await other.page.getByTestId('cleaned-path').textContent(), '/users/:id', 'with the saved rules');
  checkClean(t, other);
});
