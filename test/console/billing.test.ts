// The cloud account states in the console, in chromium against a real cloud server: the billing page's
// figures against GET …/billing, the free plan chosen (the reminder banner goes), a paid plan opening
// the checkout served on loopback, a viewer reading only; a held trial's banner, a refused change
// explained, and its activation by SMS through a real gateway (the code read from the delivered text,
// a new code after the countdown); an ended trial's panel on a funnel; the unsubscribe page with a
// real token; and an on-prem server showing nothing of billing. axe-core runs on each new page.

import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, TEST_PASSWORD, type Tenant } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { startSmsGateway } from '../support/smsGateway.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { insertSubscription } from '../../server/billing/subscriptions.js';
import { unsubscribeToken } from '../../server/billing/unsubscribe.js';
import { maskPhone } from '../../server/sms/phoneNumber.js';
import { checkAccessible, checkClean, openConsole, openFromNavigation, signInThroughForm, signedInConsole } from './consoleKit.js';
import { seedEvents } from '../support/seedEvents.js';

const DAY_MS = 86_400_000;
const PHONE = '+4915123456712';

/** A loopback stand-in for the payment provider's checkout page; it keeps the addresses asked for. */
async function startCheckout(): Promise<{ url: string; visits: URL[] }> {
  const visits: URL[] = [];
  const server = http.createServer((req, res) => {
    visits.push(new URL(req.url ?? '/', 'http://checkout.test'));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Checkout</title><h1>Pay for your plan</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, visits };
}

const checkout = await startCheckout();
const gateway = await startSmsGateway(t);
// The default base_url (the server's own address), so the cookie and the Origin checks hold in the browser.
const server = await startTestServer(t, {
  settings: {
    ...ROOMY_LIMITS,
    edition: 'cloud',
    'billing.trial_event_cap': 5000,
    'billing.checkout_url': `${checkout.url}/pay?org={org_id}&plan={plan}&email={email}`,
    'sms.gateway_url': gateway.url,
  },
  now: new Date(),
});
const services = server.running.services;
const browser = await launchChromium();
t.teardown(() => browser.close());

function setRow(orgId: number, columns: Record<string, string | number | null>): void {
  const names = Object.keys(columns);
  services.meta.prepare(`UPDATE subscriptions SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE org_id = ?`).run(...Object.values(columns), orgId);
}

async function cloudOrg(status: 'trialing' | 'pending_review'): Promise<Tenant & { token: string }> {
  const tenant = await createTenant(server);
  insertSubscription(services, tenant.org.id, { status, trialState: status === 'trialing' ? 'trialing' : 'sms_required' });
  return { ...tenant, token: await accessTokenFor(server, tenant.owner, tenant.org) };
}

const billingOf = async (org: { org: { id: number }; token: string }) => (await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token })).body;
/** A moment's day as the page writes it: in the browser's locale and time zone. */
const dayOf = (page: Page, iso: string): Promise<string> => page.evaluate((v) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(v)), iso);
const numberIn = async (page: Page, testId: string) => Number((await page.getByTestId(testId).textContent())!.replace(/,/g, ''));
const banner = (page: Page) => page.getByTestId('account-banner');

