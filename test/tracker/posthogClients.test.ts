// The real PostHog clients against pp, unchanged but for their key and host: posthog-node from npm
// in this process, and posthog-js from npm on a local page in chromium. Their events arrive,
// identities merge, and a funnel over them counts the person once.

import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PostHog } from 'posthog-node';
import { launchChromium } from '../support/chromium.js';
import { startStaticServer } from '../sdk/support/staticServer.js';
import { createTrackedSite } from '../sdk/support/trackedSite.js';
import { openTrackedPage } from '../sdk/support/trackerPage.js';
import { accessTokenFor } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { resolveActor } from '../../server/ingest/identity.js';
import { startTestServer } from '../support/testServer.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { now: new Date() });
const today = new Date().toISOString().slice(0, 10);

t.test('posthog-node: capture, identify and alias, then a funnel', async (t) => {
  const site = await createTrackedSite(server);
  const key = createIngestKey(server, site.tenant.project);
  const client = new PostHog(key.value, { host: server.url, flushAt: 1, flushInterval: 0 });
  client.capture({ distinctId: 'node-user-1', event: 'signup', properties: { plan: 'pro' } });
  client.capture({ distinctId: 'node-user-1', event: 'purchase', properties: { revenue: 30 } });
  client.identify({ distinctId: 'node-user-1', properties: { email: 'ana@shop.example' } });
  client.alias({ distinctId: 'node-user-1', alias: 'crm-77' });
  client.capture({ distinctId: 'crm-77', event: 'purchase', properties: { revenue: 5 } });
  await client.shutdown();

  const events = await site.waitForEvents('the three events', (e) => e.length === 3);
  t.same(events.map((e) => e.event).sort(), ['purchase', 'purchase', 'signup']);
  t.ok(
    events.every((e) => e.sdk_name === 'posthog-node' && e.source === 'server'),
    'from posthog-node, a server client',
  );
  t.equal(await resolveActor(server.running.services, site.tenant.project.id, 'crm-77'), 'node-user-1', 'the alias joined the person');
  const token = await accessTokenFor(server, site.tenant.owner, site.tenant.org);
  const funnel = await server.request('POST', `/api/v1/projects/${site.tenant.project.id}/queries/funnel`, {
    token,
    body: { steps: [{ event: 'signup' }, { event: 'purchase' }], date_from: today, date_to: today },
  });
  t.equal(funnel.status, 200, funnel.text);
  t.same(
    funnel.body.steps.map((s: { count: number }) => s.count),
    [1, 1],
    'one person through both steps',
  );
});

t.test('posthog-js in chromium: page view, a click, identify', async (t) => {
  const site = await createTrackedSite(server);
  const pages = await startStaticServer();
  t.teardown(() => pages.close());
  const require = createRequire(import.meta.url);
  pages.put('/posthog.js', readFileSync(require.resolve('posthog-js/dist/array.js')));
  const url = pages.put(
    '/shop/index.html',
    `<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"><script src="/posthog.js"></script>
<script>posthog.init(${JSON.stringify(site.key.value)}, { api_host: ${JSON.stringify(server.url)}, autocapture: true, capture_pageview: true, disable_session_recording: true, advanced_disable_decide: false, request_batching: false, opt_out_useragent_filter: true });</script>
</head><body><main><button id="buy" class="cta">Buy now</button></main></body></html>`,
  );
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());
  await site.waitForEvents('the page view', (e) => e.some((x) => x.event === 'pp.page_view'));
  await tab.page.click('#buy');
  const withClick = await site.waitForEvents('the click', (e) => e.some((x) => x.event === 'pp.click'));
  const view = withClick.find((e) => e.event === 'pp.page_view')!;
  t.match(view, { url: `${pages.origin}/shop/index.html`, source: 'browser', sdk_name: 'web', user_id: null });
  t.ok(view.anonymous_id, 'an anonymous id, the device');
  const click = withClick.find((e) => e.event === 'pp.click')!;
  t.match(click.elements, /"tag":"button"/, 'the clicked element');
  t.match(click.elements, /"id":"buy"/);
  await tab.page.evaluate(`posthog.identify('js-user-1', { plan: 'team' })`);
  await eventually(
    'the device joined the user',
    () => resolveActor(server.running.services, site.tenant.project.id, view.anonymous_id),
    (a) => a === 'js-user-1',
  );
  t.pass('identify merged the anonymous device into the user');
  // No refused request, blocked read or complaint of the client on the page's console.
  t.same(
    tab.console.filter((l) => /Failed to load|CORS|error|PostHog/i.test(l)),
    [],
    'the console is quiet',
  );
});
