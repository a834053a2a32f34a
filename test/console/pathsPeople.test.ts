// The people of a paths graph in chromium, licensed: Paths opened from the navigation and built
// with its controls, a node clicked lists the people who passed there (as many as the API counts,
// the same ids), one of its links lists theirs; a person opens their page, and Watch (shown only
// for someone with recordings) leads to the player.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { launchChromium } from '../support/chromium.js';
import { createIngestKey } from '../support/ingest.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { eventually } from '../support/eventually.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, daysBefore, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
await grantEntitlements(server, ['actor_drilldown']);
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
patchBehaviorSettings(server.running.services.meta, project.id, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
const browserKey = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });

const day = daysBefore(2);
const at = (i: number) => `${day}T12:${String(i).padStart(2, '0')}:00Z`;

/** One person's route, a minute per item: a path is a page view of that path, anything else an event. */
function route(who: Partial<SeedEvent>, items: string[]): SeedEvent[] {
  return items.map((item, i) => ({ ...(item.startsWith('/') ? { event: 'pp.page_view', url: `https://shop.example${item}` } : { event: item }), ts: at(i), ...who }));
}

// anon-7 is recorded; the others are not. /pricing is only ever the second page.
await seedEvents(server, project.id, [
  ...route({ anonymous_id: 'anon-7', session_id: 'anon-7-s1' }, ['/home', '/pricing', 'signup']),
  ...route({ user_id: 'u2' }, ['/home', '/pricing', 'purchase']),
  ...route({ user_id: 'u3' }, ['/home', '/pricing']),
  ...route({ user_id: 'u4' }, ['/home', '/docs']),
]);
const chunk = {
  credential: browserKey.value,
  session_id: 'anon-7-s1',
  anonymous_id: 'anon-7',
  seq: 0,
  events: [{ type: 4, timestamp: Date.parse(at(0)), data: { href: 'https://shop.example/home', width: 800, height: 600 } }],
};
const recorded = await server.request('POST', '/v1/replay', { raw: JSON.stringify(chunk), headers: { 'content-type': 'text/plain', origin: 'https://shop.example' } });
if (recorded.body.accepted !== 1) throw new Error(`chunk refused: ${recorded.text}`);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

const QUERY = { date_from: daysBefore(6), date_to: UTC_TODAY, selected_event: 'pp.page_view', direction: 'after', depth: 3, mode: 'actor', min_count: 1, top_n: 20 };
const listed = () => page.getByTestId('paths-people').locator('code').allTextContents();

t.test('a node of the graph lists its people, as the API does', async (t) => {
  await openFromNavigation(page, 'Paths');
  await page.getByRole('button', { name: '7 days' }).click();
  await page.getByLabel('Steps', { exact: true }).fill('3');
  await page.getByLabel('Steps', { exact: true }).press('Enter');
  await addressBuilt(page, 'the paths built', (q) => q.get('range') === 'last_7_days' && q.get('depth') === '3');
  await page.locator('[data-testid=sankey][data-drawn=whole]').waitFor();

  await page.getByRole('button', { name: /^People at \/pricing \(3 people at step 1\)/ }).click();
  await page.getByRole('heading', { name: 'People at /pricing, step 1' }).waitFor();
  const api = await askQuery(server, token, project.id, 'paths/actors', { ...QUERY, step: 1, item: '/pricing' });
  t.equal(api.total, 3, 'the hand count: anon-7, u2 and u3 went on to /pricing');
  t.equal(await page.getByTestId('paths-people-count').textContent(), `${api.total} people`, 'the count drawn is the API total');
  await page.getByTestId('paths-people').waitFor();
  t.same(
    await listed(),
    api.items.map((a: { actor_id: string }) => a.actor_id),
    'the same people, in the same order',
  );
  t.equal(
    await page
      .getByTestId('paths-people')
      .getByRole('link', { name: /^Watch the recordings of/ })
      .count(),
    1,
    'only the recorded person can be watched',
  );
  await checkAccessible(t, page, 'the people of a paths node');
});

t.test('a link of the node lists its own people; a person opens their page, Watch the player', async (t) => {
  await page.getByRole('button', { name: 'to signup (1)' }).click();
  await page.getByRole('heading', { name: 'People from /pricing (step 1) to signup (step 2)' }).waitFor();
  const api = await askQuery(server, token, project.id, 'paths/actors', { ...QUERY, step: 1, item: '/pricing', next_item: 'signup' });
  t.same(api.items, [{ actor_id: 'anon-7', recorded: true }]);
  t.same(await eventually('the link listed', listed, (ids) => ids.length === 1), ['anon-7']);
  t.equal(await page.getByTestId('paths-people-count').textContent(), '1 person');

  await page.getByTestId('paths-people').getByRole('link', { name: 'Person anon-7' }).click();
  await page.getByRole('heading', { name: 'Person anon-7' }).waitFor();
  await page.goBack();
  // A pick is not kept in the address: back on the graph, the node is picked again.
  await page.locator('[data-testid=sankey][data-drawn=whole]').waitFor();
  await page.getByRole('button', { name: /^People at \/pricing/ }).click();
  await page.getByRole('button', { name: 'to signup (1)' }).click();
  await page.getByTestId('paths-people').getByRole('link', { name: 'Watch the recordings of anon-7' }).click();
  await page.getByTestId('recordings-table').waitFor();
  await page
    .locator('tr[data-session="anon-7-s1"]')
    .getByRole('link', { name: /^Watch/ })
    .click();
  await page.getByRole('heading', { name: 'Recording', level: 1 }).waitFor();
  t.pass('the player opened');
  checkClean(t, tab);
});