t.test('a live trial: the billing page shows the API figures; the free plan ends the reminder; a paid plan opens the checkout', async (t) => {
  const org = await cloudOrg('trialing');
  setRow(org.org.id, { trial_ends_at: new Date(services.clock.now().getTime() + 2.5 * DAY_MS).toISOString() });
  const key = createIngestKey(server, org.project);
  const now = services.clock.now().toISOString();
  t.equal(
    (
      await ingestEvents(
        server,
        key,
        [1, 2, 3, 4].map((n) => ({ event: 'signup', user_id: `u${n}`, ts: now })),
      )
    ).status,
    202,
  );

  const tab = await signedInConsole(t, browser, server, org.owner.email, TEST_PASSWORD);
  const { page } = tab;
  await banner(page).getByText('Your trial of the Growth plan ends in 3 days').waitFor();
  t.pass('the last days of the trial are pointed out');
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Billing' }).click();
  await page.getByRole('heading', { name: 'Plan and billing' }).waitFor();

  const api = await billingOf(org);
  t.match(api.billing, { status: 'trialing', plan: 'growth', trial_days_left: 3 });
  t.equal(await page.getByTestId('billing-headline').textContent(), `Trial of the Growth plan, 3 days left, ends ${await dayOf(page, api.billing.trial_ends_at)}`);
  t.equal(await numberIn(page, 'usage-used'), api.usage.trial_events, 'trial events as counted');
  t.equal(api.usage.trial_events, 4);
  t.equal(await numberIn(page, 'usage-limit'), api.usage.limit, 'against the trial cap');
  t.equal(await page.getByTestId('usage-limit').textContent(), '5,000', 'formatted like every number of the console');
  t.equal(await numberIn(page, 'events-this-month'), api.usage.events_this_month);
  const rows = page.getByTestId('plans').locator('tbody tr');
  t.same(
    await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-plan'))),
    api.billing.plans.map((p: { plan: string }) => p.plan),
  );
  for (const plan of api.billing.plans as Array<{ plan: string; events_per_month: number }>) {
    const drawn = await page.getByTestId('plans').locator(`tr[data-plan=${plan.plan}] [data-col=events]`).textContent();
    t.equal(Number(drawn!.replace(/,/g, '')), plan.events_per_month, `${plan.plan}: events a month`);
  }
  await page.locator('[data-plan=growth]').getByText('People drill-down').waitFor();
  await checkAccessible(t, page, 'billing page, trial');

  await page.getByRole('button', { name: 'Choose free' }).click();
  const confirm = page.getByTestId('confirm-free');
  await confirm.getByText('Your trial ends now').waitFor();
  t.equal(await billingOf(org).then((b) => b.billing.status), 'trialing', 'nothing changes before the confirmation');
  await checkAccessible(t, page, 'free plan confirmation');
  await confirm.getByRole('button', { name: 'Move to the free plan' }).click();
  await page.getByRole('status').filter({ hasText: 'You are on the free plan now.' }).waitFor();
  const free = await billingOf(org);
  t.match(free.billing, { status: 'active', plan: 'free', access: null, entitlements: [] });
  t.equal(await page.getByTestId('billing-headline').textContent(), 'Free plan');
  t.equal(await banner(page).count(), 0, 'the reminder is gone');
  t.equal(await numberIn(page, 'usage-limit'), free.usage.limit, 'now the monthly quota of the free plan');

  await page.goto(`/projects/${org.project.id}/insights/paths`);
  t.equal((await page.locator('option[value=session]').textContent())?.trim(), 'sessions (not in your plan)', 'features follow the plan, not a license');

  await page.goto('/org');
  t.equal(await page.getByTestId('org-plan').textContent(), 'Free plan', 'the organization page names the plan');
  t.equal(await page.getByRole('heading', { name: 'License' }).count(), 0, 'and no license');
  await page.getByRole('link', { name: 'Plan and billing' }).click();
  await page.getByRole('button', { name: 'Upgrade to Scale' }).click();
  await page.waitForURL(`${checkout.url}/pay?**`);
  const visit = checkout.visits.filter((v) => v.pathname === '/pay').at(-1)!;
  t.same(Object.fromEntries(visit.searchParams), { org: String(org.org.id), plan: 'scale', email: org.owner.email }, 'the checkout of the plan, for this organization');
  t.equal(await billingOf(org).then((b) => b.billing.plan), 'free', 'choosing a paid plan changes nothing until the provider says so');
  checkClean(t, tab);

  const viewer = await addMember(server, org.org, 'viewer');
  const seen = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  await seen.page.goto('/org/billing');
  await seen.page.getByText('Owners and admins of the organization choose its plan.').waitFor();
  t.equal(await seen.page.getByTestId('plans').getByRole('button').count(), 0, 'a viewer reads the plans without choosing');
  checkClean(t, seen);
});

