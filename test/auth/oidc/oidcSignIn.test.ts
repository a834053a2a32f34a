// Single sign-on through a real OpenID provider (oidc-provider on loopback), over HTTP end to end:
// start → the provider's login → pp's callback → the refresh cookie → /auth/refresh. Every refusal is
// a plain 401 whose reason shows up only in the server log and the audit log.

import t, { type Test } from 'tap';
import { listAudit } from '../../../server/audit/recordAudit.js';
import { findUserByEmail } from '../../../server/accounts/users.js';
import { addMembership, createOrganization, getMembership } from '../../../server/accounts/organizations.js';
import { createTestUser, refreshCookieFrom } from '../../support/factories.js';
import { withCookie } from '../authTestKit.js';
import { callback, configureProvider, memberWithEmail, refusals, ssoSetup, throughProvider } from './oidcKit.js';

const setup = await ssoSetup(t);
const { server, idp, tenant } = setup;
const services = server.running.services;
await configureProvider(setup);

/** Expects the uniform failure of a callback and returns the reasons logged meanwhile. */
async function refused(t: Test, pathAndQuery: string): Promise<string[]> {
  const from = server.logs.length;
  const res = await callback(server, pathAndQuery);
  t.equal(res.status, 401);
  t.same(res.body, { error: { code: 'unauthorized', message: 'single sign-on failed', details: {} } });
  t.equal(res.headers.getSetCookie().length, 0, 'no cookie on a failure');
  return refusals(server, from);
}

t.test('an active member signs in: 303 to the web app with only the refresh cookie', async (t) => {
  const alice = await memberWithEmail(setup, 'alice@acme.test', 'analyst');
  idp.accounts.set('alice', { email: 'alice@acme.test', email_verified: true, name: 'Alice' });
  const back = await throughProvider(setup, 'alice');
  const res = await callback(server, back);
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), `${server.url}/auth/callback`);
  const cookies = res.headers.getSetCookie();
  t.equal(cookies.length, 1);
  t.match(cookies[0], /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict$/);
  t.notMatch(res.headers.get('location')!, /token|code|state/, 'nothing in the URL');
  t.notMatch(res.text, /eyJ/, 'no JWT in the body');

  // The web app exchanges the cookie for an access token, as after a password login.
  const refreshed = await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(res.headers));
  t.equal(refreshed.status, 200);
  t.equal(refreshed.body.user.id, alice.id);
  t.same(refreshed.body.org, { id: tenant.org.id, name: tenant.org.name, role: 'analyst' });
  const me = await server.request('GET', '/api/v1/me', { token: refreshed.body.access_token });
  t.equal(me.status, 200);
  t.equal(me.body.user.email, 'alice@acme.test');

  const [entry] = listAudit(services, { action: 'auth.oidc.sign_in', actorUserId: alice.id });
  t.match(entry, { org_id: tenant.org.id, target: 'alice@acme.test', outcome: 'success', details: { issuer: idp.issuer } });
});

t.test('the same callback a second time is refused: the state was consumed', async (t) => {
  await memberWithEmail(setup, 'reuse@acme.test');
  idp.accounts.set('reuse', { email: 'reuse@acme.test', email_verified: true });
  const back = await throughProvider(setup, 'reuse');
  t.equal((await callback(server, back)).status, 303);
  t.same(await refused(t, back), ['state_unknown']);
});

t.test('two callbacks racing with one state: exactly one signs in', async (t) => {
  await memberWithEmail(setup, 'race@acme.test');
  idp.accounts.set('race', { email: 'race@acme.test', email_verified: true });
  const back = await throughProvider(setup, 'race');
  const statuses = (await Promise.all([callback(server, back), callback(server, back)])).map((r) => r.status).sort();
  t.same(statuses, [303, 401]);
});

t.test('a state older than ten minutes is refused', async (t) => {
  await memberWithEmail(setup, 'slow@acme.test');
  idp.accounts.set('slow', { email: 'slow@acme.test', email_verified: true });
  const inTime = await throughProvider(setup, 'slow');
  server.clock.advance(10 * 60 * 1000 - 1000);
  t.equal((await callback(server, inTime)).status, 303, 'one second before the deadline it still works');

  const late = await throughProvider(setup, 'slow');
  server.clock.advance(10 * 60 * 1000);
  t.same(await refused(t, late), ['state_expired']);
  // Back to (about) the provider's time, for the tests that follow.
  server.clock.set(new Date());
});

