// Trial-first signup in the console (cloud edition), in chromium against a real server and SMTP sink:
// the code from the email typed after registering, a wrong code, resending, the emailed link opened in
// a fresh browser and opened again once spent, and the domain conflict's two choices (an invitation
// request, and a separate organization held for review). Each page checked with axe-core.

import t from 'tap';
import type { Test } from 'tap';
import { startTestServer } from '../support/testServer.js';
import { startSmtpSink } from '../support/smtpSink.js';
import { launchChromium } from '../support/chromium.js';
import { login, TEST_PASSWORD } from '../support/factories.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { codeIn, companyEmail, count, mailTo, post, signUp, subscriptionOf, tokenIn, verificationEmails, type Cloud } from '../auth/signupKit.js';
import { checkAccessible, checkClean, openConsole, type ConsoleTab } from './consoleKit.js';

const UNIFORM_MESSAGE = 'invalid or expired verification code';

// The default base_url (the server's own address), so the cookie and the Origin checks hold in the browser.
const sink = await startSmtpSink(t);
const server = await startTestServer(t, {
  settings: { ...ROOMY_LIMITS, edition: 'cloud', signup_mode: 'trial_first', trust_proxy: 1, smtp_url: sink.url },
  now: new Date(),
});
const cloud: Cloud = { server, sink };
const browser = await launchChromium();
t.teardown(() => browser.close());

/** Registers through the form and waits for the code step. */
async function registerInConsole(t: Test, email: string): Promise<ConsoleTab> {
  const tab = await openConsole(browser, server, '/register');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByLabel('Your name').fill('Ada');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  return tab;
}

/** The latest verification email to `email`. */
const latestMail = (email: string) => mailTo(sink, email, verificationEmails(server, email));

async function typeCode(tab: ConsoleTab, code: string): Promise<void> {
  await tab.page.getByLabel('Six-digit code').fill(code);
  await tab.page.getByRole('button', { name: 'Confirm' }).click();
}

async function landsSignedIn(t: Test, tab: ConsoleTab, email: string): Promise<void> {
  await tab.page.waitForURL(/\/projects\/\d+$/);
  await tab.page.getByRole('heading', { name: 'My first project' }).waitFor();
  const me = await server.request('GET', '/api/v1/me', { token: (await login(server, email, TEST_PASSWORD)).token });
  t.match(me.body, { user: { email: email.toLowerCase() }, org: { role: 'owner' } }, 'the account exists and owns its organization');
  await tab.page.reload();
  await tab.page.getByRole('heading', { name: 'My first project' }).waitFor();
  t.pass('a reload stays signed in: the refresh cookie was set');
}

t.test('the code from the email: a wrong one is refused and the page stays, the right one signs in', async (t) => {
  const email = companyEmail('code');
  const tab = await registerInConsole(t, email);
  const { page } = tab;
  await checkAccessible(t, page, 'check your email');
  const input = page.getByLabel('Six-digit code');
  t.equal(await input.getAttribute('inputmode'), 'numeric');
  t.equal(await input.getAttribute('autocomplete'), 'one-time-code');
  await page.getByText('Both work for 10 minutes from the first email').waitFor();

  const code = codeIn(await latestMail(email));
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const users = count(server, 'users');
  await typeCode(tab, wrong);
  await page.getByText(UNIFORM_MESSAGE).waitFor();
  t.equal(await input.getAttribute('aria-invalid'), 'true', 'the message is tied to the code field');
  t.equal(new URL(page.url()).pathname, '/register', 'the page stays');
  t.equal(count(server, 'users'), users, 'nothing was created');
  await checkAccessible(t, page, 'wrong code');

  await typeCode(tab, code);
  await landsSignedIn(t, tab, email);
  checkClean(t, tab);
});

t.test('resend shows its answer; the server decides whether an email goes out', async (t) => {
  const email = companyEmail('again');
  const tab = await registerInConsole(t, email);
  const { page } = tab;
  const first = codeIn(await latestMail(email));
  const resend = page.getByRole('button', { name: 'Resend the email' });
  await resend.click();
  await page
    .getByRole('status')
    .filter({ hasText: `Asked for a new email to ${email.toLowerCase()}` })
    .waitFor();
  t.equal(verificationEmails(server, email), 1, 'within the cooldown nothing more was sent');
  await checkAccessible(t, page, 'resent');

  server.clock.advance(61_000);
  await resend.click();
  await page.getByRole('status').filter({ hasText: 'Asked for a new email' }).waitFor();
  const second = codeIn(await mailTo(sink, email, 2));
  t.equal(verificationEmails(server, email), 2, 'after the cooldown a new email went out');
  if (first !== second) {
    await typeCode(tab, first);
    await page.getByText(UNIFORM_MESSAGE).waitFor();
    t.pass('the first code stopped working');
  }
  await typeCode(tab, second);
  await landsSignedIn(t, tab, email);
  checkClean(t, tab);
});

