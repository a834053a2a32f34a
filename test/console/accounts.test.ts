// Accounts in chromium: an invitation passed on by link (no SMTP) accepted by a new person and by
// an existing one with MFA, who then switches organization; two-factor enrolment on the account
// page; a password reset from the emailed link (real SMTP sink). Each page checked with axe-core.

import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { startSmtpSink, linkToken } from '../support/smtpSink.js';
import { ROOMY_LIMITS, enableMfaOverHttp, totpAt } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const browser = await launchChromium();
t.teardown(() => browser.close());

async function inviteFromOrgPage(page: Page, email: string, role: string): Promise<string> {
  await page.goto('/org');
  await page.getByLabel('Email to invite').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  return (await page.getByTestId('invite-link').textContent())!;
}

/** The account page, opened from the header's account link: the display name changed with the form. */
async function changeNameOnAccountPage(t: Test, page: Page, name: string): Promise<void> {
  const account = page.getByRole('navigation', { name: 'Account' }).getByRole('link');
  await account.click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  const field = page.getByLabel('Display name');
  await field.fill('   ');
  await page.getByRole('button', { name: 'Save the name' }).click();
  await page.getByText('name must not be blank').waitFor();
  t.equal(await field.getAttribute('aria-invalid'), 'true', 'a blank name is refused at the field');
  await field.fill(`  ${name} `);
  await page.getByRole('button', { name: 'Save the name' }).click();
  await page.getByText('Name saved.').waitFor();
  t.equal(await account.textContent(), name, 'the header shows the new name, trimmed');
  await checkAccessible(t, page, 'account with the name card');
}

type Box = { left: number; top: number; bottom: number; height: number };
const boxOf = (page: Page, selector: string): Promise<Box[]> => page.locator(selector).evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as Box));

/** On the organization page, the inline forms' labels and inputs each on one line, the button beside the inputs. */
async function checkFormsAligned(t: Test, page: Page): Promise<void> {
  for (const form of ['New project', 'Invite someone']) {
    const scope = `form[aria-label="${form}"]`;
    const labels = await boxOf(page, `${scope} label`);
    const inputs = await boxOf(page, `${scope} :is(input, select)`);
    const [button] = await boxOf(page, `${scope} button[type=submit]`);
    t.equal(inputs.length, 2, `${form}: two inputs`);
    t.same(new Set(labels.map((b) => Math.round(b.top))).size, 1, `${form}: the labels start on one line`);
    t.same(new Set(inputs.map((b) => Math.round(b.top))).size, 1, `${form}: the inputs start on one line (${inputs.map((b) => b.top).join(', ')})`);
    const middle = (b: Box) => b.top + b.height / 2;
    t.ok(Math.abs(middle(button!) - middle(inputs[0]!)) <= 1, `${form}: the button sits on the inputs' line`);
  }
}

/** The license card says where a license comes from and the command that applies it. */
async function checkLicenseHowTo(t: Test, page: Page): Promise<void> {
  const howto = page.getByTestId('license-howto');
  t.match(await howto.textContent(), /ordered from your pp vendor/, 'where to get one');
  t.equal(await howto.locator('code', { hasText: 'apply' }).textContent(), 'ppctl license apply <file>', 'the command that applies it');
}

