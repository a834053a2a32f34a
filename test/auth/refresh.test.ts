// The refresh cookie's life: refresh and bootstrap rotate it, a rotated token presented again ends
// every session of its user (a second, parallel one included), logout clears it, organization
// switching re-checks membership, and cookie-authenticated routes refuse foreign origins.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { addMember, createTenant, login, refreshCookieFrom, TEST_PASSWORD } from '../support/factories.js';
import { addMembership, createOrganization } from '../../server/accounts/organizations.js';
import { ROOMY_LIMITS, withCookie } from './authTestKit.js';

const CLEARED = 'pp_rt=; Max-Age=0; Path=/api/v1/auth; HttpOnly; SameSite=Strict';
const ROTATED = /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict$/;

async function signedIn(server: TestServer) {
  const tenant = await createTenant(server);
  const session = await login(server, tenant.owner.email, TEST_PASSWORD);
  return { ...tenant, ...session, cookie: session.cookie!, token: session.token! };
}

t.test('refresh', async (t) => {
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, cors_origins: 'https://dash.example.com' } });

  t.test('401 with the cookie cleared for no cookie, an unknown one or a tampered one', async (t) => {
    for (const cookie of [undefined, 'pp_rt=unknown-token-value', 'other=1']) {
      const res = await withCookie(server, '/api/v1/auth/refresh', cookie);
      t.equal(res.status, 401, String(cookie));
      t.equal(res.body.error.code, 'unauthorized');
      t.same(res.headers.getSetCookie(), [CLEARED]);
    }
  });

  t.test('422 for a body that is not {org_id}', async (t) => {
    const { cookie } = await signedIn(server);
    for (const body of [{ org_id: 'two' }, { org_id: 0 }, { org: 1 }]) {
      const res = await withCookie(server, '/api/v1/auth/refresh', cookie, { body });
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.code, 'validation_failed');
    }
    t.equal((await withCookie(server, '/api/v1/auth/refresh', cookie)).status, 200, 'the cookie was not spent by the refusals');
  });

  t.test('200 rotates: a new access token and a new cookie, each usable', async (t) => {
    const s = await signedIn(server);
    const res = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    t.equal(res.status, 200);
    const [set] = res.headers.getSetCookie();
    t.match(set, ROTATED);
    const next = refreshCookieFrom(res.headers)!;
    t.not(next, s.cookie);
    t.same(res.body.org, { id: s.org.id, name: s.org.name, role: 'owner' });
    t.equal((await server.request('GET', '/api/v1/me', { token: res.body.access_token })).status, 200);
    const again = await withCookie(server, '/api/v1/auth/refresh', next);
    t.equal(again.status, 200, 'the rotated cookie refreshes in turn');
  });

  t.test('reusing a rotated token: 401, cookie cleared, and every session of the user revoked', async (t) => {
    const s = await signedIn(server);
    const parallel = await login(server, s.owner.email, TEST_PASSWORD);
    const rotated = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    const current = refreshCookieFrom(rotated.headers)!;

    const reuse = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    t.equal(reuse.status, 401);
    t.same(reuse.headers.getSetCookie(), [CLEARED]);

    t.equal((await withCookie(server, '/api/v1/auth/refresh', current)).status, 401, 'the legitimate successor is dead too');
    t.equal((await withCookie(server, '/api/v1/auth/refresh', parallel.cookie)).status, 401, 'the second, parallel session is revoked');
    t.equal((await server.request('GET', '/api/v1/me', { token: parallel.token })).status, 401, 'and its access token stops working');
    t.equal((await server.request('GET', '/api/v1/me', { token: rotated.body.access_token })).status, 401);
    t.equal((await login(server, s.owner.email, TEST_PASSWORD)).status, 200, 'the user can sign in again');
  });

  t.test('org_id switches organization after re-checking membership; without it the current one is kept', async (t) => {
    const s = await signedIn(server);
    const { meta, clock } = server.running.services;
    const second = createOrganization(meta, 'Second', clock.now());
    addMembership(meta, second.id, s.owner.id, 'analyst', clock.now());
    const foreign = await createTenant(server);

    const refused = await withCookie(server, '/api/v1/auth/refresh', s.cookie, { body: { org_id: foreign.org.id } });
    t.equal(refused.status, 403);
    t.equal(refused.body.error.code, 'forbidden');
    t.same(refused.headers.getSetCookie(), [], 'the cookie is neither rotated nor cleared');

    const switched = await withCookie(server, '/api/v1/auth/refresh', s.cookie, { body: { org_id: second.id } });
    t.equal(switched.status, 200);
    t.same(switched.body.org, { id: second.id, name: 'Second', role: 'analyst' });
    const me = await server.request('GET', '/api/v1/me', { token: switched.body.access_token });
    t.same(me.body.org, { id: second.id, name: 'Second', role: 'analyst' });

    const kept = await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(switched.headers));
    t.equal(kept.body.org.id, second.id, 'a refresh without a body keeps the switched organization');
  });

  t.test('a member removed from the session organization cannot refresh into it', async (t) => {
    const tenant = await createTenant(server);
    const member = await addMember(server, tenant.org, 'analyst');
    const s = await login(server, member.email, TEST_PASSWORD);
    server.running.services.meta.prepare('DELETE FROM memberships WHERE user_id = ?').run(member.id);
    const res = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    t.equal(res.status, 401);
    t.same(res.headers.getSetCookie(), [CLEARED]);
  });

  t.test('the refresh token expires 30 days after its last use', async (t) => {
    const s = await signedIn(server);
    server.clock.advance(29 * 24 * 3600_000);
    const res = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    t.equal(res.status, 200, 'still valid after 29 days');
    server.clock.advance(30 * 24 * 3600_000 + 1000);
    t.equal((await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(res.headers))).status, 401, 'gone 30 days after');
  });

  t.test('Origin: absent, the base URL or a configured origin pass; anything else is 403', async (t) => {
    const s = await signedIn(server);
    for (const path of ['/api/v1/auth/refresh', '/api/v1/auth/bootstrap', '/api/v1/auth/logout']) {
      const res = await withCookie(server, path, s.cookie, { origin: 'https://evil.example' });
      t.equal(res.status, 403, path);
      t.same(res.body.error, { code: 'forbidden', message: 'this origin may not use the session cookie', details: { allowed_origin: new URL(server.running.services.config.base_url).origin } });
      t.same(res.headers.getSetCookie(), [], `${path} leaves the cookie alone`);
    }
    t.equal((await withCookie(server, '/api/v1/auth/refresh', s.cookie, { origin: 'null' })).status, 403, 'an opaque origin is refused');
    const base = await withCookie(server, '/api/v1/auth/refresh', s.cookie, { origin: new URL(server.running.services.config.base_url).origin });
    t.equal(base.status, 200);
    const dash = await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(base.headers), { origin: 'https://dash.example.com' });
    t.equal(dash.status, 200);
  });
});

