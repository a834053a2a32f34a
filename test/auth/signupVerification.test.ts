// Trial-first signup (cloud edition), the "Signup verification" table of the HTTP contract: register
// answers 202 and emails a code and a link, verify creates everything in one go, every defect is the
// same 422, resend keeps the deadline, and the limits (10 minutes, 60 s cooldown, 10 emails a day,
// 10 wrong codes, UTM and fingerprint cleaning). On-prem registration is unchanged.

import t from 'tap';
import { loadConfig, ConfigError } from '../../server/ground/config.js';
import { startTestServer } from '../support/testServer.js';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { ROOMY_LIMITS } from './authTestKit.js';
import { beginSignup, codeIn, companyEmail, count, mailTo, post, startCloud, subscriptionOf, tokenIn, verificationEmails, type Cloud } from './signupKit.js';

const COOKIE = /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict; Secure$/;
const UNIFORM_CODE = {
  code: 'validation_failed',
  message: 'invalid or expired verification code',
  details: { field: 'code', errors: [{ field: 'code', message: 'invalid or expired verification code' }] },
};
const VERIFY_FAMILY = ['/api/v1/auth/register/verify', '/api/v1/auth/register/resend', '/api/v1/auth/register/request-invite', '/api/v1/auth/register/domain-review'];

const verify = (cloud: Cloud, body: Record<string, unknown>) => post(cloud.server, '/api/v1/auth/register/verify', body);
const resend = (cloud: Cloud, email: string, timezone?: string) => post(cloud.server, '/api/v1/auth/register/resend', { email, timezone });

t.test('configuration: trial_first needs the cloud edition; on-prem is the default', async (t) => {
  t.equal(loadConfig({ env: {} }).edition, 'onprem');
  t.throws(
    () => loadConfig({ env: { PP_SIGNUP_MODE: 'trial_first' } }),
    new ConfigError('signup_mode trial_first needs edition cloud (PP_EDITION=cloud); an on-prem installation registers with legacy or closed'),
  );
  t.throws(() => loadConfig({ env: { PP_EDITION: 'saas' } }), { message: 'PP_EDITION must be one of onprem, cloud, got "saas"' });
  const cloud = loadConfig({ env: { PP_EDITION: 'cloud', PP_SIGNUP_MODE: 'trial_first', PP_SIGNUP_DISPOSABLE_DOMAINS: '@Burner.Example., spam.test' } });
  t.equal(cloud.signup_mode, 'trial_first');
  t.same(cloud.signup.disposable_domains, ['burner.example', 'spam.test']);
});

t.test('on-prem: register still creates the account at once and the verify family does not exist', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const res = await server.request('POST', '/api/v1/auth/register', {
    body: { email: 'someone@mailinator.com', password: TEST_PASSWORD, device_fp: 'abc', utm: { utm_source: 'x' } },
  });
  t.equal(res.status, 201, 'a disposable domain is only refused in trial-first mode');
  t.same(Object.keys(res.body.org).sort(), ['id', 'name', 'role'], 'no trial_state outside trial-first mode');
  t.equal(count(server, 'subscriptions'), 0);
  t.equal(count(server, 'signup_verifications'), 0);
  for (const path of VERIFY_FAMILY) {
    const other = await server.request('POST', path, { body: { email: uniqueEmail(), code: '123456' } });
    t.equal(other.status, 404, path);
    t.equal(other.body.error.code, 'not_found', path);
  }
});

t.test('the cloud edition with legacy signup registers at once too', async (t) => {
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, edition: 'cloud' } });
  const res = await server.request('POST', '/api/v1/auth/register', { body: { email: uniqueEmail(), password: TEST_PASSWORD } });
  t.equal(res.status, 201);
  t.equal((await server.request('POST', '/api/v1/auth/register/verify', { body: { token: 'x' } })).status, 404);
});

