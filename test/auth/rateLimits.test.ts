// The Limits table for the authentication group, with the default settings: 10 attempts per minute per
// address shared by login, registration, password reset and invitation accept, plus 5 per minute per
// email; refresh, bootstrap and logout spend 120 per minute per address from a budget of their own.

import t, { type Test } from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';

function expectLimited(t: Test, res: { status: number; body: any; headers: Headers }, retryAfter: string, label: string): void {
  t.equal(res.status, 429, label);
  t.equal(res.body.error.code, 'rate_limited', label);
  t.equal(res.headers.get('retry-after'), retryAfter, label);
}

t.test('10 attempts per minute per address across the sign-in group', async (t) => {
  const server = await startTestServer(t);
  const attempts = [
    () => server.request('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' } }),
    () => server.request('POST', '/api/v1/auth/register', { body: { email: 'malformed' } }),
    () => server.request('POST', '/api/v1/auth/password/forgot', { body: { email: uniqueEmail() } }),
    () => server.request('POST', '/api/v1/auth/password/reset', { body: { token: 'x', password: TEST_PASSWORD } }),
    () => server.request('POST', '/api/v1/auth/invite/accept', { body: { token: 'x' } }),
  ];
  for (let i = 0; i < 10; i++) t.not((await attempts[i % attempts.length]!()).status, 429, `attempt ${i + 1}`);
  for (const attempt of attempts) expectLimited(t, await attempt(), '60', 'the 11th attempt, whatever the operation');

  const refresh = await server.request('POST', '/api/v1/auth/refresh');
  t.equal(refresh.status, 401, 'refresh has its own budget');
  t.equal((await server.request('GET', '/api/v1/health')).status, 200, 'the rest of the API is not affected');

  server.clock.advance(59_000);
  expectLimited(t, await attempts[0]!(), '1', 'still none a second before the minute is over');
  server.clock.advance(1_000);
  for (let i = 0; i < 10; i++) t.not((await attempts[i % attempts.length]!()).status, 429, `a minute later, attempt ${i + 1}`);
  expectLimited(t, await attempts[0]!(), '60', 'and again no more than 10');
});

t.test('5 attempts per minute per email, whatever the address', async (t) => {
  const server = await startTestServer(t);
  const { owner } = await createTenant(server);
  for (let i = 0; i < 5; i++) {
    const res = await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: 'Wrong-Pass-1' } });
    t.equal(res.status, 401, `attempt ${i + 1}`);
  }
  expectLimited(
    t,
    await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email.toUpperCase(), password: TEST_PASSWORD } }),
    '60',
    'the 6th attempt on that email, even with the right password',
  );
  expectLimited(t, await server.request('POST', '/api/v1/auth/password/forgot', { body: { email: owner.email } }), '60', 'forgot shares the email budget');
  const other = await server.request('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' } });
  t.equal(other.status, 401, 'another email still has its budget');
  server.clock.advance(60_000);
  t.equal((await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } })).status, 200);
});

t.test('120 per minute per address for refresh, bootstrap and logout together', async (t) => {
  const server = await startTestServer(t);
  const calls = ['/api/v1/auth/refresh', '/api/v1/auth/bootstrap', '/api/v1/auth/logout'];
  for (let i = 0; i < 120; i++) {
    const res = await server.request('POST', calls[i % 3]!);
    if (res.status === 429) {
      t.fail(`limited early at ${i + 1}`);
      break;
    }
  }
  for (const path of calls) expectLimited(t, await server.request('POST', path), '60', path);
  const login = await server.request('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' } });
  t.equal(login.status, 401, 'login has its own budget');
});

t.test('behind a proxy, a client-written X-Forwarded-For cannot escape the per-address budget', async (t) => {
  // The test client plays the proxy: it connects from loopback and appends the real client address
  // after whatever the client wrote, as nginx's $proxy_add_x_forwarded_for does.
  for (const trust of [1, 'loopback']) {
    const server = await startTestServer(t, { settings: { trust_proxy: trust } });
    const attempt = (spoofed: string, client: string) =>
      server.request('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' }, headers: { 'x-forwarded-for': `${spoofed}, ${client}` } });
    for (let i = 0; i < 10; i++) t.equal((await attempt(`198.51.100.${i}`, '203.0.113.7')).status, 401, `trust_proxy ${trust}: attempt ${i + 1}`);
    expectLimited(t, await attempt('198.51.100.99', '203.0.113.7'), '60', `trust_proxy ${trust}: a new spoofed address does not get a new budget`);
    t.equal((await attempt('198.51.100.1', '203.0.113.8')).status, 401, `trust_proxy ${trust}: another real client has its own budget`);
    await server.close();
  }
});
