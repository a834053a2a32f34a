// POST /auth/oidc/start: one enabled organization from the email's exact domain or from org_id, a
// one-time state stored as a hash with its nonce and a sealed PKCE verifier, and an authorization URL
// that carries no credential.

import { createHash } from 'node:crypto';
import t from 'tap';
import { deriveKey } from '../../../server/ground/secretKeys.js';
import { open } from '../../../server/ground/secretBox.js';
import { hashToken } from '../../../server/ground/tokenHash.js';
import { accessTokenFor, createTenant } from '../../support/factories.js';
import { startTestIdp } from '../../support/oidcProvider.js';
import { CALLBACK_PATH, configureProvider, providerBody, ssoSetup } from './oidcKit.js';

const setup = await ssoSetup(t);
const { server, idp, tenant } = setup;
const services = server.running.services;
await configureProvider(setup, { domains: ['acme.test', 'eu.acme-group.test'] });
const start = (body: unknown) => server.request('POST', '/api/v1/auth/oidc/start', { body });

// A second organization with its own provider and domain, and a third whose provider is disabled.
async function orgWithProvider(body: Record<string, unknown>) {
  const org = await createTenant(server);
  const res = await server.request('PUT', `/api/v1/orgs/${org.org.id}/oidc`, { token: await accessTokenFor(server, org.owner, org.org), body });
  if (res.status !== 200) throw new Error(`PUT oidc: ${res.status} ${res.text}`);
  return org;
}
const otherIdp = await startTestIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });
const other = await orgWithProvider(providerBody(otherIdp, { domains: ['other.test'] }));
const dormant = await orgWithProvider(providerBody(otherIdp, { domains: ['dormant.test'], enabled: false }));

t.test('422 when the body names neither an email nor an organization, or both and they disagree', async (t) => {
  const cases: Array<[unknown, string, string]> = [
    [{}, 'email or org_id is required to find the organization to sign in to', 'email'],
    [{ email: 'not-an-email' }, 'invalid request body: email must match format "email"', 'email'],
    [{ org_id: 0 }, 'invalid request body: org_id must be >= 1', 'org_id'],
    [{ email: 'a@acme.test', extra: 1 }, 'invalid request body: extra is not a known field', 'extra'],
    [{ email: 'a@acme.test', org_id: other.org.id }, "org_id is not the organization that signs in this email's domain", 'org_id'],
    [{ email: 'a@nobody.test', org_id: other.org.id }, "org_id is not the organization that signs in this email's domain", 'org_id'],
  ];
  for (const [body, message, field] of cases) {
    const res = await start(body);
    t.equal(res.status, 422, JSON.stringify(body));
    t.equal(res.body.error.message, message);
    t.equal(res.body.error.details.field, field);
  }
});

t.test('404 when no enabled organization matches, and domains match exactly (no subdomains, no parents)', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ email: 'a@nobody.test' }, "no organization signs in this email's domain with single sign-on"],
    [{ email: 'a@sales.acme.test' }, "no organization signs in this email's domain with single sign-on"],
    [{ email: 'a@acme-group.test' }, "no organization signs in this email's domain with single sign-on"],
    [{ email: 'a@dormant.test' }, "no organization signs in this email's domain with single sign-on"],
    [{ org_id: dormant.org.id }, 'single sign-on is not enabled for this organization'],
    [{ org_id: 999_999 }, 'single sign-on is not enabled for this organization'],
    [{ email: 'a@nobody.test', org_id: 999_999 }, 'no organization with single sign-on enabled matches this email or org_id'],
  ];
  for (const [body, message] of cases) {
    const res = await start(body);
    t.equal(res.status, 404, JSON.stringify(body));
    t.equal(res.body.error.message, message);
  }
});

t.test('the authorization URL of the matching organization, and nothing else', async (t) => {
  for (const body of [{ email: 'Someone@EU.acme-group.test' }, { org_id: tenant.org.id }, { email: 'b@acme.test', org_id: tenant.org.id }]) {
    const res = await start(body);
    t.equal(res.status, 200, JSON.stringify(body));
    t.same(Object.keys(res.body), ['authorization_url']);
    t.equal(res.headers.getSetCookie().length, 0, 'no cookie');
    t.equal(res.headers.get('cache-control'), 'no-store');
    const url = new URL(res.body.authorization_url);
    t.equal(`${url.origin}${url.pathname}`, `${idp.issuer}/auth`, "the discovery document's authorization_endpoint");
    const p = url.searchParams;
    t.match(Object.fromEntries(p), {
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: `${server.url}/api/v1/auth/oidc/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state: /^[A-Za-z0-9_-]{43}$/,
      nonce: /^[A-Za-z0-9_-]{43}$/,
      code_challenge: /^[A-Za-z0-9_-]{43}$/,
    });
    t.equal(p.get('login_hint'), 'email' in body ? body.email!.toLowerCase() : null);
    t.notOk(p.has('client_secret'));
    t.notMatch(res.text, idp.clientSecret);
  }
  const other = await start({ email: 'x@other.test' });
  t.equal(new URL(other.body.authorization_url).origin, otherIdp.issuer);
});

t.test('the state is stored as a hash with its nonce hashed and the verifier sealed, valid ten minutes', async (t) => {
  const res = await start({ email: 'c@acme.test' });
  const p = new URL(res.body.authorization_url).searchParams;
  const state = p.get('state')!;
  const row = services.meta.prepare('SELECT * FROM oidc_states WHERE state_hash = ?').get(hashToken(services, 'oidc-state', state)) as Record<string, string | number>;
  t.ok(row, 'found by its hash');
  t.equal(row.org_id, tenant.org.id);
  t.notMatch(JSON.stringify(row), state);
  t.notMatch(JSON.stringify(row), p.get('nonce')!);
  t.equal(Date.parse(String(row.expires_at)) - Date.parse(String(row.created_at)), 10 * 60 * 1000);
  t.equal(row.created_at, server.clock.now().toISOString());
  const verifier = open(deriveKey(services.secret, 'oidc-encryption'), String(row.verifier_sealed));
  t.match(verifier, /^[A-Za-z0-9_-]{43,128}$/, 'an RFC 7636 verifier');
  t.equal(createHash('sha256').update(verifier).digest('base64url'), p.get('code_challenge'), 'S256 of the verifier');
  t.notMatch(String(row.verifier_sealed), verifier);

  server.clock.advance(10 * 60 * 1000);
  await start({ email: 'd@acme.test' });
  t.equal(
    services.meta
      .prepare('SELECT count(*) FROM oidc_states WHERE state_hash = ?')
      .pluck()
      .get(hashToken(services, 'oidc-state', state)),
    0,
    'expired states are swept',
  );
});

t.test('429 from the sign-in group budget', async (t) => {
  const limited = await ssoSetup(t, {}, { 'rate_limit.auth_ip_per_minute': 3 });
  await configureProvider(limited);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await limited.server.request('POST', '/api/v1/auth/oidc/start', { body: { org_id: limited.tenant.org.id } })).status);
  t.same(statuses, [200, 200, 200, 429]);
  const cb = await limited.server.request('GET', '/api/v1/auth/oidc/callback?state=x&code=y');
  t.equal(cb.status, 429, 'the callback spends from the same budget');
  t.ok(cb.headers.get('retry-after'));
});