t.test('trial-first signup', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;

  t.test('register: 202, nothing created, a six-digit code and a link emailed, both stored only as hashes', async (t) => {
    const users = count(server, 'users');
    const email = companyEmail('Ada');
    const res = await post(server, '/api/v1/auth/register', { email, password: TEST_PASSWORD, name: 'Ada' });
    t.equal(res.status, 202);
    t.same(res.body, { verification_required: true, email: email.toLowerCase() });
    t.same(res.headers.getSetCookie(), [], 'nobody is signed in');
    t.equal(count(server, 'users'), users, 'no user yet');
    const message = await mailTo(cloud.sink, email);
    t.equal(message.subject, 'Confirm your email for pp');
    t.match(codeIn(message), /^\d{6}$/);
    t.match(message.text, 'https://pp.example.com/signup/verify?token=');
    const row = server.running.services.meta.prepare('SELECT * FROM signup_verifications WHERE email = ?').get(email) as Record<string, string>;
    t.notMatch(JSON.stringify(row), codeIn(message), 'the code is not stored');
    t.notMatch(JSON.stringify(row), tokenIn(message), 'the token is not stored');
    t.match(row.password_hash, /^\$argon2id\$/);
  });

  t.test('register keeps the checks of legacy registration', async (t) => {
    const weak = await post(server, '/api/v1/auth/register', { email: companyEmail(), password: 'weakpassword' });
    t.equal(weak.status, 422);
    t.equal(weak.body.error.details.field, 'password');
    const done = await beginSignup(cloud);
    t.equal((await verify(cloud, { email: done.email, code: done.code })).status, 201);
    const taken = await post(server, '/api/v1/auth/register', { email: done.email.toUpperCase(), password: TEST_PASSWORD });
    t.equal(taken.status, 422);
    t.equal(taken.body.error.message, 'an account with this email already exists');
  });

  t.test('verify with the code: 201 TokenResponse with trial_state, the cookie, and user, organization, project and subscription', async (t) => {
    const pending = await beginSignup(cloud, { name: 'Grace', org_name: 'Compilers Ltd', timezone: 'Asia/Tokyo' });
    const res = await verify(cloud, { email: pending.email.toUpperCase(), code: pending.code });
    t.equal(res.status, 201);
    const cookies = res.headers.getSetCookie();
    t.equal(cookies.length, 1);
    t.match(cookies[0], COOKIE);
    t.same(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'org', 'token_type', 'user']);
    t.same(res.body.user, { id: res.body.user.id, email: pending.email, name: 'Grace' });
    t.same(res.body.org, { id: res.body.org.id, name: 'Compilers Ltd', role: 'owner', trial_state: 'trialing' });
    t.same(subscriptionOf(server, res.body.org.id), { status: 'trialing', trial_state: 'trialing' });
    const me = await server.request('GET', '/api/v1/me', { token: res.body.access_token });
    t.equal(me.status, 200);
    const projects = await server.request('GET', '/api/v1/projects', { token: res.body.access_token });
    t.same(
      projects.body.items.map((p: any) => [p.name, p.timezone]),
      [['My first project', 'UTC']],
      'the zone only rendered the deadline',
    );
    const refresh = await server.request('POST', '/api/v1/auth/refresh', { headers: { cookie: cookies[0]!.split(';')[0]! } });
    t.equal(refresh.status, 200, 'the refresh cookie works');
    t.same(await verify(cloud, { email: pending.email, code: pending.code }).then((r) => r.body.error), UNIFORM_CODE, 'a used code is the uniform 422');
  });

  t.test('verify with the link token alone', async (t) => {
    const pending = await beginSignup(cloud);
    const res = await verify(cloud, { token: pending.token });
    t.equal(res.status, 201);
    t.equal(res.body.user.email, pending.email);
    const again = await verify(cloud, { token: pending.token });
    t.equal(again.status, 422);
    t.equal(again.body.error.details.field, 'token');
    t.equal(again.body.error.message, UNIFORM_CODE.message);
    t.same(await verify(cloud, { email: pending.email, code: pending.code }).then((r) => r.body.error), UNIFORM_CODE, 'the code of a spent signup is dead too');
  });

  t.test('verify: a body without a proof names what is missing', async (t) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'email'],
      [{ email: companyEmail() }, 'code'],
      [{ email: companyEmail(), code: '12345' }, 'code'],
      [{ email: 'nope', code: '123456' }, 'email'],
      [{ token: 'x', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await verify(cloud, body);
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.details.field, field, JSON.stringify(body));
    }
  });

  t.test('every defect is the same 422: unknown email, wrong code, expired, used, more than 10 wrong codes', async (t) => {
    const unknown = await verify(cloud, { email: companyEmail(), code: '123456' });
    const wrongOf = await beginSignup(cloud);
    const wrong = await verify(cloud, { email: wrongOf.email, code: wrongOf.code === '000000' ? '000001' : '000000' });
    const used = await beginSignup(cloud);
    await verify(cloud, { email: used.email, code: used.code });
    const usedAgain = await verify(cloud, { email: used.email, code: used.code });
    const expiredOf = await beginSignup(cloud);
    const manyOf = await beginSignup(cloud);
    for (let i = 0; i < 11; i++) await verify(cloud, { email: manyOf.email, code: manyOf.code === '999999' ? '999998' : '999999' });
    const afterMany = await verify(cloud, { email: manyOf.email, code: manyOf.code });
    server.clock.advance(10 * 60_000);
    const expired = await verify(cloud, { email: expiredOf.email, code: expiredOf.code });
    for (const [label, res] of Object.entries({ unknown, wrong, usedAgain, afterMany, expired })) {
      t.equal(res.status, 422, label);
      t.same(res.body.error, UNIFORM_CODE, label);
    }
  });

  t.test('10 wrong codes leave the signup usable; the 11th ends it', async (t) => {
    const tenWrong = await beginSignup(cloud);
    const elevenWrong = await beginSignup(cloud);
    const wrongFor = (code: string) => (code === '111111' ? '222222' : '111111');
    for (let i = 0; i < 10; i++) {
      t.equal((await verify(cloud, { email: tenWrong.email, code: wrongFor(tenWrong.code) })).status, 422);
      t.equal((await verify(cloud, { email: elevenWrong.email, code: wrongFor(elevenWrong.code) })).status, 422);
    }
    t.equal((await verify(cloud, { email: elevenWrong.email, code: wrongFor(elevenWrong.code) })).status, 422, 'the 11th wrong code');
    t.equal((await verify(cloud, { email: tenWrong.email, code: tenWrong.code })).status, 201, 'after 10 wrong codes the right one still works');
    t.same((await verify(cloud, { email: elevenWrong.email, code: elevenWrong.code })).body.error, UNIFORM_CODE, 'after 11 not even the right one');
    t.equal((await verify(cloud, { token: elevenWrong.token })).status, 422, 'nor the link');
  });

  t.test('pending for 10 minutes from the first email: a second before works, at 10 minutes not', async (t) => {
    const early = await beginSignup(cloud);
    const late = await beginSignup(cloud);
    server.clock.advance(10 * 60_000 - 1000);
    t.equal((await verify(cloud, { token: early.token })).status, 201);
    server.clock.advance(1000);
    t.equal((await verify(cloud, { token: late.token })).status, 422);
  });
});