t.test('the emailed link signs in from a fresh browser; opened again it says it is spent', async (t) => {
  const email = companyEmail('link');
  const registering = await registerInConsole(t, email);
  const token = tokenIn(await latestMail(email));
  const path = `/signup/verify?token=${encodeURIComponent(token)}`;

  const fresh = await openConsole(browser, server, path);
  t.teardown(() => fresh.close());
  await landsSignedIn(t, fresh, email);
  checkClean(t, fresh);

  const again = await openConsole(browser, server, path);
  t.teardown(() => again.close());
  await again.page.getByText('This link has expired or was already used').waitFor();
  t.notMatch(again.page.url(), /token=/, 'the token leaves the address bar');
  await checkAccessible(t, again.page, 'spent link');
  await again.page.getByLabel('Email').fill(email);
  await again.page.getByRole('button', { name: 'Resend the email' }).click();
  await again.page.getByRole('heading', { name: 'Check your email' }).waitFor();
  t.pass('a new email can be asked for from the spent link');
  await again.page.getByRole('link', { name: 'I have an account' }).waitFor();
  checkClean(t, again);
  checkClean(t, registering);
});

t.test('a company domain already on pp: the masked hints, then an invitation request', async (t) => {
  const domain = `engines${process.pid}.test`;
  const owner = companyEmail('ada', domain);
  await signUp(cloud, { email: owner, org_name: 'Analytical Engines' });

  const email = companyEmail('bob', domain);
  const tab = await registerInConsole(t, email);
  const { page } = tab;
  const code = codeIn(await latestMail(email));
  await typeCode(tab, code);
  await page.getByRole('heading', { name: 'Your company is already on pp' }).waitFor();
  // The signup stays pending after a 409, so the API can be asked the same question.
  const answer = await post(server, '/api/v1/auth/register/verify', { email, code });
  t.equal(answer.status, 409);
  t.equal(answer.body.error.code, 'domain_has_org');
  t.equal(await page.getByTestId('org-name-masked').textContent(), answer.body.error.details.org_name_masked);
  t.equal(await page.getByTestId('owner-email-masked').textContent(), answer.body.error.details.owner_email_masked);
  t.same(answer.body.error.details, { org_name_masked: 'A***', owner_email_masked: `a***@${domain}` });
  await checkAccessible(t, page, 'domain conflict');

  const users = count(server, 'users');
  await page.getByRole('button', { name: 'Ask the owner for an invitation' }).click();
  await page.getByRole('heading', { name: 'The owner was asked' }).waitFor();
  t.match(await page.getByRole('status').textContent(), `We emailed the owner (a***@${domain})`);
  const toOwner = await sink.waitFor((m) => m.to.includes(owner.toLowerCase()) && m.text.includes(email.toLowerCase()));
  t.ok(toOwner, 'the owner got an email naming the address');
  t.equal(count(server, 'users'), users, 'no account was created');
  t.equal((await login(server, email, TEST_PASSWORD)).status, 401, 'nobody can sign in as the asker');
  await checkAccessible(t, page, 'owner asked');
  checkClean(t, tab);
});

t.test('a company domain already on pp: a separate organization held for review, from the link', async (t) => {
  const domain = `looms${process.pid}.test`;
  await signUp(cloud, { email: companyEmail('jac', domain), org_name: 'Jacquard Looms' });

  const email = companyEmail('cy', domain);
  const registering = await registerInConsole(t, email);
  const token = tokenIn(await latestMail(email));
  const tab = await openConsole(browser, server, `/signup/verify?token=${encodeURIComponent(token)}`);
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByRole('heading', { name: 'Your company is already on pp' }).waitFor();
  t.equal(await page.getByTestId('org-name-masked').textContent(), 'J***');
  const note = page.getByLabel('Note for the review (optional)');
  t.equal(await note.getAttribute('maxlength'), '1000', 'the note is held to the server limit');
  await note.fill('We are the Lyon team and bill separately.');
  await page.getByText('(41 used)').waitFor();
  await page.getByRole('button', { name: 'Ask for a review of a new organization' }).click();
  await landsSignedIn(t, tab, email);

  const me = await server.request('GET', '/api/v1/me', { token: (await login(server, email, TEST_PASSWORD)).token });
  t.same(subscriptionOf(server, me.body.org.id), { status: 'pending_review', trial_state: 'pending_review' }, 'the organization waits for the review');
  const kept = server.running.services.meta.prepare('SELECT company_note FROM org_signups WHERE org_id = ?').get(me.body.org.id) as { company_note: string };
  t.equal(kept.company_note, 'We are the Lyon team and bill separately.', 'the note reached the reviewer');
  checkClean(t, tab);
  checkClean(t, registering);
});
