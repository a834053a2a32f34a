// The tracker in a real browser, as delivered: the documented snippet with SRI loads from the
// server's versioned path and its events arrive with X-PP-Tracker; /v1/t.js finds its modules
// at the versioned path; self-hosted copies find modules beside the core or, renamed, at the
// domain root; a module of another version is discarded and a tampered one refused by SRI,
// while page views and autocapture go on. Events are read back from the event store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { TRACKER_NAME, TRACKER_VERSION } from '../../sdk/browser/version.js';
import { launchChromium } from '../support/chromium.js';
import { startStaticServer } from '../sdk/support/staticServer.js';
import { createTrackedSite, elements, named, props, type TrackedSite } from '../sdk/support/trackedSite.js';
import { alterModule, copyBuild, readBuild, REPO_ROOT, type Manifest } from '../sdk/support/trackerBuild.js';
import { docSnippets, openTrackedPage, pageHtml, trackerTag, type TrackedPage } from '../sdk/support/trackerPage.js';
import { startTestServer } from '../support/testServer.js';

const TEST_TIMEOUT_MS = 30_000;
const VERSIONED = `/v1/sdk/browser/${TRACKER_VERSION}`;
const served = readBuild(path.join(REPO_ROOT, 'sdk/browser/dist', TRACKER_VERSION));

