// Provider set-ups other than the default one: a provider that only takes the client secret in the
// form and keeps the email out of the ID token (so it comes from userinfo), and a configured web-app
// callback URL.

import t from 'tap';
import { loadConfig, oidcCallbackUrl } from '../../../server/ground/config.js';
import { callback, configureProvider, memberWithEmail, refusals, ssoSetup, throughProvider } from './oidcKit.js';

t.test('client_secret_post and claims from userinfo', async (t) => {
  const setup = await ssoSetup(t, { clientAuthMethods: ['client_secret_post'], claimsInIdToken: false });
  await configureProvider(setup);
  const stored = setup.server.running.services.meta.prepare('SELECT discovery_json FROM oidc_providers').pluck().get() as string;
  t.equal(JSON.parse(stored).token_endpoint_auth_method, 'client_secret_post', 'chosen from the discovery document');

  await memberWithEmail(setup, 'uma@acme.test');
  setup.idp.accounts.set('uma', { email: 'uma@acme.test', email_verified: true });
  t.equal((await callback(setup.server, await throughProvider(setup, 'uma'))).status, 303);

  setup.idp.accounts.set('vic', { email: 'vic@acme.test', email_verified: false });
  await memberWithEmail(setup, 'vic@acme.test');
  const from = setup.server.logs.length;
  t.equal((await callback(setup.server, await throughProvider(setup, 'vic'))).status, 401);
  t.same(refusals(setup.server, from), ['email_unverified'], 'userinfo claims are held to the same rule');
});

t.test('oidc.callback_url is where a successful sign-in lands', async (t) => {
  const setup = await ssoSetup(t, {}, { 'oidc.callback_url': 'https://analytics.acme.test/app/sso-done' });
  await configureProvider(setup);
  await memberWithEmail(setup, 'walt@acme.test');
  setup.idp.accounts.set('walt', { email: 'walt@acme.test', email_verified: true });
  const res = await callback(setup.server, await throughProvider(setup, 'walt'));
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), 'https://analytics.acme.test/app/sso-done');
});

t.test('oidc.callback_url: a path or an http(s) URL, by default BASE_URL/auth/callback', async (t) => {
  t.equal(oidcCallbackUrl(loadConfig({ env: { PP_BASE_URL: 'https://pp.acme.test/' } })), 'https://pp.acme.test/auth/callback');
  t.equal(oidcCallbackUrl(loadConfig({ env: { PP_OIDC_CALLBACK_URL: '/welcome' } })), '/welcome');
  for (const bad of ['javascript:alert(1)', '//evil.test/x', 'welcome']) {
    t.throws(() => loadConfig({ env: { PP_OIDC_CALLBACK_URL: bad } }), { message: `oidc.callback_url must be an http(s) URL or a path starting with /, got ${JSON.stringify(bad)}` });
  }
});