t.test('a held trial: the banner, a change refused with its reason, and activation by SMS', async (t) => {
  const org = await cloudOrg('pending_review');
  const tab = await openConsole(browser, server, 'about:blank');
  t.teardown(() => tab.close());
  const { page } = tab;
  // The resend countdown runs on the page's clock, which the test moves along with the server's.
  await tab.context.clock.install();
  await page.goto('/sign-in');
  await signInThroughForm(page, org.owner.email, TEST_PASSWORD);
  await page.waitForURL(/\/projects\/\d+$/);
  await banner(page).getByText('Your trial is waiting for activation').waitFor();
  t.match(await banner(page).textContent(), 'you can look around, but changes are paused');

  await page.goto(`/projects/${org.project.id}/settings`);
  const general = page.locator('form[aria-labelledby=general-title]');
  await general.getByLabel('Name', { exact: true }).fill('Renamed');
  await general.getByRole('button', { name: 'Save' }).click();
  const refusal = general.getByRole('alert');
  await refusal.getByText('Changes are paused while your trial waits for activation.').waitFor();
  t.notMatch(await refusal.textContent(), 'trial_pending_review', 'no raw code');
  t.equal(await refusal.getByRole('link', { name: 'Confirm with your phone' }).getAttribute('href'), '/trial/activate');
  t.equal((await server.request('GET', `/api/v1/projects/${org.project.id}`, { token: org.token })).body.name, 'Test project', 'nothing was renamed');
  await checkAccessible(t, page, 'held trial, change refused');

  await banner(page).getByRole('link', { name: 'Confirm with your phone' }).click();
  await page.getByRole('heading', { name: 'Activate your trial' }).waitFor();
  await checkAccessible(t, page, 'phone step');
  const phone = page.getByLabel('Mobile phone number');
  await phone.fill('12345');
  await page.getByRole('button', { name: 'Send the code' }).click();
  await page.getByText('phone must be an international number').waitFor();
  t.equal(await phone.getAttribute('aria-invalid'), 'true', "the server's message is tied to the field");

  await phone.fill(PHONE);
  await page.getByRole('button', { name: 'Send the code' }).click();
  await page.getByRole('heading', { name: 'Enter the code' }).waitFor();
  t.equal(await page.getByTestId('phone-masked').textContent(), maskPhone(PHONE));
  const first = /code is (\d{6})\./.exec((await gateway.waitFor((m) => m.to === PHONE)).text)![1]!;
  t.match(await page.getByTestId('resend-countdown').textContent(), /A new code can be sent in (60|59|58|57|56|55) s\./);
  t.ok(await page.getByRole('button', { name: 'Send a new code' }).isDisabled(), 'no new code within the minute');
  await checkAccessible(t, page, 'code step');

  const code = page.getByLabel('Six-digit code');
  await code.fill(first === '000000' ? '000001' : '000000');
  await page.getByRole('button', { name: 'Activate the trial' }).click();
  await page.getByText('invalid or expired code').waitFor();
  t.equal(await code.getAttribute('aria-invalid'), 'true');

  server.clock.advance(61_000);
  await page.clock.fastForward(61_000);
  await page.getByTestId('resend-countdown').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await page.getByTestId('resend-countdown').waitFor();
  await gateway.waitFor((m) => m.to === PHONE && gateway.received.filter((x) => x.to === PHONE).length >= 2);
  const second = /code is (\d{6})\./.exec(gateway.received.filter((m) => m.to === PHONE)[1]!.text)![1]!;
  await code.fill(second);
  await page.getByRole('button', { name: 'Activate the trial' }).click();
  await page.getByRole('heading', { name: 'Your trial has started' }).waitFor();
  t.equal(await banner(page).count(), 0, 'the banner is gone');
  t.match((await billingOf(org)).billing, { status: 'trialing', trial_state: 'trialing', access: null });
  await checkAccessible(t, page, 'trial started');
  checkClean(t, tab);
});

