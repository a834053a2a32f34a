// Session recordings end to end, in chromium: a real page with the tracker's replay module is
// recorded (typing in a field, which the tracker masks, clicks and a navigation); the API lists the
// recording; a member opens it from the console's navigation and watches it: the player shows the
// recorded page with the typed text masked, its timeline and event list carry the session's events
// and seek. A hostile recording (a script node, an onerror attribute, a javascript: URL) runs
// nothing in the console.

import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, TEST_PASSWORD } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { startStaticServer } from '../sdk/support/staticServer.js';
import { createTrackedSite, named } from '../sdk/support/trackedSite.js';
import { openTrackedPage, pageHtml, trackerTag } from '../sdk/support/trackerPage.js';
import type { Manifest } from '../sdk/support/trackerBuild.js';
import { TRACKER_VERSION } from '../../sdk/browser/version.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, openConsole, openFromNavigation, signInThroughForm } from './consoleKit.js';

const TEST_TIMEOUT_MS = 90_000;
const VERSIONED = `/v1/sdk/browser/${TRACKER_VERSION}`;
// Typed into a field of the recorded page; the tracker masks every input.
const SECRET = 'Zebra-Quartz-4711';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
await grantEntitlements(server, ['actor_drilldown']);
const browser = await launchChromium();
t.teardown(() => browser.close());
const pages = await startStaticServer();
t.teardown(() => pages.close());
const manifest = (await server.request<Manifest>('GET', `${VERSIONED}/manifest.json`)).body;
const site = await createTrackedSite(server, { replay_enabled: true, replay_sample_rate: 1, privacy_mode: 'standard', autocapture_clicks: true });
const projectId = site.tenant.project.id;
const analyst = await addMember(server, site.tenant.org, 'analyst');
const recordingsOf = async () => (await server.request('GET', `/api/v1/projects/${projectId}/recordings`, { token: await accessTokenFor(server, site.tenant.owner, site.tenant.org) })).body;

/** The recorded page as rrweb rebuilt it, inside the player frame. */
const recordedPage = (page: Page) => page.frameLocator('iframe[title="Recorded page"]').frameLocator('.replayer-wrapper iframe');

async function watch(page: Page, sessionId: string): Promise<void> {
  await openFromNavigation(page, 'Recordings');
  await page.getByTestId('recordings-table').waitFor();
  await page
    .locator(`tr[data-session="${sessionId}"]`)
    .getByRole('link', { name: /^Watch/ })
    .click();
  await page.getByRole('heading', { name: 'Recording', level: 1 }).waitFor();
}

