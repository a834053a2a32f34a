// The caller's sessions: listed with the current one marked, and revocable one by one; a revoked
// session's access token is refused on the next request and its refresh token no longer works.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { ROOMY_LIMITS, withCookie } from './authTestKit.js';

t.test('sessions', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const { owner } = await createTenant(server);
  const laptop = await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD }, headers: { 'user-agent': 'Laptop/1.0' } });
  const phone = await login(server, owner.email, TEST_PASSWORD);
  const laptopToken = laptop.body.access_token as string;

  t.test('401 without a token', async (t) => {
    t.equal((await server.request('GET', '/api/v1/me/sessions')).status, 401);
    t.equal((await server.request('DELETE', `/api/v1/me/sessions/${randomUUID()}`)).status, 401);
  });

  t.test('list: both sessions, newest first, the caller marked current', async (t) => {
    const res = await server.request('GET', '/api/v1/me/sessions', { token: laptopToken });
    t.equal(res.status, 200);
    t.equal(res.body.next_cursor, null);
    t.equal(res.body.items.length, 2);
    const mine = res.body.items.find((s: { current: boolean }) => s.current);
    t.equal(mine.user_agent, 'Laptop/1.0');
    t.match(mine.ip, /127\.0\.0\.1/);
    t.equal(res.body.items.filter((s: { current: boolean }) => s.current).length, 1);
    t.same(Object.keys(mine).sort(), ['created_at', 'current', 'id', 'ip', 'last_seen_at', 'user_agent']);
  });

  t.test('400 for a malformed id; 404 for a session that is not yours', async (t) => {
    t.equal((await server.request('DELETE', '/api/v1/me/sessions/not-a-uuid', { token: laptopToken })).status, 400);
    t.equal((await server.request('DELETE', `/api/v1/me/sessions/${randomUUID()}`, { token: laptopToken })).status, 404);
    const stranger = await createTenant(server);
    const theirs = await login(server, stranger.owner.email, TEST_PASSWORD);
    const theirList = await server.request('GET', '/api/v1/me/sessions', { token: theirs.token });
    const res = await server.request('DELETE', `/api/v1/me/sessions/${theirList.body.items[0].id}`, { token: laptopToken });
    t.equal(res.status, 404);
    t.equal((await server.request('GET', '/api/v1/me', { token: theirs.token })).status, 200, 'their session is untouched');
  });

  t.test('revoking the other session: its access token is 401 at once and its cookie is dead', async (t) => {
    const list = await server.request('GET', '/api/v1/me/sessions', { token: laptopToken });
    const other = list.body.items.find((s: { current: boolean }) => !s.current);
    t.equal((await server.request('GET', '/api/v1/me', { token: phone.token })).status, 200);
    const res = await server.request('DELETE', `/api/v1/me/sessions/${other.id}`, { token: laptopToken });
    t.equal(res.status, 204);
    const refused = await server.request('GET', '/api/v1/me', { token: phone.token });
    t.equal(refused.status, 401);
    t.equal(refused.body.error.code, 'unauthorized');
    t.equal((await withCookie(server, '/api/v1/auth/refresh', phone.cookie)).status, 401);
    const after = await server.request('GET', '/api/v1/me/sessions', { token: laptopToken });
    t.same(
      after.body.items.map((s: { id: string }) => s.id),
      [list.body.items.find((s: { current: boolean }) => s.current).id],
    );
    t.equal((await server.request('DELETE', `/api/v1/me/sessions/${other.id}`, { token: laptopToken })).status, 404, 'already revoked');
  });

  t.test('revoking your own current session signs you out', async (t) => {
    const me = await server.request('GET', '/api/v1/me', { token: laptopToken });
    t.equal((await server.request('DELETE', `/api/v1/me/sessions/${me.body.session_id}`, { token: laptopToken })).status, 204);
    t.equal((await server.request('GET', '/api/v1/me', { token: laptopToken })).status, 401);
  });
});