t.test('invitations passed on by link: a new person, and an existing one with MFA', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  const { owner, org, project } = await createTenant(server);
  const admin = await openConsole(browser, server, '/sign-in');
  t.teardown(() => admin.close());
  await signInThroughForm(admin.page, owner.email, TEST_PASSWORD);
  await admin.page.waitForURL(`**/projects/${project.id}`);
  await changeNameOnAccountPage(t, admin.page, 'Ana Silva');

  const newcomer = uniqueEmail('newcomer');
  const link = await inviteFromOrgPage(admin.page, newcomer, 'analyst');
  t.match(link, new RegExp(`^${server.url}/invite\\?token=`), 'the link to pass on is shown to the admin');
  await admin.page.locator('table', { hasText: newcomer.toLowerCase() }).getByText('pending').waitFor();
  await checkAccessible(t, admin.page, 'organization');
  await checkFormsAligned(t, admin.page);
  await checkLicenseHowTo(t, admin.page);

  const guest = await openConsole(browser, server, link.slice(server.url.length));
  t.teardown(() => guest.close());
  await guest.page.getByRole('heading', { name: 'Join an organization' }).waitFor();
  t.equal(
    await guest.page.getByTestId('invitation-words').textContent(),
    `Ana Silva invited you (${newcomer.toLowerCase()}) to join Test org as analyst. Accept to join it.`,
    'the page names the inviter, the organization and the role',
  );
  t.notMatch(guest.page.url(), /token=/, 'the token leaves the address bar');
  await checkAccessible(t, guest.page, 'invitation');
  await guest.page.getByRole('button', { name: 'Accept the invitation' }).click();
  await guest.page.getByRole('heading', { name: 'Create your account' }).waitFor();
  await guest.page.getByLabel('Your name').fill('New Comer');
  await guest.page.getByLabel('Password').fill('Fresh-Start-8');
  await guest.page.getByRole('button', { name: 'Create the account and join' }).click();
  await guest.page.waitForURL(`**/projects/${project.id}`);
  const me = await server.request('GET', '/api/v1/me', { token: (await login(server, newcomer, 'Fresh-Start-8')).token });
  t.match(me.body, { user: { email: newcomer.toLowerCase(), name: 'New Comer' }, org: { id: org.id, role: 'analyst' } });
  checkClean(t, guest);

  // Someone already on pp, in another organization, with two-factor authentication.
  const elsewhere = await createTenant(server);
  const veteran = await addMember(server, elsewhere.org, 'viewer');
  const { secret } = await enableMfaOverHttp(server, (await login(server, veteran.email, TEST_PASSWORD)).token!);
  const second = await inviteFromOrgPage(admin.page, veteran.email, 'viewer');
  const member = await openConsole(browser, server, second.slice(server.url.length));
  t.teardown(() => member.close());
  await member.page.getByRole('button', { name: 'Accept the invitation' }).click();
  await member.page.getByLabel('Authentication code').fill(totpAt(server, secret, 1));
  await member.page.getByRole('button', { name: 'Verify and join' }).click();
  await member.page.waitForURL(`**/projects/${project.id}`);
  const orgSwitch = member.page.getByLabel('Organization');
  t.same((await orgSwitch.locator('option').allTextContents()).sort(), [elsewhere.org.name, org.name].sort(), 'both organizations to choose from');
  await orgSwitch.selectOption(String(elsewhere.org.id));
  await member.page.waitForURL(`**/projects/${elsewhere.project.id}`);
  t.pass('switching organization opens its first project');
  checkClean(t, member);

  // The admin changes the newcomer's role and removes the veteran, from the members table.
  await admin.page.goto('/org');
  await admin.page.getByLabel(`Role of ${newcomer.toLowerCase()}`).selectOption('viewer');
  const ownerToken = (await login(server, owner.email, TEST_PASSWORD)).token;
  const membersNow = async () => (await server.request('GET', `/api/v1/orgs/${org.id}/members`, { token: ownerToken })).body.items as Array<{ email: string; role: string }>;
  const members = await eventually('the role change', membersNow, (ms) => ms.find((m) => m.email === newcomer.toLowerCase())?.role === 'viewer');
  t.equal(members.find((m) => m.email === newcomer.toLowerCase())!.role, 'viewer', 'the role changed through the API');
  await admin.page.locator('tr', { hasText: veteran.email.toLowerCase() }).getByRole('button', { name: 'Remove' }).click();
  await admin.page
    .getByRole('dialog', { name: `Remove ${veteran.email.toLowerCase()} from the organization?` })
    .getByRole('button', { name: 'Remove the member' })
    .click();
  await admin.page.locator('tr', { hasText: veteran.email.toLowerCase() }).getByRole('button', { name: 'Remove' }).waitFor({ state: 'detached' });
  const after = (await server.request('GET', `/api/v1/orgs/${org.id}/members`, { token: ownerToken })).body.items;
  t.notOk(
    after.some((m: { email: string }) => m.email === veteran.email.toLowerCase()),
    'the member is removed',
  );
  checkClean(t, admin);
});

