// Single sign-on in chromium against a real OpenID provider on loopback: the sign-in page starts it
// from the email's domain, the browser goes through the provider and pp's callback, lands on
// /auth/callback and the app opens signed in. The owner's SSO settings page shows the provider.

import t from 'tap';
import { launchChromium } from '../support/chromium.js';
import { configureProvider, memberWithEmail, ssoSetup } from '../auth/oidc/oidcKit.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';
import { TEST_PASSWORD } from '../support/factories.js';
import { eventually } from '../support/eventually.js';

const setup = await ssoSetup(t);
const { server, idp, tenant } = setup;
await configureProvider(setup);
const browser = await launchChromium();
t.teardown(() => browser.close());

t.test('sign in with SSO: through the provider and back into the app', async (t) => {
  await memberWithEmail(setup, 'alice@acme.test', 'analyst');
  idp.accounts.set('alice', { email: 'alice@acme.test', email_verified: true, name: 'Alice' });
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  // At the provider's login page, "alice" enters her password.
  idp.browserAccount = 'alice';
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByRole('heading', { name: 'Sign in with SSO' }).waitFor();
  await checkAccessible(t, page, 'SSO sign-in');
  await page.getByLabel('Email').fill('alice@acme.test');
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  await page.waitForURL(`**/projects/${tenant.project.id}`);
  await page.getByRole('link', { name: 'Alice' }).waitFor();
  t.pass('signed in as Alice and the first project opened');
  checkClean(t, tab);
});

t.test('an SSO landing without a session says so', async (t) => {
  const tab = await openConsole(browser, server, '/auth/callback?error=access_denied');
  t.teardown(() => tab.close());
  await tab.page.getByText('The identity provider answered: access_denied').waitFor();
  await checkAccessible(t, tab.page, 'SSO landing, failed');
  t.equal(await tab.page.getByRole('link', { name: 'Back to sign in' }).count(), 1, 'with the way back');
});

t.test("the owner's SSO settings show the provider", async (t) => {
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  await signInThroughForm(tab.page, tenant.owner.email, TEST_PASSWORD);
  await tab.page.waitForURL(`**/projects/${tenant.project.id}`);
  await tab.page.goto('/org');
  await tab.page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
  const issuer = tab.page.getByLabel('Issuer');
  t.equal(
    await eventually(
      'the stored provider',
      () => issuer.inputValue(),
      (v) => v !== '',
    ),
    idp.issuer,
  );
  t.equal(await tab.page.getByLabel('Email domains').inputValue(), 'acme.test');
  await tab.page.getByLabel('Email domains').fill('acme.test acme-labs.test');
  await tab.page.getByRole('button', { name: 'Save the provider' }).click();
  await tab.page.getByText('Saved.').waitFor();
  const saved = await server.request('GET', `/api/v1/orgs/${tenant.org.id}/oidc`, { token: setup.ownerToken });
  t.same([...saved.body.domains].sort(), ['acme-labs.test', 'acme.test'], 'saved through the API, the secret kept');
  checkClean(t, tab);
});
