// POST /me/password: the current password proves the caller; the new one follows the rule; the
// other sessions end and this one stays; the first-start and operator-set passwords are flagged
// on GET /me until their owner changes them.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { ROOMY_LIMITS, withCookie } from './authTestKit.js';
import { ensureDemoAccount } from '../../server/accounts/demoAccount.js';

const NEW_PASSWORD = 'Changed-Pass-42';

t.test('changing a password', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const { owner } = await createTenant(server);
  const here = await login(server, owner.email, TEST_PASSWORD);
  const elsewhere = await login(server, owner.email, TEST_PASSWORD);
  const change = (body: unknown, token: string | null | undefined = here.token) => server.request('POST', '/api/v1/me/password', { token: token ?? undefined, body });

  t.test('401 without a token', async (t) => {
    const res = await change({ current_password: TEST_PASSWORD, new_password: NEW_PASSWORD }, null);
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
  });

  t.test('422 for each defect, with the field named; nothing changes', async (t) => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ new_password: NEW_PASSWORD }, 'current_password', /current_password/],
      [{ current_password: 'Wrong-Pass-1', new_password: NEW_PASSWORD }, 'current_password', /^the current password is not correct$/],
      [{ current_password: TEST_PASSWORD, new_password: 'alllowercase1!' }, 'new_password', /^password must contain an uppercase letter$/],
      [{ current_password: TEST_PASSWORD, new_password: 'Short1!' }, 'new_password', /^password must be at least 8 characters$/],
      [{ current_password: TEST_PASSWORD, new_password: TEST_PASSWORD }, 'new_password', /^the new password must differ from the current one$/],
      [{ current_password: TEST_PASSWORD, new_password: NEW_PASSWORD, extra: 1 }, 'extra', /extra/],
    ];
    for (const [body, field, message] of cases) {
      const res = await change(body);
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.code, 'validation_failed');
      t.match(res.body.error.message, message);
      t.match(JSON.stringify(res.body.error.details), field);
    }
    t.equal((await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } })).status, 200, 'old password still works');
  });

  t.test('204: the new password signs in, the old one does not, other sessions end, this one stays', async (t) => {
    const res = await change({ current_password: TEST_PASSWORD, new_password: NEW_PASSWORD });
    t.equal(res.status, 204);
    t.equal((await server.request('GET', '/api/v1/me', { token: here.token })).status, 200, 'the session that changed it stays');
    t.equal((await withCookie(server, '/api/v1/auth/refresh', here.cookie)).status, 200, 'and can refresh');
    t.equal((await server.request('GET', '/api/v1/me', { token: elsewhere.token })).status, 401, 'another session ends at once');
    t.equal((await withCookie(server, '/api/v1/auth/refresh', elsewhere.cookie)).status, 401, 'and its cookie is dead');
    t.equal((await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } })).status, 401);
    t.equal((await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: NEW_PASSWORD } })).status, 200);
  });
});

t.test('a printed one-time password is flagged until its owner changes it', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const demo = await ensureDemoAccount(server.running.services.meta, server.clock.now());
  const session = await login(server, demo.email, demo.password!);
  const me = async () => (await server.request('GET', '/api/v1/me', { token: session.token })).body.user.password_change_required;
  t.equal(await me(), true);
  t.equal((await server.request('POST', '/api/v1/me/password', { token: session.token, body: { current_password: demo.password, new_password: NEW_PASSWORD } })).status, 204);
  t.equal(await me(), false);
  const { owner } = await createTenant(server);
  const other = await login(server, owner.email, TEST_PASSWORD);
  t.equal((await server.request('GET', '/api/v1/me', { token: other.token })).body.user.password_change_required, false, 'a password its owner chose is not flagged');
});