t.test('resend', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;
  const resendEveryMinute = async (email: string, times: number) => {
    for (let i = 0; i < times; i++) {
      server.clock.advance(60_000);
      await resend(cloud, email);
    }
  };

  t.test('always 202 with the same body, also for an address with no signup, which gets no email', async (t) => {
    const email = companyEmail();
    const res = await resend(cloud, email);
    t.equal(res.status, 202);
    t.same(res.body, { verification_required: true, email });
    t.equal(verificationEmails(server, email), 0);
    const bad = await resend(cloud, 'not-an-address');
    t.equal(bad.status, 422);
    t.equal(bad.body.error.details.field, 'email');
  });

  t.test('a fresh code and token; the previous ones stop working', async (t) => {
    const first = await beginSignup(cloud);
    server.clock.advance(60_000);
    t.same((await resend(cloud, first.email)).body, { verification_required: true, email: first.email });
    const second = await mailTo(cloud.sink, first.email, 2);
    t.not(tokenIn(second), first.token);
    t.equal((await verify(cloud, { token: first.token })).status, 422, 'old link');
    if (codeIn(second) !== first.code) t.equal((await verify(cloud, { email: first.email, code: first.code })).status, 422, 'old code');
    t.equal((await verify(cloud, { email: first.email, code: codeIn(second) })).status, 201, 'new code');
  });

  t.test('the deadline is not extended: a code resent at 9 minutes dies at 10', async (t) => {
    const first = await beginSignup(cloud);
    server.clock.advance(9 * 60_000);
    await resend(cloud, first.email);
    const second = await mailTo(cloud.sink, first.email, 2);
    t.match(second.text, 'valid until 2 Nov 2026');
    server.clock.advance(60_000);
    t.same((await verify(cloud, { email: first.email, code: codeIn(second) })).body.error, UNIFORM_CODE);
    server.clock.advance(60_000);
    await resend(cloud, first.email);
    t.equal(verificationEmails(server, first.email), 2, 'an expired signup gets no more emails');
  });

  t.test('60 s rolling cooldown from the register email, restarting at each accepted resend', async (t) => {
    const first = await beginSignup(cloud);
    // [seconds to wait, emails sent after a resend then]
    const steps: Array<[number, number, string]> = [
      [30, 1, 'at 30 s: refused'],
      [29, 1, 'at 59 s: refused (a refused resend does not restart the cooldown)'],
      [1, 2, 'at 60 s: accepted'],
      [59, 2, '59 s after the accepted resend: refused'],
      [1, 3, '60 s after it: accepted'],
    ];
    for (const [seconds, sent, label] of steps) {
      server.clock.advance(seconds * 1000);
      await resend(cloud, first.email);
      t.equal(verificationEmails(server, first.email), sent, label);
    }
    const latest = await mailTo(cloud.sink, first.email, 3);
    t.equal((await verify(cloud, { token: tokenIn(latest) })).status, 201, 'a refused resend left the latest code alive');
  });

  t.test('at most 10 emails per address in 24 hours, registrations included', async (t) => {
    const email = companyEmail();
    const sent = () => verificationEmails(server, email);
    await beginSignup(cloud, { email });
    await resendEveryMinute(email, 4);
    t.equal(sent(), 5);
    server.clock.advance(7 * 60_000);
    const again = await beginSignup(cloud, { email });
    t.equal(sent(), 6, 'registering again after expiry starts a new signup and counts');
    await resendEveryMinute(email, 4);
    t.equal(sent(), 10);
    server.clock.advance(60_000);
    t.equal((await resend(cloud, email)).status, 202);
    t.equal(sent(), 10, 'the 11th email within 24 hours is not sent');
    const tenth = await mailTo(cloud.sink, email, 10);
    t.not(tokenIn(tenth), again.token);
    const reg = await post(server, '/api/v1/auth/register', { email, password: TEST_PASSWORD });
    t.equal(reg.status, 202, 'registering once more is also 202');
    t.equal(sent(), 10, '... and sends nothing');
    t.equal((await verify(cloud, { token: tokenIn(tenth) })).status, 201, 'the live signup was left alone');

    const other = await beginSignup(cloud);
    t.equal(verificationEmails(server, other.email), 1, 'another address has its own cap');
  });

  t.test('the cap is rolling: 24 hours after the first email one more goes out', async (t) => {
    const email = companyEmail();
    const sent = () => verificationEmails(server, email);
    await beginSignup(cloud, { email });
    const first = server.clock.now().getTime();
    await resendEveryMinute(email, 9);
    t.equal(sent(), 10);
    server.clock.set(new Date(first + 24 * 60 * 60_000 - 1000));
    await post(server, '/api/v1/auth/register', { email, password: TEST_PASSWORD });
    t.equal(sent(), 10, 'a second before the first email leaves the window');
    server.clock.advance(1000);
    await post(server, '/api/v1/auth/register', { email, password: TEST_PASSWORD });
    t.equal(sent(), 11, 'then one more');
  });
});

