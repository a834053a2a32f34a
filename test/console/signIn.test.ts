// Signing in to the console in chromium: the password and the MFA step, the error the API gives
// shown as is, a reload kept signed in by the refresh cookie, the forced change of the one-time
// password printed at first start, sign-out. Each page is checked with axe-core.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS, enableMfaOverHttp, totpAt } from '../auth/authTestKit.js';
import { ensureDemoAccount } from '../../server/accounts/demoAccount.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';

// Registration open (legacy), as the registration case needs; the closed default has its own server.
const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, signup_mode: 'legacy' }, now: new Date() });
const browser = await launchChromium();
t.teardown(() => browser.close());

t.test('password and second factor, then the project overview; a reload stays signed in', async (t) => {
  const { owner, project } = await createTenant(server);
  const { secret } = await enableMfaOverHttp(server, (await login(server, owner.email, TEST_PASSWORD)).token!);
  const tab = await openConsole(browser, server, `/projects/${project.id}/keys`);
  t.teardown(() => tab.close());
  const { page } = tab;

  await page.waitForURL(/\/sign-in\?next=/);
  await page.getByRole('heading', { name: 'Sign in to pp' }).waitFor();
  await checkAccessible(t, page, 'sign-in');

  await signInThroughForm(page, owner.email, 'Wrong-Pass-1');
  const refused = await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: 'Wrong-Pass-1' } });
  await page.getByRole('alert').waitFor();
  t.equal((await page.getByRole('alert').textContent())?.trim(), `${refused.body.error.message} (${refused.body.error.code})`, 'the API message, as the API gives it');

  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await checkAccessible(t, page, 'MFA step');
  // The next step's code: enabling MFA spent the current one, and a code is never accepted twice.
  await page.getByLabel('Authentication code').fill(totpAt(server, secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();

  await page.waitForURL(`**/projects/${project.id}/keys`);
  await page.getByRole('heading', { name: 'Keys and tracker' }).waitFor();
  t.pass('the page asked for first opens after sign-in');

  await page.reload();
  await page.getByRole('heading', { name: 'Keys and tracker' }).waitFor();
  t.equal(new URL(page.url()).pathname, `/projects/${project.id}/keys`, 'a reload stays signed in (bootstrap with the refresh cookie)');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/sign-in/);
  await page.getByText('You are signed out.').waitFor();
  await page.goto('/');
  await page.waitForURL(/\/sign-in/);
  t.pass('after sign-out the cookie no longer signs in');
  checkClean(t, tab);
});

t.test('a signed-out visit spends no request on the session; another address says where the sign-in is kept', async (t) => {
  const { owner, project } = await createTenant(server);
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const bootstraps: string[] = [];
  const failed: string[] = [];
  tab.page.on('request', (r) => r.url().endsWith('/api/v1/auth/bootstrap') && bootstraps.push(r.url()));
  tab.page.on('console', (m) => /Failed to load resource/.test(m.text()) && failed.push(m.text()));
  await tab.page.goto('/');
  await tab.page.getByRole('heading', { name: 'Sign in to pp' }).waitFor();
  t.same(bootstraps, [], 'never signed in here: no bootstrap, no 401 in the browser console');
  t.same(failed, []);

  // The same server by another name: signing in works, but the cookie cannot be used there.
  const home = new URL(server.running.services.config.base_url).origin;
  const other = home.replace('127.0.0.1', 'localhost');
  t.not(other, home);
  const context = await browser.newContext({ baseURL: other });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, owner.email, TEST_PASSWORD);
  await page.waitForURL(`**/projects/${project.id}`);
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in to pp' }).waitFor();
  await page.getByText(`pp keeps your sign-in only at ${home}, not at ${other}. Open ${home}/sign-in`).waitFor();
  t.pass('the sign-in page names the address to use');
});

t.test('a next a browser could read as another origin opens the home page instead', async (t) => {
  const { owner, project } = await createTenant(server);
  for (const next of ['/\\evil.example', '/\t/evil.example', '/%5Cevil.example', '//evil.example', 'https://evil.example/']) {
    const tab = await openConsole(browser, server, `/sign-in?next=${encodeURIComponent(next)}`);
    await signInThroughForm(tab.page, owner.email, TEST_PASSWORD);
    await tab.page.waitForURL(`**/projects/${project.id}`);
    t.equal(new URL(tab.page.url()).origin, server.url, `${JSON.stringify(next)}: the home page of this console`);
    checkClean(t, tab);
    await tab.close();
  }
});

