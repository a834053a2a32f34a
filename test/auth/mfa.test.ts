// MFA enrolment: setup gives a secret and otpauth URL, enable confirms a current code and returns ten
// recovery codes once, disable needs a second factor; the secret is sealed and the codes hashed at rest.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { enableMfaOverHttp, ROOMY_LIMITS, totpAt } from './authTestKit.js';
import { verifySecondFactor } from '../../server/accounts/mfa.js';

t.test('MFA enrolment', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const { owner } = await createTenant(server);
  const { token } = await login(server, owner.email, TEST_PASSWORD);
  const post = (path: string, body?: unknown, bearer: string | null = token!) => server.request('POST', `/api/v1/me/mfa/${path}`, { token: bearer ?? undefined, body });
  const meta = server.running.services.meta;

  t.test('401 without a token on every MFA route', async (t) => {
    for (const path of ['setup', 'enable', 'disable']) t.equal((await post(path, { code: '123456' }, null)).status, 401, path);
  });

  t.test('enable before setup is 409; a malformed body is 422', async (t) => {
    t.equal((await post('enable', { code: '123456' })).status, 409);
    const bad = await post('enable', {});
    t.equal(bad.status, 422);
    t.equal(bad.body.error.details.field, 'code');
  });

  let secret = '';
  let recovery: string[] = [];

  t.test('setup: a base32 secret and an otpauth URL naming the account; the secret is sealed at rest', async (t) => {
    const res = await post('setup');
    t.equal(res.status, 200);
    secret = res.body.secret;
    t.match(secret, /^[A-Z2-7]{32}$/);
    t.equal(res.body.otpauth_url, `otpauth://totp/pp:${encodeURIComponent(owner.email)}?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=pp`);
    const row = meta.prepare('SELECT secret_sealed, enabled_at FROM mfa WHERE user_id = ?').get(owner.id) as { secret_sealed: string; enabled_at: string | null };
    t.match(row.secret_sealed, /^v1\./);
    t.notMatch(row.secret_sealed, secret);
    t.equal(row.enabled_at, null, 'pending until a code confirms it');
    t.same((await server.request('GET', '/api/v1/me', { token })).body.user.mfa_enabled, false);
  });

  t.test('enable: a wrong code is 422 on the code field', async (t) => {
    const res = await post('enable', { code: totpAt(server, secret, 5) });
    t.equal(res.status, 422);
    t.same(res.body.error.details.field, 'code');
    t.equal(res.body.error.message, 'code is not a current authenticator code');
  });

  t.test('enable: ten distinct recovery codes, once; stored only as hashes', async (t) => {
    const res = await post('enable', { code: totpAt(server, secret) });
    t.equal(res.status, 200);
    recovery = res.body.recovery_codes;
    t.equal(recovery.length, 10);
    t.equal(new Set(recovery).size, 10);
    for (const c of recovery) t.match(c, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = meta.prepare('SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?').all(owner.id) as Array<{ code_hash: string }>;
    t.equal(stored.length, 10);
    for (const s of stored) t.notOk(recovery.some((c) => s.code_hash.includes(c) || s.code_hash.includes(c.replace('-', ''))));
    t.same((await server.request('GET', '/api/v1/me', { token })).body.user.mfa_enabled, true);
  });

  t.test('setup and enable again are 409 while MFA is on', async (t) => {
    t.equal((await post('setup')).status, 409);
    t.equal((await post('enable', { code: totpAt(server, secret) })).status, 409);
  });

  t.test('disable: a wrong or replayed code is 422; a recovery code works', async (t) => {
    const replay = await post('disable', { code: totpAt(server, secret) });
    t.equal(replay.status, 422, 'the code that enabled MFA cannot be used again in its step');
    t.equal(replay.body.error.details.field, 'code');
    t.equal((await post('disable', { code: 'zzzzz-zzzzz' })).status, 422);
    const res = await post('disable', { code: recovery[0] });
    t.equal(res.status, 204);
    t.equal((meta.prepare('SELECT count(*) AS n FROM mfa_recovery_codes WHERE user_id = ?').get(owner.id) as { n: number }).n, 0);
    t.equal((await post('disable', { code: recovery[1] })).status, 409, 'nothing left to disable');
    const again = await login(server, owner.email, TEST_PASSWORD);
    t.ok(again.token, 'sign-in no longer asks for a second factor');
  });

  t.test('disable with a TOTP code of a later step', async (t) => {
    const setup = await post('setup');
    t.equal((await post('enable', { code: totpAt(server, setup.body.secret) })).status, 200);
    server.clock.advance(30_000);
    t.equal((await post('disable', { code: totpAt(server, setup.body.secret) })).status, 204);
  });
});

t.test('a clock stepped back or forward by a day: current codes work, a used one still cannot be replayed', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const { owner } = await createTenant(server);
  const { token } = await login(server, owner.email, TEST_PASSWORD);
  const { secret } = await enableMfaOverHttp(server, token!);
  const services = server.running.services;
  const DAY = 24 * 60 * 60_000;
  server.clock.step(-DAY);
  const back = totpAt(server, secret);
  t.ok(verifySecondFactor(services, owner.id, back), 'the step used before the clock stepped back refuses nothing now');
  t.notOk(verifySecondFactor(services, owner.id, back), 'the same code again is a replay');
  server.clock.step(2 * DAY);
  t.ok(verifySecondFactor(services, owner.id, totpAt(server, secret)), 'a day on');
});