t.test('a recorded session is listed, played with its typed text masked, and its events seek', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const head = trackerTag({ src: `${server.url}${VERSIONED}/tracker.js`, integrity: manifest.assets.core.integrity, key: site.key.value, host: server.url, debug: true });
  pages.put('/site/next.html', pageHtml({ title: 'Next', head, body: '<h1>Second page</h1>' }));
  const first = pages.put(
    '/site/checkout.html',
    pageHtml({
      title: 'Checkout',
      head,
      body: `<h1>Checkout page</h1><form><input id="card" name="card" aria-label="Card"></form><button id="go" type="button" onclick="this.textContent = 'Gone'">Go</button> <a id="next" href="/site/next.html">Next page</a>`,
    }),
  );
  const visitor = await openTrackedPage(browser, first);
  t.teardown(() => visitor.close());
  await visitor.consoleLine('[pp] configuration');
  await visitor.scriptOutcome(`${server.url}${VERSIONED}/replay.js`);
  await visitor.page.click('#card');
  await visitor.page.keyboard.type(SECRET, { delay: 20 });
  await visitor.page.click('#go');
  await visitor.page.click('#next');
  await visitor.page.waitForURL('**/next.html');
  await visitor.consoleLine('[pp] configuration');
  await visitor.page.waitForTimeout(800);
  // Leaving sends the pending chunk at once.
  await visitor.page.goto(pages.url('/site/elsewhere.html'));

  const [view] = await site.waitForEvents('two page views and the click', (es) => named(es, 'pp.page_view').length === 2 && named(es, 'pp.click').length >= 2);
  const sessionId = view!.session_id as string;
  const listed = await eventually('the recording of both pages', recordingsOf, (b) => b.items?.length === 1 && b.items[0].page_views === 2 && b.items[0].duration_ms > 500);
  const recording = listed.items[0];
  t.equal(recording.session_id, sessionId);
  t.notOk((await site.everythingStored()).includes('Zebra'), 'the typed text was never stored');

  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await signInThroughForm(page, analyst.email, TEST_PASSWORD);
  await page.waitForURL(/\/projects\/\d+$/);
  await openFromNavigation(page, 'Recordings');
  const row = page.locator(`tr[data-session="${sessionId}"]`);
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  t.same([cells[1], cells[3], cells[4], cells[5], cells[6]], [recording.person, String(recording.page_views), String(recording.clicks), '0', '0'], 'the row shows the API’s person and counts');
  await checkAccessible(t, page, 'recordings list');

  await row.getByRole('link', { name: /^Watch/ }).click();
  await page.getByRole('heading', { name: 'Recording', level: 1 }).waitFor();
  const recorded = recordedPage(page);
  await recorded.getByText('Checkout page').waitFor({ timeout: 10_000 });
  t.equal(await page.getByRole('button', { name: 'Pause' }).count(), 1, 'it plays at once');
  await page.getByRole('button', { name: 'Pause' }).click();
  t.equal(await page.getByTestId('recording-pages').textContent(), String(recording.page_views));

  // The timeline and the event list carry the session's events; choosing one seeks there.
  const detail = (await server.request('GET', `/api/v1/projects/${projectId}/recordings/${sessionId}`, { token: await accessTokenFor(server, analyst, site.tenant.org) })).body;
  t.equal(await page.locator('.timeline-marks .mark-page').count(), 2, 'two page-view marks');
  t.equal(await page.locator('.timeline-marks .mark-click').count(), detail.clicks);
  const offsetOf = (e: { ts: string }) => Date.parse(e.ts) - Date.parse(detail.started_at);
  const shownAt = (e: { ts: string }) => `${Math.floor(offsetOf(e) / 60_000)}:${String(Math.floor(offsetOf(e) / 1000) % 60).padStart(2, '0')} `;
  const [, secondView] = detail.session_events.filter((e: { event: string }) => e.event === 'pp.page_view');
  // The last click on the first page: the field is filled by then.
  const lastClick = detail.session_events.filter((e: { event: string; ts: string }) => e.event === 'pp.click' && e.ts < secondView.ts).at(-1);
  await page.locator(`.player-events li[data-uuid="${lastClick.uuid}"] button`).click();
  await eventually(
    'the player at the last click',
    () => page.getByTestId('player-time').textContent(),
    (text) => text!.startsWith(shownAt(lastClick)),
    5_000,
  );
  // The tracker masked the field: what it recorded, and so what plays, is asterisks only.
  const typed = await eventually(
    'the typed field replayed',
    () => recorded.locator('#card').inputValue(),
    (v) => v.length > 0,
    10_000,
  );
  t.match(typed, /^\*+$/, `the field shows ${typed}`);
  t.notOk((await recorded.locator('body').innerHTML()).includes('Zebra'), 'nowhere in the recorded page');

  await page.locator(`.player-events li[data-uuid="${secondView.uuid}"] button`).click();
  await eventually(
    'the player at the second page view',
    () => page.getByTestId('player-time').textContent(),
    (text) => text!.startsWith(shownAt(secondView)),
    5_000,
  );
  // The next page's snapshot follows its page view by the time its tracker takes to start.
  await page.getByLabel('Speed').selectOption('4');
  await page.getByRole('button', { name: 'Play' }).click();
  await recorded.getByText('Second page').waitFor({ timeout: 10_000 });
  t.equal(await page.getByTestId('person-link').getAttribute('href'), `/projects/${projectId}/events?actor_id=${encodeURIComponent(recording.person)}`, 'a link to the person');
  await checkAccessible(t, page, 'the player');

  // The person: their events, and from there their recordings.
  await page.getByTestId('person-link').click();
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  await page.getByRole('link', { name: "Watch this person's recordings" }).click();
  await page.getByTestId('recordings-table').waitFor();
  t.same(await page.locator('tr[data-session]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session'))), [sessionId], "the person's recordings");

  // In strict mode the text is masked as it leaves the server, whatever the recording held.
  await server.request('PATCH', `/api/v1/projects/${projectId}/behavior/settings`, { token: await accessTokenFor(server, site.tenant.owner, site.tenant.org), body: { privacy_mode: 'strict' } });
  await watch(page, sessionId);
  await recordedPage(page).locator('h1').first().waitFor({ timeout: 10_000 });
  t.equal(await recordedPage(page).locator('h1').first().textContent(), '******** ****', 'the heading masked');

  // From the events explorer, a browser event's row offers its session's recording.
  await openFromNavigation(page, 'Events');
  await page
    .locator('.event-row', { hasText: 'pp.click' })
    .first()
    .getByRole('link', { name: /^Watch the recording/ })
    .click();
  await page.getByRole('heading', { name: 'Recording', level: 1 }).waitFor();
  t.match(page.url(), `/recordings/${sessionId}`);

  // Project settings show what the recordings take.
  await openFromNavigation(page, 'Project settings');
  const storage = (await server.request('GET', `/api/v1/projects/${projectId}/replay-settings`, { token: await accessTokenFor(server, analyst, site.tenant.org) })).body;
  t.equal(storage.recordings, 1);
  t.match(await page.getByTestId('recordings-storage').textContent(), /^1 recording uses [\d.]+ (KB|MB) of storage/, 'the storage recordings use');
  checkClean(t, tab);
});