t.test('the printed one-time password must be replaced before anything else', async (t) => {
  // A data folder of its own: the demo owner is created only where there is no user yet.
  const fresh = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  const demo = await ensureDemoAccount(fresh.running.services.meta, fresh.clock.now());
  const tab = await openConsole(browser, fresh, '/');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.waitForURL(/\/sign-in/);
  await signInThroughForm(page, demo.email, demo.password!);
  await page.getByRole('heading', { name: 'Set your own password' }).waitFor();
  await checkAccessible(t, page, 'forced password change');
  await page.goto(`/projects/${demo.project.id}`);
  await page.getByRole('heading', { name: 'Set your own password' }).waitFor();
  t.pass('no page opens while the one-time password is in use');

  await page.getByLabel('Current password').fill(demo.password!);
  await page.getByLabel('New password').fill('weak');
  await page.getByRole('button', { name: 'Save the password' }).click();
  await page.getByText('password must be at least 8 characters').waitFor();
  t.pass('the rule broken is named beside the field');

  await page.getByLabel('New password').fill('Mine-Own-Pass-7');
  await page.getByRole('button', { name: 'Save the password' }).click();
  await page.getByRole('heading', { name: demo.project.name }).waitFor();
  t.equal(new URL(page.url()).pathname, `/projects/${demo.project.id}`, 'then the first project opens');
  t.equal((await login(fresh, demo.email, 'Mine-Own-Pass-7')).status, 200, 'the new password is the password');
  checkClean(t, tab);
});

t.test('an expired access token is refreshed behind the scenes; a revoked session goes back to sign-in', async (t) => {
  const { owner, project } = await createTenant(server);
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await signInThroughForm(page, owner.email, TEST_PASSWORD);
  await page.waitForURL(`**/projects/${project.id}`);
  let refreshes = 0;
  page.on('request', (r) => void (r.url().endsWith('/api/v1/auth/refresh') && refreshes++));

  server.clock.advance(16 * 60_000);
  await page.getByRole('link', { name: 'Keys and tracker' }).click();
  await page.getByText('No keys yet').waitFor();
  t.equal(refreshes, 1, 'one refresh, then the request was answered');
  t.equal(new URL(page.url()).pathname, `/projects/${project.id}/keys`, 'still on the page asked for');

  const other = await login(server, owner.email, TEST_PASSWORD);
  const sessions = await server.request('GET', '/api/v1/me/sessions', { token: other.token });
  const theirs = sessions.body.items.find((s: { current: boolean }) => !s.current);
  t.equal((await server.request('DELETE', `/api/v1/me/sessions/${theirs.id}`, { token: other.token })).status, 204);
  await page.getByRole('link', { name: 'Project settings' }).click();
  await page.getByText('Your session ended. Sign in again.').waitFor();
  t.match(page.url(), /\/sign-in\?next=/, 'back to sign-in, the page to return to kept');
  checkClean(t, tab);
});

t.test('registration creates an account with its first project', async (t) => {
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  await checkAccessible(t, page, 'register');
  const email = `founder-${Date.now()}@example.test`;
  await page.getByLabel('Your name').fill('Founder');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill('no-rule');
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByText('password must be at least 8 characters').waitFor();
  await page.getByLabel('Password').fill('Founder-Pass-1');
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('heading', { name: 'My first project' }).waitFor();
  t.pass('the new account lands in its first project');
  checkClean(t, tab);
});

t.test('a closed installation offers no registration, and says it is closed', async (t) => {
  const closed = await startTestServer(t, { settings: { ...ROOMY_LIMITS, signup_mode: 'closed' }, now: new Date() });
  await createTenant(closed);
  const tab = await openConsole(browser, closed, '/forgot-password');
  t.teardown(() => tab.close());
  const { page } = tab;
  const options = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/options'));
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  t.same(await (await options).json(), { registration: 'invitation_only', password_reset_email: false });
  await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
  t.equal(await page.getByRole('link', { name: 'Create an account' }).count(), 0, 'no registration link on the sign-in page');
  await page.goto('/register');
  await page.getByLabel('Work email').fill('someone@example.test');
  await page.getByLabel('Password').fill('Founder-Pass-1');
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('alert').waitFor();
  t.match(await page.getByRole('alert').textContent(), 'registration is closed on this installation; ask an administrator for an invitation');
});