t.test('an ended trial: the banner, and the paused panel in place of a funnel', async (t) => {
  const org = await cloudOrg('trialing');
  setRow(org.org.id, { trial_ends_at: new Date(services.clock.now().getTime() - 60_000).toISOString() });
  const tab = await signedInConsole(t, browser, server, org.owner.email, TEST_PASSWORD);
  const { page } = tab;
  await banner(page).getByText('Your trial has ended').waitFor();
  const today = services.clock.now().toISOString().slice(0, 10);
  // Collected before the trial ended, so a person finds the events to build a funnel of.
  await seedEvents(
    server,
    org.project.id,
    ['signup', 'activate'].map((event, i) => ({ event, ts: `${today}T00:0${i}:00Z`, user_id: 'u1' })),
  );
  const body = { steps: [{ event: 'signup' }, { event: 'activate' }], date_from: today, date_to: today };
  const refused = await server.request('POST', `/api/v1/projects/${org.project.id}/queries/funnel`, { token: org.token, body });
  t.equal(refused.status, 402);
  t.equal(refused.body.error.code, 'trial_expired');

  await openFromNavigation(page, 'Funnels');
  await page.getByLabel('Step 1', { exact: true }).selectOption('signup');
  await page.getByLabel('Step 2', { exact: true }).selectOption('activate');
  const panel = page.locator('.paused-panel');
  await panel.getByRole('heading', { name: 'Your trial has ended' }).waitFor();
  t.equal(await panel.getByRole('link', { name: 'Choose a plan' }).getAttribute('href'), '/org/billing');
  t.equal(await page.locator('.error-note').count(), 0, 'no error line besides the panel');
  await checkAccessible(t, page, 'paused funnel');

  await panel.getByRole('link', { name: 'Choose a plan' }).click();
  const api = await billingOf(org);
  t.equal(await page.getByTestId('billing-headline').textContent(), `The trial ended on ${await dayOf(page, api.billing.trial_ends_at)}`);
  await checkAccessible(t, page, 'billing page, paused');
  checkClean(t, tab);
});

t.test('the unsubscribe link: reading changes nothing, the buttons do', async (t) => {
  const { owner } = await createTenant(server);
  const token = unsubscribeToken(services, owner.id);
  const optedOut = () => (services.meta.prepare('SELECT marketing_opt_out_at AS at FROM users WHERE id = ?').get(owner.id) as { at: string | null }).at;
  const state = await server.request('GET', `/api/v1/email/unsubscribe?token=${encodeURIComponent(token)}`);

  const tab = await openConsole(browser, server, `/unsubscribe?token=${encodeURIComponent(token)}`);
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
  t.equal(await page.getByTestId('email-masked').textContent(), state.body.email_masked);
  t.equal(optedOut(), null, 'opening the link unsubscribes nobody');
  t.notMatch(page.url(), /token=/, 'the token leaves the address bar');
  await checkAccessible(t, page, 'unsubscribe');

  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByRole('status').filter({ hasText: 'You are unsubscribed' }).waitFor();
  t.ok(optedOut(), 'unsubscribed');
  t.equal((await server.request('GET', `/api/v1/email/unsubscribe?token=${encodeURIComponent(token)}`)).body.subscribed, false);
  await checkAccessible(t, page, 'unsubscribed');
  await page.getByRole('button', { name: 'Resubscribe' }).click();
  await page.getByRole('status').filter({ hasText: 'You are subscribed again' }).waitFor();
  t.equal(optedOut(), null, 'subscribed again');
  checkClean(t, tab);

  const forged = await openConsole(browser, server, `/unsubscribe?token=${owner.id}.${'A'.repeat(43)}`);
  t.teardown(() => forged.close());
  await forged.page.getByText('This unsubscribe link is not valid').waitFor();
  t.equal(await forged.page.getByRole('button', { name: 'Unsubscribe' }).count(), 0);
  checkClean(t, forged);
});

t.test('on-prem: no banner, no billing link, the license on the organization page, and a plain billing address', async (t) => {
  const onprem: TestServer = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
  const { owner } = await createTenant(onprem);
  const billingCalls: string[] = [];
  const tab = await signedInConsole(t, browser, onprem, owner.email, TEST_PASSWORD);
  const { page } = tab;
  page.on('request', (r) => void (/\/api\/v1\/(orgs\/\d+\/billing|auth\/trial|email\/)/.test(r.url()) && billingCalls.push(r.url())));
  t.equal(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Billing' }).count(), 0, 'no billing in the navigation');
  t.equal(await banner(page).count(), 0);
  await page.getByRole('link', { name: 'Organization' }).click();
  await page.getByRole('heading', { name: 'License' }).waitFor();
  t.equal(await page.getByTestId('org-plan').count(), 0, 'no plan card');
  await page.goto('/org/billing');
  await page.getByText('Billing exists only in the hosted edition').waitFor();
  await checkAccessible(t, page, 'on-prem billing address');
  await page.goto('/trial/activate');
  await page.getByText('Nothing to activate').waitFor();
  t.same(billingCalls, [], 'the console asked nothing of billing');
  checkClean(t, tab);
});