t.test('a hostile recording runs nothing in the console', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  await server.request('PATCH', `/api/v1/projects/${projectId}/behavior/settings`, { token: await accessTokenFor(server, site.tenant.owner, site.tenant.org), body: { privacy_mode: 'standard' } });
  const hit = (what: string) => `fetch('${pages.origin}/hostile/${what}'); window.top.__pwned = '${what}'`;
  const ts = Date.now() - 60_000;
  let id = 1;
  const el = (tagName: string, attributes: Record<string, string>, childNodes: unknown[] = []) => ({ type: 2, id: id++, tagName, attributes, childNodes });
  const text = (textContent: string) => ({ type: 3, id: id++, textContent });
  const node = {
    type: 0,
    id: id++,
    childNodes: [
      { type: 1, id: id++, name: 'html', publicId: '', systemId: '' },
      el('html', {}, [
        el('head', {}, [el('script', {}, [text(hit('head-script'))])]),
        el('body', { onload: hit('body-onload') }, [
          el('h1', {}, [text('Hostile page')]),
          el('script', {}, [text(hit('script'))]),
          el('img', { src: 'broken:', onerror: hit('onerror') }),
          el('a', { id: 'bad', href: `javascript:${hit('href')}` }, [text('Click me')]),
          el('iframe', { srcdoc: `<script>${hit('srcdoc')}</script>` }),
        ]),
      ]),
    ],
  };
  const bodyId = (node.childNodes[1] as { childNodes: Array<{ id: number }> }).childNodes[1]!.id;
  const events = [
    { type: 4, timestamp: ts, data: { href: `${pages.origin}/hostile.html`, width: 800, height: 600 } },
    { type: 2, timestamp: ts + 10, data: { node, initialOffset: { top: 0, left: 0 } } },
    // Added later by a mutation: another script and another handler.
    {
      type: 3,
      timestamp: ts + 500,
      data: {
        source: 0,
        texts: [],
        attributes: [],
        removes: [],
        adds: [
          { parentId: bodyId, nextId: null, node: el('img', { src: 'broken:', onerror: hit('mutation-onerror') }) },
          { parentId: bodyId, nextId: null, node: el('script', {}, [text(hit('mutation-script'))]) },
        ],
      },
    },
    { type: 3, timestamp: ts + 2000, data: { source: 1, positions: [{ x: 10, y: 10, id: bodyId, timeOffset: 0 }] } },
  ];
  const sent = await server.request('POST', '/v1/replay', {
    raw: JSON.stringify({ credential: site.key.value, session_id: 'hostile-session', anonymous_id: 'attacker', seq: 0, events }),
    headers: { 'content-type': 'text/plain', origin: pages.origin },
  });
  t.equal(sent.status, 202);

  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await signInThroughForm(page, analyst.email, TEST_PASSWORD);
  await page.waitForURL(/\/projects\/\d+$/);
  await watch(page, 'hostile-session');
  const recorded = recordedPage(page);
  await recorded.getByText('Hostile page').waitFor({ timeout: 10_000 });
  await recorded.locator('#bad').dispatchEvent('click');
  // Past the mutation, and the end of the recording.
  await page.waitForTimeout(3_000);

  const pwned = await page.evaluate(() => (globalThis as { __pwned?: string }).__pwned);
  t.equal(pwned, undefined, 'no recorded script set a global of the console');
  const frameGlobal = await page
    .frameLocator('iframe[title="Recorded page"]')
    .locator('body')
    .evaluate(() => (globalThis as { __pwned?: string }).__pwned);
  t.equal(frameGlobal, undefined, 'nor of the player frame');
  t.same(
    pages.requests.filter((r) => r.path.startsWith('/hostile/')),
    [],
    'no recorded script called out',
  );

  // The probe itself works: the same handler on a page of its own calls out.
  const control = await browser.newContext();
  t.teardown(() => control.close());
  await (await control.newPage()).goto(pages.put('/control.html', `<img src="broken:" onerror="${hit('control')}">`));
  await eventually(
    'the control page calling out',
    async () => pages.requests.map((r) => r.path),
    (paths) => paths.includes('/hostile/control'),
    5_000,
  );
});
