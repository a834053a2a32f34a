// From a key to live data, in chromium: an admin issues a browser token on the keys page, copies
// the tracker snippet it shows (pinned with the manifest's integrity), a site carrying that snippet
// sends events, and the live view shows them as they are stored; pausing holds new events back
// until resume; an event opens to its full JSON; the key is revoked from the page.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { startStaticServer } from '../sdk/support/staticServer.js';
import { openTrackedPage, pageHtml } from '../sdk/support/trackerPage.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server);
const browser = await launchChromium();
t.teardown(() => browser.close());
const site = await startStaticServer();
t.teardown(() => site.close());

t.test('issue a browser token, install the snippet, watch the events arrive', async (t) => {
  const tab = await openConsole(browser, server, `/projects/${project.id}/keys`);
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.waitForURL(/\/sign-in/);
  await signInThroughForm(page, owner.email, TEST_PASSWORD);
  await page.getByRole('heading', { name: 'Keys and tracker' }).waitFor();
  await page.getByText('No keys yet').waitFor();
  await checkAccessible(t, page, 'keys, empty');

  await page.getByLabel('Name', { exact: true }).fill('Marketing site');
  await page.getByLabel('Domains').fill('127.0.0.1');
  await page.getByRole('button', { name: 'Issue the key' }).click();
  const value = (await page.getByTestId('issued-key').textContent())!;
  t.match(value, /^pp_bt_[A-Za-z0-9]{8}/, 'the value is shown once');
  const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
  const listed = await server.request('GET', `/api/v1/projects/${project.id}/keys`, { token });
  t.same(
    listed.body.items.map((k: { name: string; type: string; domains: string[] }) => [k.name, k.type, k.domains]),
    [['Marketing site', 'browser', ['127.0.0.1']]],
  );
  await page.locator('table').getByText('Marketing site').waitFor();
  t.notOk(JSON.stringify(listed.body).includes(value), 'the API never lists the value');

  const snippet = (await page.getByTestId('tracker-snippet').textContent())!;
  const version = /\/v1\/sdk\/browser\/([\d.]+)\/tracker\.js/.exec(snippet)?.[1];
  const manifest = (await server.request('GET', `/v1/sdk/browser/${version}/manifest.json`)).body;
  t.ok(snippet.includes(`integrity="${manifest.assets.core.integrity}"`), 'the snippet carries the manifest integrity');
  t.ok(snippet.includes(`key: "${value}"`), 'and the key just issued');
  await checkAccessible(t, page, 'keys, with a key');

  await page.getByRole('link', { name: 'Live events' }).click();
  await page.getByTestId('stream-status').getByText('Live').waitFor();
  await checkAccessible(t, page, 'live events, waiting');

  const url = site.put('/shop/index.html', pageHtml({ title: 'Shop', body: snippet }));
  const visitor = await openTrackedPage(browser, url);
  t.teardown(() => visitor.context.close());
  const row = page.locator('.event-row', { hasText: 'pp.page_view' });
  await row.waitFor();
  t.match(await row.textContent(), url, 'the page view of the site shows up live');

  await page.getByRole('button', { name: 'Pause' }).click();
  await visitor.page.evaluate(`pp.track('checkout_started', { items: 2 })`);
  await page.getByRole('button', { name: 'Resume (1 new)' }).waitFor();
  t.equal(await page.locator('.event-row', { hasText: 'checkout_started' }).count(), 0, 'held back while paused');
  await page.getByRole('button', { name: 'Resume (1 new)' }).click();
  await page.locator('.event-row', { hasText: 'checkout_started' }).waitFor();
  await page.locator('.event-row', { hasText: 'checkout_started' }).getByRole('button').click();
  const json = JSON.parse((await page.locator('.event-json pre').textContent())!);
  t.match(json, { event: 'checkout_started', props: { items: 2 }, url });
  t.equal(Number(await page.getByTestId('dropped-count').textContent()), 0, 'nothing was left out');
  await checkAccessible(t, page, 'live events, with events');

  await page.getByRole('link', { name: 'Keys and tracker' }).click();
  await page.getByRole('button', { name: 'Revoke Marketing site' }).click();
  await page.getByRole('dialog', { name: 'Revoke Marketing site?' }).getByRole('button', { name: 'Revoke the key' }).click();
  await page.locator('.badge.revoked').waitFor();
  const after = await server.request('GET', `/api/v1/projects/${project.id}/keys`, { token });
  t.equal(after.body.items[0].status, 'revoked', 'revoked from the page');
  checkClean(t, tab);
});