t.test('just-in-time membership off: a verified user of the domain who is not a member is refused', async (t) => {
  idp.accounts.set('dave', { email: 'dave@acme.test', email_verified: true });
  t.same(await refused(t, await throughProvider(setup, 'dave')), ['not_a_member']);
  t.equal(findUserByEmail(services.meta, 'dave@acme.test'), undefined, 'no account was created');
  const [entry] = listAudit(services, { action: 'auth.oidc.sign_in', orgId: tenant.org.id });
  t.match(entry, { outcome: 'failure', target: 'dave@acme.test', details: { reason: 'not_a_member' } });
});

t.test('just-in-time membership on: a new user gets an account and the default role', async (t) => {
  await configureProvider(setup, { client_secret: undefined, jit: { enabled: true, default_role: 'viewer' } });
  idp.accounts.set('erin', { email: 'Erin@ACME.test', email_verified: true, name: 'Erin' });
  const res = await callback(server, await throughProvider(setup, 'erin'));
  t.equal(res.status, 303);
  const erin = findUserByEmail(services.meta, 'erin@acme.test')!;
  t.equal(erin.name, 'Erin');
  t.equal(erin.password_hash, null, 'no password: this account signs in through the provider');
  t.equal(getMembership(services.meta, tenant.org.id, erin.id)?.role, 'viewer');
  const refreshed = await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(res.headers));
  t.equal(refreshed.body.org.role, 'viewer');
  t.match(listAudit(services, { actorUserId: erin.id })[0], { action: 'auth.oidc.sign_in', outcome: 'success', details: { jit_joined: true, role: 'viewer' } });

  t.test('an existing account of another organization joins too, keeping its password', async (t) => {
    const other = await createTestUser(server, { email: 'frank@acme.test' });
    const elsewhere = createOrganization(services.meta, 'Elsewhere', server.clock.now());
    addMembership(services.meta, elsewhere.id, other.id, 'owner', server.clock.now());
    idp.accounts.set('frank', { email: 'frank@acme.test', email_verified: true });
    t.equal((await callback(server, await throughProvider(setup, 'frank'))).status, 303);
    t.equal(getMembership(services.meta, tenant.org.id, other.id)?.role, 'viewer');
    t.equal(getMembership(services.meta, elsewhere.id, other.id)?.role, 'owner');
    t.not(findUserByEmail(services.meta, 'frank@acme.test')!.password_hash, null);
  });

  t.test('a member keeps the role they have', async (t) => {
    const admin = await memberWithEmail(setup, 'grace@acme.test', 'admin');
    idp.accounts.set('grace', { email: 'grace@acme.test', email_verified: true });
    const res = await callback(server, await throughProvider(setup, 'grace'));
    const refreshed = await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(res.headers));
    t.same([refreshed.body.user.id, refreshed.body.org.role], [admin.id, 'admin']);
  });
});

t.test('an email outside the exact domains is refused, subdomains included', async (t) => {
  idp.accounts.set('heidi', { email: 'heidi@elsewhere.test', email_verified: true });
  t.same(await refused(t, await throughProvider(setup, 'heidi', { org_id: tenant.org.id })), ['domain_not_allowed']);
  idp.accounts.set('ivan', { email: 'ivan@eu.acme.test', email_verified: true });
  t.same(await refused(t, await throughProvider(setup, 'ivan', { org_id: tenant.org.id })), ['domain_not_allowed']);
  t.equal(findUserByEmail(services.meta, 'heidi@elsewhere.test'), undefined, 'just-in-time membership does not apply');
});

t.test('an email the provider does not vouch for is refused', async (t) => {
  idp.accounts.set('judy', { email: 'judy@acme.test', email_verified: false });
  t.same(await refused(t, await throughProvider(setup, 'judy')), ['email_unverified']);
  idp.accounts.set('ken', { email: 'ken@acme.test' });
  t.same(await refused(t, await throughProvider(setup, 'ken')), ['email_unverified'], 'absent email_verified is not true');
  t.equal(findUserByEmail(services.meta, 'judy@acme.test'), undefined);
});

t.test('an ID token for another nonce is refused', async (t) => {
  await memberWithEmail(setup, 'leo@acme.test');
  idp.accounts.set('leo', { email: 'leo@acme.test', email_verified: true });
  const start = await server.request('POST', '/api/v1/auth/oidc/start', { body: { email: 'leo@acme.test' } });
  // Whoever altered the authorization request gets a token for their nonce, not the one pp stored.
  const altered = new URL(start.body.authorization_url);
  altered.searchParams.set('nonce', 'attacker-chosen-nonce');
  const back = await idp.signIn(altered.toString(), 'leo');
  t.same(await refused(t, back.pathname + back.search), ['nonce_mismatch']);
});

