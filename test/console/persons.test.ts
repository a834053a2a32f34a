// A person's page as a person reaches it: from the navigation to a funnel, its drop-offs, a click on
// one of them; the page's ids and numbers equal the API's; the recordings list and the events
// explorer lead to the same page; the download holds their events; deleting them from the page
// (confirmed) runs the job to the end, after which the funnel and the events list no longer show them.

import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';
import { launchChromium } from '../support/chromium.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { addressBuilt, checkAccessible, checkClean, daysBefore, openFromNavigation, signedInConsole } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
await grantEntitlements(server, ['actor_drilldown']);
const { owner, project } = await createTenant(server);
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
patchBehaviorSettings(server.running.services.meta, project.id, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
const browserKey = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
const serverKey = createIngestKey(server, project);
const ORIGIN = { origin: 'https://shop.example' };

// Dana views the pricing page twice in one session and never signs up; Eli views it and signs up.
const at = (daysAgo: number, hour: number) => `${daysBefore(daysAgo)}T${String(hour).padStart(2, '0')}:00:00Z`;
const dana = (event: string, ts: string) => ({ event, ts, anonymous_id: 'dana-anon-4', session_id: 'dana-session-1', url: 'https://shop.example/pricing' });
const accepted = await ingestEvents(
  server,
  browserKey,
  [
    dana('pp.page_view', at(3, 9)),
    dana('pp.page_view', at(2, 9)),
    { event: 'pp.page_view', ts: at(3, 10), anonymous_id: 'eli-anon-8', url: 'https://shop.example/pricing' },
    { event: 'signup', ts: at(3, 11), anonymous_id: 'eli-anon-8', url: 'https://shop.example/pricing' },
  ],
  { headers: ORIGIN },
);
if (accepted.body.accepted !== 4) throw new Error(`events refused: ${accepted.text}`);
const chunk = {
  credential: browserKey.value,
  session_id: 'dana-session-1',
  anonymous_id: 'dana-anon-4',
  seq: 0,
  events: [{ type: 4, timestamp: Date.parse(at(3, 9)), data: { href: 'https://shop.example/pricing', width: 800, height: 600 } }],
};
const recorded = await server.request('POST', '/v1/replay', { raw: JSON.stringify(chunk), headers: { 'content-type': 'text/plain', ...ORIGIN } });
if (recorded.body.accepted !== 1) throw new Error(`chunk refused: ${recorded.text}`);
if ((await ingestEvents(server, serverKey, [{ event: 'refund_asked', ts: at(1, 12), anonymous_id: 'dana-anon-4' }])).body.accepted !== 1) throw new Error('server event refused');

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const personApi = async (key: string) => server.request('GET', `/api/v1/projects/${project.id}/persons/${encodeURIComponent(key)}`, { token });

/** Dana's page, reached from the funnel's drop-offs. */
async function openDanaFromFunnel(): Promise<void> {
  await openFromNavigation(page, 'Funnels');
  await page.getByLabel('Step 1', { exact: true }).selectOption('pp.page_view');
  await page.getByLabel('Step 2', { exact: true }).selectOption('signup');
  await page.getByLabel('From', { exact: true }).fill(daysBefore(7));
  await addressBuilt(page, 'the funnel built', (q) => q.get('steps') === 'pp.page_view~signup' && q.get('from') === daysBefore(7));
  await page.getByRole('heading', { name: 'Who dropped off' }).waitFor();
  await page.getByRole('button', { name: 'Show people' }).click();
  // An empty list is in the page but takes no room.
  await page.getByTestId('dropped-actors').waitFor({ state: 'attached' });
}

t.test('from the funnel drop-offs to the person page, numbers as the API gives them', async (t) => {
  await openDanaFromFunnel();
  t.same(await page.getByTestId('dropped-actors').locator('code').allTextContents(), ['dana-anon-4'], 'Dana dropped off');
  await page.getByTestId('dropped-actors').getByRole('link', { name: 'Person dana-anon-4' }).click();
  await page.getByRole('heading', { name: 'Person dana-anon-4' }).waitFor();
  await page.getByTestId('person-summary').waitFor();

  const api = (await personApi('dana-anon-4')).body;
  t.match(api, { events: 3, labeled_events: 0, sessions: 1, recordings: 1 }, 'the hand count: two page views and a server event, one session, one recording');
  t.same(await page.getByTestId('person-ids').locator('code').allTextContents(), api.distinct_ids);
  t.equal(await page.getByTestId('person-actor').textContent(), api.actor_id);
  for (const [id, value] of [
    ['events', api.events],
    ['labeled-events', api.labeled_events],
    ['sessions', api.sessions],
    ['recordings', api.recordings],
  ] as const) {
    t.equal(Number((await page.getByTestId(`person-count-${id}`).textContent())!.replace(/,/g, '')), value, id);
  }
  t.equal(await page.getByTestId('person-first-seen').locator('time').getAttribute('datetime'), api.first_seen);
  t.equal(await page.getByTestId('person-last-seen').locator('time').getAttribute('datetime'), api.last_seen);
  const top = await page
    .getByTestId('person-top-events')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  t.same(
    top,
    api.top_events.map((e: { event: string; count: number }) => [e.event, String(e.count)]),
  );
  t.equal(await page.getByTestId('person-recent-events').locator('tbody tr.event-row').count(), api.events, 'their recent events');
  t.equal(
    await page
      .getByTestId('person-recordings')
      .getByRole('link', { name: /^Watch the recording/ })
      .count(),
    1,
    'a watch link to their recording',
  );
  await checkAccessible(t, page, 'a person page');
});

t.test('the recordings list and the events explorer open the same page', async (t) => {
  await openFromNavigation(page, 'Recordings');
  await page.getByTestId('recordings-table').getByRole('link', { name: 'Person dana-anon-4' }).click();
  await page.getByRole('heading', { name: 'Person dana-anon-4' }).waitFor();
  await openFromNavigation(page, 'Events');
  await page.getByTestId('events-table').getByRole('link', { name: 'Person dana-anon-4' }).first().click();
  await page.getByRole('heading', { name: 'Person dana-anon-4' }).waitFor();
  t.pass('reached from both');
});

t.test('download, then delete from the page, and they are gone', async (t) => {
  await page.getByTestId('person-summary').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download their data' }).click()]);
  const lines = (await readFile((await download.path())!, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string });
  t.match(download.suggestedFilename(), /^person-\d+-\d{4}-\d{2}-\d{2}\.ndjson$/);
  t.same(lines.filter((l) => l.type === 'event').length, 3, 'the download holds their three events');

  await page.getByRole('button', { name: 'Delete this person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete dana-anon-4?' });
  await dialog.getByRole('button', { name: 'Delete the person' }).click();
  const status = page.getByTestId('person-deletion-status');
  await page.locator('[data-testid=person-deletion-status][data-state=succeeded]').waitFor({ timeout: 20_000 });
  t.equal(await status.textContent(), 'The person was deleted: 3 events and 1 recording.');
  t.equal((await personApi('dana-anon-4')).status, 404, 'the API no longer knows them');

  await openDanaFromFunnel();
  t.equal(await page.getByTestId('dropped-actors').locator('code').count(), 0, 'nobody dropped off any more');
  await openFromNavigation(page, 'Events');
  await page.getByTestId('events-table').waitFor();
  t.equal(await page.getByTestId('events-table').getByRole('link', { name: 'Person dana-anon-4' }).count(), 0, 'none of their events is listed');
  t.equal(await page.getByTestId('events-table').locator('tbody tr.event-row').count(), 2, "Eli's two events stay");
  checkClean(t, tab);
});
