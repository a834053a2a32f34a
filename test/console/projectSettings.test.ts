// Project settings in chromium: the time zone and name saved through the API, what the project
// collects switched from the page, a key rotated (new value once, the old one revoked), and a
// project deleted only after its name is typed.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server);
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await openConsole(browser, server, `/projects/${project.id}/settings`);
t.teardown(() => tab.close());
const { page } = tab;
await page.waitForURL(/\/sign-in/);
await signInThroughForm(page, owner.email, TEST_PASSWORD);
await page.getByRole('heading', { name: 'Project settings' }).waitFor();

t.test('name and time zone', async (t) => {
  await checkAccessible(t, page, 'project settings');
  await page.getByLabel('Time zone').fill('Mars/Olympus');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.problem').waitFor();
  t.match(await page.locator('.problem').textContent(), /time zone|timezone/i, 'a bad zone is named beside the field');
  await page.getByLabel('Name', { exact: true }).fill('Storefront');
  await page.getByLabel('Time zone').fill('Asia/Tokyo');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  const saved = await server.request('GET', `/api/v1/projects/${project.id}`, { token });
  t.match(saved.body, { name: 'Storefront', timezone: 'Asia/Tokyo' });
  t.equal(await page.getByLabel('Project', { exact: true }).locator('option:checked').textContent(), 'Storefront', 'the project switcher follows');
});

t.test('what the project collects', async (t) => {
  const clicks = page.getByRole('switch', { name: 'Clicks' });
  await clicks.waitFor();
  const before = (await server.request('GET', `/api/v1/projects/${project.id}/behavior/settings`, { token })).body;
  await clicks.click();
  const settings = async () => (await server.request('GET', `/api/v1/projects/${project.id}/behavior/settings`, { token })).body;
  const after = await eventually('the clicks switch', settings, (now) => now.autocapture_clicks !== before.autocapture_clicks);
  t.equal(after.autocapture_clicks, !before.autocapture_clicks, 'switched through the API');
  await page.getByLabel('Privacy mode').selectOption('standard');
  t.equal((await eventually('the privacy mode', settings, (now) => now.privacy_mode === 'standard')).privacy_mode, 'standard');
});

t.test('a key rotated from the keys page', async (t) => {
  createIngestKey(server, project, { name: 'Backend' });
  await page.getByRole('link', { name: 'Keys and tracker' }).click();
  await page.getByRole('button', { name: 'Rotate Backend' }).click();
  const value = (await page.getByTestId('issued-key').textContent())!;
  t.match(value, /^pp_sk_/, 'the new value, once');
  const keys = (await server.request('GET', `/api/v1/projects/${project.id}/keys`, { token })).body.items;
  t.same(keys.map((k: { status: string }) => k.status).sort(), ['active', 'revoked'], 'the new key active, the old one revoked');
  await page.locator('.badge.revoked').waitFor();
});

t.test('deleting the project needs its name typed', async (t) => {
  await page.getByRole('link', { name: 'Project settings' }).click();
  await page.getByRole('heading', { name: 'Delete the project' }).waitFor();
  t.equal(await page.getByRole('button', { name: /^Delete Storefront/ }).count(), 0, 'no button before the name is typed');
  await page.getByLabel(/Type the project name/).fill('Storefront');
  await page.getByRole('button', { name: 'Delete Storefront' }).click();
  await page.getByText('This organization has no project yet').waitFor();
  t.equal((await server.request('GET', `/api/v1/projects/${project.id}`, { token })).status, 404, 'gone from the API');
  checkClean(t, tab);
});