t.test('two-factor enrolment on the account page', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  const { owner } = await createTenant(server);
  const tab = await openConsole(browser, server, '/account');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.waitForURL(/\/sign-in/);
  await signInThroughForm(page, owner.email, TEST_PASSWORD);
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = (await page.getByTestId('mfa-secret').textContent())!;
  t.ok(await page.getByRole('img', { name: 'QR code for the authenticator app' }).isVisible(), 'a QR code to scan');
  await checkAccessible(t, page, 'MFA setup');
  await page.getByLabel('Code from the app').fill(totpAt(server, secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  // The codes appear once the server has answered: read them only then, not the empty list before.
  const shown = page.getByTestId('recovery-codes').locator('li');
  await shown.first().waitFor();
  const codes = await shown.allTextContents();
  t.equal(codes.length, 10, 'ten recovery codes, shown once');
  t.same((await login(server, owner.email, TEST_PASSWORD)).body, { mfa_required: true }, 'sign-in now asks for the second factor');
  const withRecovery = await login(server, owner.email, TEST_PASSWORD, { mfa_code: codes[0]! });
  t.ok(withRecovery.token, 'a recovery code from the page works');
  await page.reload();
  const sessions = page.locator('table', { hasText: 'This session' });
  await sessions.waitFor();
  t.equal(await sessions.locator('tbody tr').count(), 2, 'both sessions listed');
  await checkAccessible(t, page, 'account');
  await sessions.getByRole('button', { name: 'Sign out' }).click();
  await sessions.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
  t.equal((await server.request('GET', '/api/v1/me', { token: withRecovery.token })).status, 401, 'the other session is signed out from the page');
  // And at the sign-in page, in another browser, a recovery code instead of the app's code.
  const other = await openConsole(browser, server, '/sign-in');
  t.teardown(() => other.close());
  await signInThroughForm(other.page, owner.email, TEST_PASSWORD);
  await other.page.getByLabel('Authentication code').fill(codes[1]!);
  await other.page.getByRole('button', { name: 'Verify' }).click();
  await other.page.waitForURL(/\/projects\/\d+$/);
  t.pass('signed in with a recovery code');
  checkClean(t, tab);
});

t.test('a server that sends no mail says whom to ask for a reset link', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  await createTenant(server);
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByText('This server sends no email, so it cannot mail you a reset link.').waitFor();
  t.equal(await page.getByRole('button', { name: 'Send the link' }).count(), 0, 'no form promising an email');
  t.match(await page.getByRole('status').textContent(), 'ppctl admin reset-password --link');
  await checkAccessible(t, page, 'forgot password without mail');
});

t.test('a password reset from the emailed link', async (t) => {
  const sink = await startSmtpSink(t);
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, smtp_url: sink.url }, now: new Date() });
  const { owner } = await createTenant(server);
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await checkAccessible(t, page, 'forgot password');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByText('an email with a link is on its way').waitFor();
  const mail = await sink.waitFor((m) => m.to.includes(owner.email.toLowerCase()));
  await page.goto(`/reset-password?token=${encodeURIComponent(linkToken(mail, '/reset-password'))}`);
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await checkAccessible(t, page, 'reset password');
  await page.getByLabel('New password').fill('Reset-Works-3');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await page.getByText('Your password is changed').waitFor();
  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await signInThroughForm(page, owner.email, 'Reset-Works-3');
  await page.waitForURL(/\/projects\/\d+$/);
  t.pass('the new password signs in');
  checkClean(t, tab);
});