t.test('timezone only renders the deadline', async (t) => {
  const cloud = await startCloud(t);
  const tokyo = await beginSignup(cloud, { timezone: 'Asia/Tokyo' });
  t.match(tokyo.message.text, 'valid until 2 Nov 2026, 21:10 GMT+9', '12:00 UTC + 10 minutes in Tokyo');
  const none = await beginSignup(cloud, { timezone: 'Mars/Olympus_Mons' });
  t.match(none.message.text, 'valid until 2 Nov 2026, 12:10 UTC', 'an invalid zone is ignored');
  cloud.server.clock.advance(60_000);
  await resend(cloud, tokyo.email, 'America/New_York');
  t.match((await mailTo(cloud.sink, tokyo.email, 2)).text, 'valid until 2 Nov 2026, 07:10 GMT-5', 'resend may name another zone');
  cloud.server.clock.advance(60_000);
  await resend(cloud, tokyo.email);
  t.match((await mailTo(cloud.sink, tokyo.email, 3)).text, '21:10 GMT+9', 'without one, the zone of the registration');
});

t.test('device_fp and utm are cleaned: cut at 200 characters, at most 10 keys, other shapes dropped', async (t) => {
  const cloud = await startCloud(t);
  const stored = (email: string) =>
    cloud.server.running.services.meta.prepare('SELECT device_fp, utm FROM signup_verifications WHERE email = ?').get(email) as { device_fp: string | null; utm: string | null };
  const twelve = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`utm_k${String(i).padStart(2, '0')}`, `v${i}`]));
  const cases: Array<[string, unknown, unknown, string | null, Record<string, string> | null]> = [
    ['kept as sent', 'fp_' + 'a'.repeat(197), { utm_source: 'news', utm_medium: 'email' }, 'fp_' + 'a'.repeat(197), { utm_source: 'news', utm_medium: 'email' }],
    ['a 201-character fingerprint is dropped, a 201-character value cut', 'b'.repeat(201), { utm_campaign: 'c'.repeat(201) }, null, { utm_campaign: 'c'.repeat(200) }],
    ['12 keys: the first 10 kept', 'ok', twelve, 'ok', Object.fromEntries(Object.entries(twelve).slice(0, 10))],
    ['a number among the values drops the map', 42, { utm_source: 'x', utm_medium: 3 }, null, null],
    ['an array is not a map', 'has space', ['utm_source'], null, null],
    ['null and a nested object', null, { utm_source: { a: 1 } }, null, null],
    ['characters are counted, not UTF-16 units', 'ok', { utm_term: '😀'.repeat(201) }, 'ok', { utm_term: '😀'.repeat(200) }],
  ];
  for (const [label, device_fp, utm, fp, map] of cases) {
    const pending = await beginSignup(cloud, { device_fp, utm });
    const row = stored(pending.email);
    t.equal(row.device_fp, fp, `${label}: device_fp`);
    t.same(row.utm === null ? null : JSON.parse(row.utm), map, `${label}: utm`);
  }
  const pending = await beginSignup(cloud, { device_fp: 'dev-1', utm: { utm_source: 'ads' } });
  const res = await verify(cloud, { token: pending.token });
  const signup = cloud.server.running.services.meta.prepare('SELECT device_fp, utm, ip FROM org_signups WHERE org_id = ?').get(res.body.org.id);
  t.same(signup, { device_fp: 'dev-1', utm: '{"utm_source":"ads"}', ip: pending.ip }, 'the signals move to the organization');
});

