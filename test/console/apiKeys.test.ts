// Personal API keys in chromium, the way a person does it: open the account page from the
// navigation, create a key with the form's controls, copy the value shown once, use it from a
// script (fetch, as curl would), see its last use in the list, revoke it with the confirm button.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, chooseWithKeyboard, signedInConsole } from './consoleKit.js';

const browser = await launchChromium();
t.teardown(() => browser.close());

t.test('create, use, watch and revoke a personal API key from the account page', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  const { owner, project } = await createTenant(server);
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;

  await page.getByRole('navigation', { name: 'Account' }).getByRole('link').click();
  const card = page.getByRole('group', { name: 'API keys' });
  await card.waitFor();
  await card.getByLabel('Key name').fill('Grafana');
  t.ok(await card.getByRole('checkbox', { name: /^Read/ }).isChecked(), 'read is ticked to begin with');
  await card.getByRole('checkbox', { name: /^Write/ }).check();
  await chooseWithKeyboard(page, card.getByLabel('Project'), project.name);
  await card.getByRole('button', { name: 'Create key' }).click();
  const shown = card.getByTestId('issued-api-key');
  await shown.waitFor();
  const value = (await shown.textContent())!;
  t.match(value, /^pp_pk_[A-Za-z0-9]{40}$/, 'the value is shown once');
  await checkAccessible(t, page, 'account with an API key');

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${value}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  t.equal((await call('GET', `/api/v1/projects/${project.id}/events`)).status, 200, 'the key reads');
  const saved = await call('POST', `/api/v1/projects/${project.id}/insights`, { name: 'From a script', kind: 'lifecycle', query: { date_from: '2026-10-01', date_to: '2026-10-31' } });
  t.equal(saved.status, 201, 'and writes, with the write scope');
  t.equal((await call('GET', `/api/v1/projects/${project.id}/keys`)).status, 403, 'but has no admin scope');

  // Opened again from the navigation, the list shows what the API lists: the prefix, scopes, project and a last use.
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Saved insights' }).click();
  await page.getByRole('link', { name: 'From a script' }).waitFor();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link').click();
  const row = card.getByTestId('api-keys').locator('tbody tr', { hasText: 'Grafana' });
  await row.waitFor();
  const listed = (await server.request('GET', '/api/v1/me/api-keys', { token: await tokenOf(server, owner.email) })).body.items[0];
  const cells = await row.locator('td').allTextContents();
  t.equal(cells[1], listed.prefix);
  t.equal(cells[2], 'read, write');
  t.equal(cells[3], project.name);
  t.not(cells[5], 'never', 'the last use is listed');
  t.equal(cells[6], 'active');

  await row.getByRole('button', { name: 'Revoke Grafana' }).click();
  await page.getByRole('button', { name: 'Revoke the key' }).click();
  await row.getByText('revoked').waitFor();
  t.equal((await call('GET', `/api/v1/projects/${project.id}/events`)).status, 401, 'revoked on the page, refused at once');
  checkClean(t, tab);
});

async function tokenOf(server: Awaited<ReturnType<typeof startTestServer>>, email: string): Promise<string> {
  const res = await server.request('POST', '/api/v1/auth/login', { body: { email, password: TEST_PASSWORD } });
  return res.body.access_token as string;
}
