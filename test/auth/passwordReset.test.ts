// Password reset through real mail: forgot answers 204 for any address (an existing one gets a one-hour
// link on the SMTP sink), a newer link retires older ones, and a reset ends every session.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { linkToken, startSmtpSink } from '../support/smtpSink.js';
import { ROOMY_LIMITS, withCookie } from './authTestKit.js';

const NEW_PASSWORD = 'Brand-New-Pass-7';

t.test('password reset', async (t) => {
  const sink = await startSmtpSink(t);
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, smtp_url: sink.url, base_url: 'https://pp.example.com', mail_from: 'pp@example.com' } });
  const forgot = (email: string) => server.request('POST', '/api/v1/auth/password/forgot', { body: { email } });
  const reset = (token: string, password = NEW_PASSWORD) => server.request('POST', '/api/v1/auth/password/reset', { body: { token, password } });
  const mailTo = (email: string, n = 1) => sink.waitFor(() => sink.messages.filter((m) => m.to.includes(email)).length >= n).then(() => sink.messages.filter((m) => m.to.includes(email))[n - 1]!);

  t.test('forgot: 422 for a malformed address', async (t) => {
    const res = await forgot('nope');
    t.equal(res.status, 422);
    t.equal(res.body.error.details.field, 'email');
  });

  t.test('forgot: 204 for an unknown address, and no mail', async (t) => {
    const before = sink.messages.length;
    const res = await forgot(uniqueEmail('ghost'));
    t.equal(res.status, 204);
    t.equal(res.text, '');
    await new Promise((r) => setTimeout(r, 200));
    t.equal(sink.messages.length, before);
  });

  t.test('forgot answers in the same time whether or not the account exists', async (t) => {
    const { owner } = await createTenant(server);
    // The server's own duration (logged when the answer is handed to the network): the test client
    // shares the server's event loop, so its wall-clock time would include work done after the answer.
    const serverMs = async (email: string) => {
      const res = await forgot(email);
      t.equal(res.status, 204);
      const id = res.headers.get('x-request-id');
      await new Promise((r) => setTimeout(r, 30));
      return Number(server.logs.find((l) => l.req_id === id && l.msg === 'request')!.ms);
    };
    await serverMs(uniqueEmail('warm'));
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await serverMs(owner.email));
      unknown.push(await serverMs(uniqueEmail()));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    t.ok(Math.abs(median(known) - median(unknown)) < 20, `known ${known} ms, unknown ${unknown} ms`);
  });

  t.test('an existing account gets a link that resets the password once and ends every session', async (t) => {
    const { owner } = await createTenant(server);
    const a = await login(server, owner.email, TEST_PASSWORD);
    const b = await login(server, owner.email, TEST_PASSWORD);
    t.equal((await forgot(owner.email.toUpperCase())).status, 204);
    const mail = await mailTo(owner.email);
    t.equal(mail.from, 'pp@example.com');
    t.equal(mail.subject, 'Reset your pp password');
    t.match(mail.text, /https:\/\/pp\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}\b/);
    t.match(mail.text, /within one hour/);
    const token = linkToken(mail, '/reset-password');

    const weak = await reset(token, 'weakpassword');
    t.equal(weak.status, 422);
    t.equal(weak.body.error.details.field, 'password');
    t.equal(weak.body.error.message, 'password must contain an uppercase letter');

    t.equal((await reset(token)).status, 204);
    for (const s of [a, b]) {
      t.equal((await withCookie(server, '/api/v1/auth/refresh', s.cookie)).status, 401, 'every refresh token is revoked');
      t.equal((await server.request('GET', '/api/v1/me', { token: s.token })).status, 401, 'and every session');
    }
    t.equal((await login(server, owner.email, TEST_PASSWORD)).status, 401, 'the old password is gone');
    t.equal((await login(server, owner.email, NEW_PASSWORD)).status, 200, 'the new one works');

    const again = await reset(token, 'Another-Pass-8');
    t.same(again.body.error, { code: 'validation_failed', message: 'invalid or expired token', details: { field: 'token', errors: [{ field: 'token', message: 'invalid or expired token' }] } });
  });

  t.test('unknown tokens and malformed bodies are 422', async (t) => {
    const unknown = await reset('x'.repeat(43));
    t.equal(unknown.status, 422);
    t.equal(unknown.body.error.message, 'invalid or expired token');
    const missing = await server.request('POST', '/api/v1/auth/password/reset', { body: { password: NEW_PASSWORD } });
    t.equal(missing.status, 422);
    t.equal(missing.body.error.details.field, 'token');
  });

  t.test('the link lives one hour', async (t) => {
    const { owner } = await createTenant(server);
    await forgot(owner.email);
    const first = linkToken(await mailTo(owner.email), '/reset-password');
    server.clock.advance(60 * 60_000 + 1000);
    const late = await reset(first);
    t.equal(late.status, 422);
    t.equal(late.body.error.message, 'invalid or expired token');

    await forgot(owner.email);
    const second = linkToken(await mailTo(owner.email, 2), '/reset-password');
    server.clock.advance(59 * 60_000);
    t.equal((await reset(second)).status, 204, 'still valid after 59 minutes');
  });

  t.test('a clock stepped back or forward by a day: a link sent before the step is over', async (t) => {
    const DAY = 24 * 60 * 60_000;
    const { owner } = await createTenant(server);
    await forgot(owner.email);
    const before = linkToken(await mailTo(owner.email), '/reset-password');
    server.clock.step(-DAY);
    t.equal((await reset(before)).status, 422, 'it would otherwise live for the step plus an hour');
    await forgot(owner.email);
    t.equal((await reset(linkToken(await mailTo(owner.email, 2), '/reset-password'))).status, 204, 'a link sent after the step works');
    await forgot(owner.email);
    const later = linkToken(await mailTo(owner.email, 3), '/reset-password');
    server.clock.step(DAY);
    t.equal((await reset(later)).status, 422, 'a day on, past its hour');
  });

  t.test('a newer request retires the older unused link', async (t) => {
    const { owner } = await createTenant(server);
    await forgot(owner.email);
    const older = linkToken(await mailTo(owner.email), '/reset-password');
    await forgot(owner.email);
    const newer = linkToken(await mailTo(owner.email, 2), '/reset-password');
    t.not(older, newer);
    t.equal((await reset(older)).body.error.message, 'invalid or expired token');
    t.equal((await reset(newer)).status, 204);
  });

  t.test('only hashes of reset tokens are stored', async (t) => {
    const rows = server.running.services.meta.prepare('SELECT token_hash FROM password_resets').all() as Array<{ token_hash: string }>;
    const tokens = sink.messages.filter((m) => m.subject === 'Reset your pp password').map((m) => linkToken(m, '/reset-password'));
    t.ok(rows.length > 0 && tokens.length > 0);
    for (const row of rows) t.notOk(tokens.includes(row.token_hash));
  });
});