// The server's clock is real time here: the pages stamp events with the browser's clock.
const server = await startTestServer(t, { now: new Date() });
const browser = await launchChromium();
t.teardown(() => browser.close());
// Test pages live on one origin; self-hosted copies of the tracker on another (a "CDN").
const pages = await startStaticServer();
t.teardown(() => pages.close());
const cdn = await startStaticServer();
t.teardown(() => cdn.close());
const work = mkdtempSync(path.join(tmpdir(), 'pp-browser-builds-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

let pageCount = 0;
function servePage(html: string): string {
  pageCount += 1;
  return pages.put(`/site/page-${pageCount}.html`, html);
}

// Throws in the page after the module had its chance to start; diagnostics turns it into pp.js_error.
const THROW = (message: string): string => `setTimeout(() => { throw new Error(${JSON.stringify(message)}); }, 0)`;

t.test('the snippet with SRI loads from the versioned path and events arrive with X-PP-Tracker', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const manifest = (await server.request<Manifest>('GET', `${VERSIONED}/manifest.json`)).body;
  t.equal(manifest.assets.core.integrity, served.manifest.assets.core.integrity, 'the server serves the build the test reads');
  const site = await createTrackedSite(server, { privacy_mode: 'standard' });
  const tag = docSnippets(server.url, site.key.value).data;
  t.ok(tag.includes(`src="${server.url}${VERSIONED}/tracker.js"`), 'the documented tag loads the versioned path');
  t.ok(tag.includes(`integrity="${manifest.assets.core.integrity}"`), 'with the integrity of the manifest');
  t.ok(tag.includes('crossorigin="anonymous"'));
  const url = servePage(pageHtml({ title: 'Pricing', head: tag }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());

  t.equal(await tab.scriptOutcome(`${server.url}${VERSIONED}/tracker.js`), 'load', 'the core passed SRI and ran');
  t.equal(await tab.page.evaluate('pp.trackerVersion'), TRACKER_VERSION);
  await tab.page.evaluate(`pp.track('signup', { plan: 'pro', seats: 3 })`);

  const events = await site.waitForEvents('the page view and the manual event', (es) => named(es, 'pp.page_view').length === 1 && named(es, 'signup').length === 1);
  const view = named(events, 'pp.page_view')[0]!;
  t.equal(view.url, url);
  t.equal(view.path, new URL(url).pathname);
  t.same(props(view), { navigation: 'load', title: 'Pricing' });
  t.same(props(named(events, 'signup')[0]), { plan: 'pro', seats: 3 });
  for (const e of events) {
    t.equal(e.source, 'browser');
    t.equal(e.sdk_name, TRACKER_NAME);
    t.equal(e.sdk_version, TRACKER_VERSION);
    t.equal(e.key_id, site.key.prefix);
    t.equal(e.anonymous_id, view.anonymous_id, 'one anonymous id per visitor');
    t.equal(e.session_id, view.session_id);
    t.equal(e.invalid, false);
  }
  t.match(view.anonymous_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  const sent = (await tab.sent(`${server.url}/v1/track`)).filter((r) => r.method === 'POST');
  t.ok(sent.length >= 1, 'events went to /v1/track');
  for (const r of sent) {
    t.equal(r.headers['x-pp-tracker'], `${TRACKER_NAME}/${TRACKER_VERSION}`, 'X-PP-Tracker on every batch');
    t.match(r.headers['content-type'], /^application\/json/);
    t.equal(r.headers.cookie, undefined, 'no cookies');
  }
  const config = await tab.sent(`${server.url}/v1/config/${site.key.prefix}`);
  t.equal(config.length, 1, 'the configuration is asked for once');
});

t.test('/v1/t.js runs without integrity and finds its modules at the versioned path', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const site = await createTrackedSite(server, { diagnostics_enabled: true });
  // The documented stub queues pp.init until the async tag has run.
  const head = `${docSnippets(server.url, site.key.value).stub}<script async src="${server.url}/v1/t.js"></script>`;
  const url = servePage(pageHtml({ head }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());

  t.equal(await tab.scriptOutcome(`${server.url}${VERSIONED}/diagnostics.js`), 'load', 'diagnostics.js from the versioned path, with its integrity');
  await tab.page.evaluate(THROW('short-url-boom'));
  const events = await site.waitForEvents('pp.js_error', (es) => named(es, 'pp.js_error').length === 1 && named(es, 'pp.page_view').length === 1);
  t.match(props(named(events, 'pp.js_error')[0]), { kind: 'error', message: /short-url-boom/ });
  t.notOk(
    (await tab.sent(`${server.url}/v1/sdk/browser/`)).some((r) => !r.url.startsWith(`${server.url}${VERSIONED}/`)),
    'nothing from another version',
  );
});

t.test('a self-hosted copy in the versioned layout loads its modules from beside the core', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const site = await createTrackedSite(server, { diagnostics_enabled: true });
  const firstRequest = cdn.requests.length;
  cdn.putDir(`/assets/sdk/browser/${TRACKER_VERSION}`, served.dir);
  const src = cdn.url(`/assets/sdk/browser/${TRACKER_VERSION}/tracker.js`);
  const url = servePage(pageHtml({ head: trackerTag({ src, integrity: served.manifest.assets.core.integrity, key: site.key.value, host: server.url }) }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());

  t.equal(await tab.scriptOutcome(cdn.url(`/assets/sdk/browser/${TRACKER_VERSION}/diagnostics.js`)), 'load');
  await tab.page.evaluate(THROW('beside-boom'));
  await site.waitForEvents('pp.js_error', (es) => named(es, 'pp.js_error').length === 1);
  t.notOk(
    cdn.requests.slice(firstRequest).some((r) => r.path === `${VERSIONED}/diagnostics.js`),
    'not from the domain root',
  );
});

t.test('a renamed core finds its modules at the domain root of its origin', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const site = await createTrackedSite(server, { diagnostics_enabled: true });
  const firstRequest = cdn.requests.length;
  cdn.put('/js/analytics.js', served.file('tracker.js'));
  cdn.putDir(VERSIONED, served.dir);
  // The documented tag-plus-init snippet, pointing at the renamed copy.
  const head = docSnippets(server.url, site.key.value).init.replace(`${server.url}${VERSIONED}/tracker.js`, cdn.url('/js/analytics.js'));
  t.ok(head.includes(cdn.url('/js/analytics.js')) && head.includes(`host: "${server.url}"`));
  const url = servePage(pageHtml({ head }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());

  t.equal(await tab.scriptOutcome(cdn.url(`${VERSIONED}/diagnostics.js`)), 'load', 'fetched from /v1/sdk/browser/<version>/ of the core origin');
  await tab.page.evaluate(THROW('renamed-boom'));
  const events = await site.waitForEvents('pp.js_error', (es) => named(es, 'pp.js_error').length === 1 && named(es, 'pp.page_view').length === 1);
  t.match(props(named(events, 'pp.js_error')[0]), { message: /renamed-boom/ });
  t.notOk(
    cdn.requests.slice(firstRequest).some((r) => r.path.startsWith('/js/') && r.path !== '/js/analytics.js'),
    'nothing looked for beside the renamed core',
  );
  t.equal((await tab.sent(server.url)).filter((r) => r.url.includes('/sdk/browser/')).length, 0, 'nothing fetched from the pp host');
});

// Runs the altered build from the CDN with diagnostics and clicks enabled, and checks that
// page views (load and SPA), autocapture and manual events carry on without the module.
async function withoutDiagnostics(t: Test, name: string, alter: (name: string) => string, outcome: 'load' | 'error', debugLine: string): Promise<TrackedPage> {
  const integrity = alter(name);
  const site: TrackedSite = await createTrackedSite(server, { diagnostics_enabled: true, autocapture_clicks: true });
  const base = `/${name}/sdk/browser/${TRACKER_VERSION}`;
  cdn.putDir(base, path.join(work, name, TRACKER_VERSION));
  const head = trackerTag({ src: cdn.url(`${base}/tracker.js`), integrity, key: site.key.value, host: server.url, debug: true });
  const url = servePage(pageHtml({ head, body: '<button id="go">Go</button>' }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());

  t.equal(await tab.scriptOutcome('/tracker.js'), 'load', 'the core itself passed SRI');
  t.equal(await tab.scriptOutcome(cdn.url(`${base}/diagnostics.js`)), outcome);
  t.ok(await tab.consoleLine(debugLine), 'debug mode says why');
  await tab.page.evaluate(THROW(`${name}-boom`));
  await tab.page.evaluate(`history.pushState({}, '', '/site/next')`);
  await tab.page.click('#go');
  await tab.page.evaluate(`pp.track('still_here')`);

  // Requests leave in order, so once the last event is stored an earlier js_error would be too.
  const events = await site.waitForEvents('page views, the click and the manual event', (es) => named(es, 'still_here').length === 1);
  t.same(
    named(events, 'pp.page_view')
      .map((e) => props(e).navigation)
      .sort(),
    ['load', 'spa'],
  );
  t.equal(named(events, 'pp.click').length, 1, 'autocapture works');
  t.equal(elements(named(events, 'pp.click')[0])[0]?.id, 'go');
  t.same(named(events, 'pp.js_error'), [], 'the module did not run');
  t.same(named(events, 'pp.web_vital'), []);
  return tab;
}

t.test('a module that declares another version is discarded while page views go on', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  await withoutDiagnostics(
    t,
    'other-version',
    (name) => {
      const build = copyBuild(served, path.join(work, name));
      return alterModule(build, 'diagnostics', (source) => {
        if (!source.includes(`"${TRACKER_VERSION}"`)) throw new Error('diagnostics.js does not declare its version');
        return source.split(`"${TRACKER_VERSION}"`).join('"0.6.3"');
      });
    },
    'load',
    'module of another version discarded',
  );
});

t.test('a tampered module fails SRI and does not run; the rest goes on', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const tab = await withoutDiagnostics(
    t,
    'tampered',
    (name) => {
      const build = copyBuild(served, path.join(work, name));
      return alterModule(build, 'diagnostics', (source) => `window.__ppTampered = true;${source}`, { tamper: true });
    },
    'error',
    'module diagnostics failed to load',
  );
  t.ok(
    cdn.requests.some((r) => r.path === `/tampered/sdk/browser/${TRACKER_VERSION}/diagnostics.js`),
    'the file was served',
  );
  t.ok(await tab.consoleLine(`Failed to find a valid digest in the 'integrity' attribute`), 'the browser refused it for its integrity');
  t.equal(await tab.page.evaluate('window.__ppTampered'), undefined, 'no line of the tampered file ran');
});