t.test('disposable domains: 422 disposable_email in trial-first mode, subdomains and operator additions included', async (t) => {
  const cloud = await startCloud(t, { 'signup.disposable_domains': ['burner.test'] });
  for (const email of ['a@mailinator.com', 'a@eu.mailinator.com', 'a@MAILINATOR.COM', 'a@burner.test', 'a@x.burner.test']) {
    const res = await post(cloud.server, '/api/v1/auth/register', { email, password: TEST_PASSWORD });
    t.equal(res.status, 422, email);
    t.same(res.body.error, { code: 'disposable_email', message: 'addresses of disposable email providers cannot sign up; use a permanent address', details: { field: 'email' } }, email);
  }
  t.equal(count(cloud.server, 'signup_verifications'), 0);
  t.equal((await post(cloud.server, '/api/v1/auth/register', { email: 'a@notburner.test', password: TEST_PASSWORD })).status, 202, 'only the domain and its subdomains');
});

t.test('a clock stepped back or forward: no wait outlasts its length, no signup outlives ten minutes', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;
  const DAY = 24 * 60 * 60_000;

  t.test('back a day: the signup pending before the step is over and the day of emails before it does not count', async (t) => {
    const before = await beginSignup(cloud);
    for (let i = 0; i < 9; i++) {
      server.clock.advance(60_000);
      await resend(cloud, before.email);
    }
    t.equal(verificationEmails(server, before.email), 10, 'the cap is reached');
    server.clock.step(-DAY);
    t.equal((await verify(cloud, { token: tokenIn(await mailTo(cloud.sink, before.email, 10)) })).status, 422, 'it would otherwise live for the step plus ten minutes');
    const after = await beginSignup(cloud, { email: before.email });
    t.equal(verificationEmails(server, before.email), 11, 'emails stamped after now are not in the last 24 hours');
    t.equal((await verify(cloud, { email: after.email, code: after.code })).status, 201);
  });

  t.test('back 30 s: the signup lives on, and a resend waits for no cooldown stamped after now', async (t) => {
    const first = await beginSignup(cloud);
    server.clock.step(-30_000);
    await resend(cloud, first.email);
    t.equal(verificationEmails(server, first.email), 2);
    t.equal((await verify(cloud, { token: tokenIn(await mailTo(cloud.sink, first.email, 2)) })).status, 201, 'a step inside the minute of tolerance ends nothing');
  });

  t.test('forward a day: the signup has expired and the address may start again', async (t) => {
    const first = await beginSignup(cloud);
    server.clock.step(DAY);
    t.same((await verify(cloud, { email: first.email, code: first.code })).body.error, UNIFORM_CODE);
    const again = await beginSignup(cloud, { email: first.email });
    t.equal((await verify(cloud, { email: again.email, code: again.code })).status, 201);
  });
});