t.test('an ID token signed with an algorithm outside the allow-list (HS256 with the client secret) is refused', async (t) => {
  await memberWithEmail(setup, 'mia@acme.test');
  idp.accounts.set('mia', { email: 'mia@acme.test', email_verified: true });
  idp.reconfigure({ idTokenAlg: 'HS256' });
  t.teardown(() => idp.reconfigure({ idTokenAlg: 'RS256' }));
  const from = server.logs.length;
  t.same(await refused(t, await throughProvider(setup, 'mia')), ['id_token_invalid']);
  t.match(
    server.logs.slice(from).find((l) => l.reason === 'id_token_invalid'),
    { detail: /ERR_JOSE_ALG_NOT_ALLOWED/ },
  );
});

t.test('every allow-listed algorithm the provider offers signs in', async (t) => {
  await memberWithEmail(setup, 'nina@acme.test');
  idp.accounts.set('nina', { email: 'nina@acme.test', email_verified: true });
  t.teardown(() => idp.reconfigure({ idTokenAlg: 'RS256' }));
  for (const alg of ['RS256', 'PS256', 'ES256', 'EdDSA']) {
    idp.reconfigure({ idTokenAlg: alg });
    t.equal((await callback(server, await throughProvider(setup, 'nina'))).status, 303, alg);
  }
});

t.test('after the provider rotates its keys, an unknown kid fetches the key set again (at most once a minute)', async (t) => {
  await memberWithEmail(setup, 'oscar@acme.test');
  idp.accounts.set('oscar', { email: 'oscar@acme.test', email_verified: true });
  const before = new Set(idp.keyIds());
  await idp.rotateKeys();
  server.clock.advance(61_000);
  const from = server.logs.length;
  t.equal((await callback(server, await throughProvider(setup, 'oscar'))).status, 303);
  t.ok(server.logs.slice(from).some((l) => l.msg === 'identity provider keys fetched again'));
  const stored = JSON.parse(services.meta.prepare('SELECT jwks_json FROM oidc_providers WHERE org_id = ?').pluck().get(tenant.org.id) as string);
  t.same(stored.keys.map((k: { kid: string }) => k.kid).sort(), idp.keyIds().sort());
  t.notOk(
    stored.keys.some((k: { kid: string }) => before.has(k.kid)),
    'the old keys are gone',
  );

  // A second rotation right away: the key set was fetched less than a minute ago, so not again yet.
  await idp.rotateKeys();
  t.same(await refused(t, await throughProvider(setup, 'oscar')), ['id_token_invalid']);
  server.clock.advance(61_000);
  t.equal((await callback(server, await throughProvider(setup, 'oscar'))).status, 303);
  server.clock.set(new Date());
});

t.test('a refusal sent back by the provider, a missing code or state, or another issuer: 401', async (t) => {
  const start = await server.request('POST', '/api/v1/auth/oidc/start', { body: { org_id: tenant.org.id } });
  const state = new URL(start.body.authorization_url).searchParams.get('state')!;
  t.same(await refused(t, `/api/v1/auth/oidc/callback?state=${state}&error=access_denied`), ['provider_error']);
  t.same(await refused(t, `/api/v1/auth/oidc/callback?state=${state}&code=x`), ['state_unknown'], 'the error consumed the state');
  t.same(await refused(t, '/api/v1/auth/oidc/callback'), ['state_unknown']);

  const again = await server.request('POST', '/api/v1/auth/oidc/start', { body: { org_id: tenant.org.id } });
  const state2 = new URL(again.body.authorization_url).searchParams.get('state')!;
  t.same(await refused(t, `/api/v1/auth/oidc/callback?state=${state2}`), ['code_missing']);

  await memberWithEmail(setup, 'pat@acme.test');
  idp.accounts.set('pat', { email: 'pat@acme.test', email_verified: true });
  const back = new URL(await throughProvider(setup, 'pat'), server.url);
  back.searchParams.set('iss', 'https://idp.evil.test');
  t.same(await refused(t, back.pathname + back.search), ['issuer_mismatch']);
});

t.test('a provider disabled between start and callback: refused', async (t) => {
  await memberWithEmail(setup, 'quinn@acme.test');
  idp.accounts.set('quinn', { email: 'quinn@acme.test', email_verified: true });
  const back = await throughProvider(setup, 'quinn');
  await configureProvider(setup, { client_secret: undefined, enabled: false });
  t.teardown(() => configureProvider(setup, { client_secret: undefined }));
  t.same(await refused(t, back), ['provider_disabled']);
});

t.test('the reason of a refusal is in the log, never in the answer or the logged URL', async (t) => {
  const from = server.logs.length;
  await callback(server, '/api/v1/auth/oidc/callback?state=forged&code=secret-code-value');
  const lines = JSON.stringify(server.logs.slice(from));
  t.notMatch(lines, /secret-code-value|forged/);
  t.match(lines, /single sign-on refused: state_unknown/);
});