t.test('a clock stepped back or forward: a refresh token lives at most 30 days from now', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const DAY = 24 * 3600_000;
  const before = await signedIn(server);
  const within = await signedIn(server);
  server.clock.step(-30_000);
  t.equal((await withCookie(server, '/api/v1/auth/refresh', within.cookie)).status, 200, 'a step back inside the minute of tolerance ends nothing');
  server.clock.step(30_000 - DAY);
  t.equal((await withCookie(server, '/api/v1/auth/refresh', before.cookie)).status, 401, 'issued a day "ahead": it would otherwise live 31 days');
  const after = await signedIn(server);
  server.clock.step(2 * DAY);
  const res = await withCookie(server, '/api/v1/auth/refresh', after.cookie);
  t.equal(res.status, 200, 'a step forward inside the lifetime leaves the token alive');
  server.clock.step(30 * DAY);
  t.equal((await withCookie(server, '/api/v1/auth/refresh', refreshCookieFrom(res.headers))).status, 401, 'a step forward past the lifetime ends it');
});

t.test('no token, cookie or password reaches the logs', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const s = await signedIn(server);
  const refreshed = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
  await withCookie(server, '/api/v1/auth/refresh', s.cookie);
  await server.request('GET', '/api/v1/me', { token: refreshed.body.access_token });
  const logs = JSON.stringify(server.logs);
  t.match(logs, /"url":"\/api\/v1\/auth\/refresh"/, 'the requests were logged');
  for (const secret of [s.cookie.slice(6), refreshCookieFrom(refreshed.headers)!.slice(6), s.token, refreshed.body.access_token, TEST_PASSWORD]) {
    t.notOk(logs.includes(secret), `${secret.slice(0, 8)}… is not in the logs`);
  }
});

t.test('bootstrap', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });

  t.test('401 without a cookie, never cacheable', async (t) => {
    const res = await withCookie(server, '/api/v1/auth/bootstrap', undefined);
    t.equal(res.status, 401);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.same(res.headers.getSetCookie(), [CLEARED]);
  });

  t.test('422 for a bad body', async (t) => {
    const s = await signedIn(server);
    const res = await withCookie(server, '/api/v1/auth/bootstrap', s.cookie, { body: { org_id: -1 } });
    t.equal(res.status, 422);
  });

  t.test('403 for an organization the user is not in', async (t) => {
    const s = await signedIn(server);
    const foreign = await createTenant(server);
    const res = await withCookie(server, '/api/v1/auth/bootstrap', s.cookie, { body: { org_id: foreign.org.id } });
    t.equal(res.status, 403);
  });

  t.test('200: token response, no-store, rotated cookie, and the license section', async (t) => {
    const s = await signedIn(server);
    const res = await withCookie(server, '/api/v1/auth/bootstrap', s.cookie);
    t.equal(res.status, 200);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.match(res.headers.getSetCookie()[0], ROTATED);
    t.same(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'license', 'org', 'token_type', 'user']);
    t.equal(res.body.user.id, s.owner.id);
    const reuse = await withCookie(server, '/api/v1/auth/refresh', s.cookie);
    t.equal(reuse.status, 401, 'bootstrap rotated the cookie exactly like refresh');
  });
});

t.test('logout', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });

  t.test('204 with Max-Age=0 even without a cookie or with an unknown one', async (t) => {
    for (const cookie of [undefined, 'pp_rt=never-issued']) {
      const res = await withCookie(server, '/api/v1/auth/logout', cookie);
      t.equal(res.status, 204);
      t.same(res.headers.getSetCookie(), [CLEARED]);
    }
  });

  t.test('ends the session: its refresh token and access token stop working', async (t) => {
    const s = await signedIn(server);
    const res = await withCookie(server, '/api/v1/auth/logout', s.cookie);
    t.equal(res.status, 204);
    t.same(res.headers.getSetCookie(), [CLEARED]);
    t.equal((await withCookie(server, '/api/v1/auth/refresh', s.cookie)).status, 401);
    t.equal((await server.request('GET', '/api/v1/me', { token: s.token })).status, 401);
  });
});
