// Activating a trial held by a risk rule with an SMS code: the code goes through the SMS outbox to a
// real HTTP gateway (retried when it fails), proving it starts the trial, and the limits hold at the
// server's clock (10-minute codes, one send a minute and five a day per organization, five a day per
// number across organizations, 10 wrong codes, one organization per number). Roles, states and the
// on-prem edition are refused; numbers never reach the log.

import t, { type Test } from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { startSmsGateway, type SmsGateway } from '../support/smsGateway.js';
import { runPpctl } from '../support/ppctl.js';
import { eventually } from '../support/eventually.js';
import { getOrganization } from '../../server/accounts/organizations.js';
import { smsWorkerOf } from '../../server/sms/smsWorker.js';
import { ROOMY_LIMITS } from './authTestKit.js';
import { beginSignup, companyEmail, freshIp, post, signUp, startCloud, type Cloud } from './signupKit.js';

const PHONE = '+4915123456712';
const MASKED = '+49*********12';
const GATEWAY_TOKEN = 'gw-token-5b1f';
const SEND = '/api/v1/auth/trial/sms';
const VERIFY = '/api/v1/auth/trial/sms/verify';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const WRONG_CODE = {
  code: 'validation_failed',
  message: 'invalid or expired code',
  details: { field: 'code', errors: [{ field: 'code', message: 'invalid or expired code' }] },
};
const PHONE_IN_USE = 'this phone number is already in use by another organization; use another number';

interface Held {
  email: string;
  orgId: number;
  token: string;
}

/** An organization held by the risk rules (a second signup from one address within a day), with its owner's token. */
async function heldOrg(cloud: Cloud, email = companyEmail()): Promise<Held> {
  const ip = freshIp();
  await beginSignup(cloud, {}, ip);
  const res = await signUp(cloud, { email }, ip);
  if (res.body.org.trial_state !== 'sms_required') throw new Error(`expected a held trial, got ${res.text}`);
  return { email, orgId: res.body.org.id, token: res.body.access_token };
}

/** A new access token for the owner once the clock has moved past the old one's 15 minutes. */
async function signInAgain(cloud: Cloud, held: Held): Promise<void> {
  held.token = (await login(cloud.server, held.email, TEST_PASSWORD)).token!;
}

const send = (cloud: Cloud, held: Held, phone = PHONE) => cloud.server.request('POST', SEND, { token: held.token, body: { phone } });
const verify = (cloud: Cloud, held: Held, code: string) => cloud.server.request('POST', VERIFY, { token: held.token, body: { code } });

/** The code of the `n`-th message (1-based) the gateway accepted for `phone`. */
async function codeSent(gateway: SmsGateway, phone = PHONE, n = 1): Promise<string> {
  const to = () => gateway.received.filter((m) => m.to === phone);
  await gateway.waitFor(() => to().length >= n);
  return /code is (\d{6})\./.exec(to()[n - 1]!.text)![1]!;
}

const otherThan = (code: string) => (code === '000000' ? '000001' : '000000');

function subscription(server: TestServer, orgId: number) {
  return server.running.services.meta.prepare('SELECT status, trial_state, activated_via, trial_started_at, trial_ends_at FROM subscriptions WHERE org_id = ?').get(orgId) as {
    status: string;
    trial_state: string;
    activated_via: string | null;
    trial_started_at: string;
    trial_ends_at: string | null;
  };
}

async function startCloudWithGateway(t: Test, settings: Record<string, unknown> = {}) {
  const gateway = await startSmsGateway(t);
  const cloud = await startCloud(t, { 'sms.gateway_url': gateway.url, 'sms.gateway_token': GATEWAY_TOKEN, ...settings });
  return { gateway, cloud };
}

t.test('sending a code: 401, 422, 403, then 202 and the gateway gets the text with the bearer token', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const { server } = cloud;
  const held = await heldOrg(cloud);

  t.test('401 without an access token', async (t) => {
    const res = await server.request('POST', SEND, { body: { phone: PHONE } });
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
  });

  t.test('422: anything but + and 8 to 15 digits (spaces, dashes and parentheses aside) is refused on phone', async (t) => {
    const cases: Array<[unknown, string]> = [
      ['4915123456712', 'no leading +'],
      ['+0151234567', 'no country code starts with 0'],
      ['+1234567', 'seven digits'],
      ['+1234567890123456', 'sixteen digits'],
      ['+49.151.2345.6712', 'dots'],
      ['+49 151 CALL ME', 'letters'],
      ['++4915123456712', 'two plus signs'],
    ];
    for (const [phone, label] of cases) {
      const res = await send(cloud, held, phone as string);
      t.equal(res.status, 422, label);
      t.same(res.body.error.details.field, 'phone', label);
      t.equal(res.body.error.message, 'phone must be an international number: + and the country code, 8 to 15 digits in all', label);
    }
    const missing = await server.request('POST', SEND, { token: held.token, body: {} });
    t.equal(missing.status, 422);
    t.equal(missing.body.error.details.field, 'phone');
    t.equal(gateway.received.length, 0, 'nothing was sent');
  });

  t.test('403 for a viewer and an analyst of the organization', async (t) => {
    const org = getOrganization(server.running.services.meta, held.orgId)!;
    for (const role of ['viewer', 'analyst'] as const) {
      const member = await addMember(server, org, role, { password: null });
      const res = await server.request('POST', SEND, { token: await accessTokenFor(server, member, org), body: { phone: PHONE } });
      t.equal(res.status, 403, role);
      t.equal(res.body.error.message, 'this action needs the admin role or higher', role);
    }
  });

  t.test('202: the number is masked in the answer, the code is valid 10 minutes and reaches the gateway', async (t) => {
    const res = await send(cloud, held, '+49 (151) 2345-6712');
    t.equal(res.status, 202);
    t.same(res.body, { phone_masked: MASKED, expires_at: new Date(server.clock.now().getTime() + 10 * MINUTE).toISOString() });
    const message = await gateway.waitFor(() => true);
    t.equal(message.to, PHONE, 'sent in E.164');
    t.match(message.text, /^Your pp activation code is \d{6}\. It is valid for 10 minutes\.$/);
    t.equal(message.authorization, `Bearer ${GATEWAY_TOKEN}`);
    t.equal(message.contentType, 'application/json');
    const code = await codeSent(gateway);

    const meta = server.running.services.meta;
    const row = meta.prepare('SELECT phone_hash, code_hash FROM sms_codes WHERE org_id = ?').get(held.orgId) as { phone_hash: string; code_hash: string };
    t.notMatch(row.phone_hash, /4915123456712/, 'the number is stored only as a keyed hash');
    t.notMatch(row.code_hash, code, 'so is the code');
    await eventually(
      'the outbox row to be sent',
      async () => meta.prepare('SELECT status FROM sms_outbox').get() as { status: string },
      (r) => r.status === 'sent',
    );
    t.same(
      meta.prepare('SELECT kind, to_masked, body_sealed, attempts FROM sms_outbox').all(),
      [{ kind: 'trial_activation', to_masked: MASKED, body_sealed: null, attempts: 1 }],
      'the delivered text is erased',
    );
  });

  t.test('an admin of the organization may send too', async (t) => {
    const other = await heldOrg(cloud);
    const org = getOrganization(server.running.services.meta, other.orgId)!;
    const admin = await addMember(server, org, 'admin', { password: null });
    const res = await server.request('POST', SEND, { token: await accessTokenFor(server, admin, org), body: { phone: '+33 6 12 34 56 78' } });
    t.equal(res.status, 202);
    t.equal(res.body.phone_masked, '+33*******78');
  });
});

t.test('verifying: wrong codes are the same 422, the right one starts the trial and the state is then 409', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const { server } = cloud;
  const held = await heldOrg(cloud);
  t.equal((await verify(cloud, held, '123456')).status, 422, 'no code sent yet');
  t.equal((await send(cloud, held)).status, 202);
  const code = await codeSent(gateway);

  const wrong = await verify(cloud, held, otherThan(code));
  t.equal(wrong.status, 422);
  t.same(wrong.body.error, WRONG_CODE);
  const malformed = await verify(cloud, held, '12345');
  t.equal(malformed.status, 422);
  t.equal(malformed.body.error.details.field, 'code');

  server.clock.advance(5 * MINUTE);
  const now = server.clock.now().getTime();
  const res = await verify(cloud, held, code);
  t.equal(res.status, 200);
  t.same(res.body, {
    org: { id: held.orgId, trial_state: 'trialing' },
    subscription: { status: 'trialing', trial_started_at: new Date(now).toISOString(), trial_ends_at: new Date(now + 14 * DAY).toISOString() },
  });
  t.same(subscription(server, held.orgId), {
    status: 'trialing',
    trial_state: 'trialing',
    activated_via: 'sms',
    trial_started_at: new Date(now).toISOString(),
    trial_ends_at: new Date(now + 14 * DAY).toISOString(),
  });
  const audit = server.running.services.meta.prepare("SELECT action, org_id, details FROM audit_log WHERE action = 'org.trial.activate'").all();
  t.same(audit, [{ action: 'org.trial.activate', org_id: held.orgId, details: '{"via":"sms"}' }]);

  for (const [label, res] of [
    ['verify again', await verify(cloud, held, code)],
    ['send again', await send(cloud, held, '+4915199999999')],
  ] as const) {
    t.equal(res.status, 409, label);
    t.same(
      res.body.error,
      {
        code: 'conflict',
        message: "this organization's trial does not wait for an SMS confirmation: the subscription is trialing (trial_state trialing)",
        details: { status: 'trialing', trial_state: 'trialing' },
      },
      label,
    );
  }
});

t.test('states: a running trial and a domain-review hold are 409; on-prem both operations are 404', async (t) => {
  const { cloud } = await startCloudWithGateway(t);
  const trialing = await signUp(cloud);
  t.equal(trialing.body.org.trial_state, 'trialing');
  const res = await cloud.server.request('POST', SEND, { token: trialing.body.access_token, body: { phone: PHONE } });
  t.equal(res.status, 409);
  t.same(res.body.error.details, { status: 'trialing', trial_state: 'trialing' });

  const domain = `review-${process.pid}.test`;
  await signUp(cloud, { email: companyEmail('first', domain) });
  const pending = await beginSignup(cloud, { email: companyEmail('second', domain) });
  t.equal((await post(cloud.server, '/api/v1/auth/register/verify', { email: pending.email, code: pending.code }, pending.ip)).status, 409);
  const reviewed = await post(cloud.server, '/api/v1/auth/register/domain-review', { token: pending.token }, pending.ip);
  t.equal(reviewed.body.org.trial_state, 'pending_review');
  for (const [path, body] of [
    [SEND, { phone: PHONE }],
    [VERIFY, { code: '123456' }],
  ] as const) {
    const held = await cloud.server.request('POST', path, { token: reviewed.body.access_token, body });
    t.equal(held.status, 409, path);
    t.same(held.body.error.details, { status: 'pending_review', trial_state: 'pending_review' }, path);
  }

  const onprem = await startTestServer(t, { settings: ROOMY_LIMITS });
  const { owner, org } = await createTenant(onprem);
  const token = await accessTokenFor(onprem, owner, org);
  for (const [path, body] of [
    [SEND, { phone: PHONE }],
    [VERIFY, { code: '123456' }],
  ] as const) {
    for (const auth of [{ token }, {}]) {
      const res = await onprem.request('POST', path, { ...auth, body });
      t.equal(res.status, 404, path);
      t.equal(res.body.error.code, 'not_found', path);
    }
  }
});

t.test('limits at the server clock', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const { server } = cloud;

  t.test('one send a minute per organization, 429 with Retry-After; a new code kills the previous one', async (t) => {
    const held = await heldOrg(cloud);
    t.equal((await send(cloud, held)).status, 202);
    const first = await codeSent(gateway, PHONE, 1);
    server.clock.advance(30_000);
    const early = await send(cloud, held, '+4915100000001');
    t.equal(early.status, 429, 'another number does not help');
    t.equal(early.headers.get('retry-after'), '30');
    t.same(early.body.error, { code: 'rate_limited', message: 'too many requests', details: { retry_after: 30 } });
    server.clock.advance(29_000);
    t.equal((await send(cloud, held)).headers.get('retry-after'), '1', 'a second before the minute is up');
    server.clock.advance(1_000);
    t.equal((await send(cloud, held)).status, 202, 'a minute after the last send');
    const second = await codeSent(gateway, PHONE, 2);
    if (first !== second) t.same((await verify(cloud, held, first)).body.error, WRONG_CODE, 'the previous code is dead');
    t.equal((await verify(cloud, held, second)).status, 200, 'the new one works');
  });

  t.test('at most five sends per organization in 24 hours', async (t) => {
    const held = await heldOrg(cloud);
    const phone = '+4915100000002';
    for (let i = 1; i <= 5; i++) {
      t.equal((await send(cloud, held, phone)).status, 202, `send ${i}`);
      server.clock.advance(MINUTE);
    }
    const sixth = await send(cloud, held, phone);
    t.equal(sixth.status, 429, 'the sixth within a day');
    // The first send left the window 24 hours after it went out, 5 minutes ago.
    t.equal(sixth.headers.get('retry-after'), String(DAY / 1000 - 5 * 60));
    server.clock.advance(DAY - 5 * MINUTE - 1_000);
    await signInAgain(cloud, held);
    t.equal((await send(cloud, held, phone)).headers.get('retry-after'), '1');
    server.clock.advance(1_000);
    t.equal((await send(cloud, held, phone)).status, 202, 'the first send left the window');
  });

  t.test('a code is valid for 10 minutes', async (t) => {
    const held = await heldOrg(cloud);
    const phone = '+4915100000003';
    t.equal((await send(cloud, held, phone)).status, 202);
    const expired = await codeSent(gateway, phone, 1);
    server.clock.advance(10 * MINUTE);
    await signInAgain(cloud, held);
    t.same((await verify(cloud, held, expired)).body.error, WRONG_CODE, 'at 10 minutes');
    t.equal((await send(cloud, held, phone)).status, 202);
    const fresh = await codeSent(gateway, phone, 2);
    server.clock.advance(10 * MINUTE - 1_000);
    await signInAgain(cloud, held);
    t.equal((await verify(cloud, held, fresh)).status, 200, 'a second before');
  });

  t.test('after 10 wrong codes the right one still works; after 11 the code is dead until a new one is sent', async (t) => {
    const ten = await heldOrg(cloud);
    t.equal((await send(cloud, ten, '+4915100000004')).status, 202);
    const tenCode = await codeSent(gateway, '+4915100000004');
    for (let i = 1; i <= 10; i++) t.equal((await verify(cloud, ten, otherThan(tenCode))).status, 422, `wrong ${i}`);
    t.equal((await verify(cloud, ten, tenCode)).status, 200);

    const eleven = await heldOrg(cloud);
    t.equal((await send(cloud, eleven, '+4915100000005')).status, 202);
    const dead = await codeSent(gateway, '+4915100000005');
    for (let i = 1; i <= 11; i++) t.equal((await verify(cloud, eleven, otherThan(dead))).status, 422, `wrong ${i}`);
    t.same((await verify(cloud, eleven, dead)).body.error, WRONG_CODE, 'the right code no longer works');
    server.clock.advance(MINUTE);
    t.equal((await send(cloud, eleven, '+4915100000005')).status, 202);
    t.equal((await verify(cloud, eleven, await codeSent(gateway, '+4915100000005', 2))).status, 200, 'a new code does');
  });
});

t.test('a number activates one organization', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const first = await heldOrg(cloud);
  t.equal((await send(cloud, first)).status, 202);
  t.equal((await verify(cloud, first, await codeSent(gateway))).status, 200);

  const second = await heldOrg(cloud);
  const res = await send(cloud, second, '+49 151 2345 6712');
  t.equal(res.status, 422, 'the same number, however it is typed');
  t.same(res.body.error, { code: 'validation_failed', message: PHONE_IN_USE, details: { field: 'phone', errors: [{ field: 'phone', message: PHONE_IN_USE }] } });
  for (const typed of ['0049 (151) 2345-6712', '+49-151-23456712', '00 49 151 234 567 12']) {
    const again = await send(cloud, second, typed);
    t.equal(again.status, 422, typed);
    t.equal(again.body.error.message, PHONE_IN_USE, typed);
  }
  t.equal(gateway.received.filter((m) => m.to === PHONE).length, 1, 'no code went to the number for the second organization');

  // Two organizations racing for one number: whoever proves the code first keeps it.
  const shared = '+4915100000009';
  const [a, b] = [await heldOrg(cloud), await heldOrg(cloud)];
  t.equal((await send(cloud, a, shared)).status, 202);
  t.equal((await send(cloud, b, shared)).status, 202);
  const [codeA, codeB] = [await codeSent(gateway, shared, 1), await codeSent(gateway, shared, 2)];
  t.equal((await verify(cloud, b, codeB)).status, 200);
  const late = await verify(cloud, a, codeA);
  t.equal(late.status, 422);
  t.equal(late.body.error.message, PHONE_IN_USE);
  t.equal(subscription(cloud.server, a.orgId).status, 'pending_review', 'the later one is still held');
});

t.test('one number receives at most five codes in 24 hours, whichever organizations ask', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const number = '+15550104477';
  // Five sends to one number from three organizations, each typed another way, a minute apart.
  const [a, b, c, d] = [await heldOrg(cloud), await heldOrg(cloud), await heldOrg(cloud), await heldOrg(cloud)];
  const sends: Array<[Held, string]> = [
    [a, '+1 555 010 4477'],
    [b, '+1 (555) 010-4477'],
    [c, '001 555 010 4477'],
    [a, '+1-555-010-4477'],
    [b, '0015550104477'],
  ];
  for (const [held, typed] of sends) {
    t.equal((await send(cloud, held, typed)).status, 202, typed);
    cloud.server.clock.advance(MINUTE);
  }
  await codeSent(gateway, number, 5);
  t.equal(gateway.received.filter((m) => m.to === number).length, 5, 'five codes reached one number');
  const sixth = await send(cloud, d, '+15550104477');
  t.equal(sixth.status, 429, 'a fourth organization is refused the sixth');
  // The first send leaves the window 24 hours after it went out, 5 minutes ago.
  t.equal(sixth.headers.get('retry-after'), String(DAY / 1000 - 5 * 60));
  t.same(sixth.body.error, { code: 'rate_limited', message: 'too many requests', details: { retry_after: DAY / 1000 - 5 * 60 } });
  t.equal((await send(cloud, c, '+1 555 010 4477')).status, 429, 'and so is one that sent it less than five');
  t.equal((await send(cloud, d, '+15550104478')).status, 202, 'another number is not held back');
  cloud.server.clock.advance(DAY - 5 * MINUTE);
  await signInAgain(cloud, d);
  t.equal((await send(cloud, d, number)).status, 202, 'the first send left the window');
  t.equal((await verify(cloud, d, await codeSent(gateway, number, 6))).status, 200, 'and the code activates');
});

t.test('the gateway failing: the message is retried with the mail backoff, and no number reaches the log', async (t) => {
  const gateway = await startSmsGateway(t, { refuseFirst: 1 });
  const cloud = await startCloud(t, { 'sms.gateway_url': gateway.url });
  const { server } = cloud;
  const held = await heldOrg(cloud);
  t.equal((await send(cloud, held, '+49-151-2345-6712')).status, 202);
  const meta = server.running.services.meta;
  const row = () => meta.prepare('SELECT status, attempts, last_error, next_attempt_at, created_at, body_sealed FROM sms_outbox').get() as Record<string, any>;
  const failed = await eventually(
    'the first attempt',
    async () => row(),
    (r) => r.attempts === 1,
  );
  t.equal(failed.status, 'queued');
  t.equal(failed.last_error, 'the gateway answered 500');
  t.equal(Date.parse(failed.next_attempt_at) - Date.parse(failed.created_at), 30_000, 'next attempt in 30 s');
  t.match(failed.body_sealed, /^v1\./);

  server.clock.advance(29_000);
  await smsWorkerOf(server.running.services)!.kick();
  t.equal(row().attempts, 1, 'not due yet');
  server.clock.advance(1_000);
  await smsWorkerOf(server.running.services)!.kick();
  t.match(row(), { status: 'sent', attempts: 2, last_error: null, body_sealed: null });
  const message = await gateway.waitFor(() => true);
  t.equal(message.authorization, undefined, 'no bearer without sms.gateway_token');
  t.equal((await verify(cloud, held, await codeSent(gateway))).status, 200);

  t.ok(
    server.logs.some((l) => l.msg === 'SMS delivery failed; will retry' && l.err === 'the gateway answered 500'),
    'the failure is logged',
  );
  const logged = JSON.stringify(server.logs);
  for (const fragment of ['4915123456712', '151-2345-6712', '15123456712']) t.notMatch(logged, fragment, `${fragment} is not in the log`);
});

t.test('without a gateway the message waits, sealed, and ppctl sms outbox lists it without the text', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;
  const held = await heldOrg(cloud);
  t.equal((await send(cloud, held)).status, 202);
  await smsWorkerOf(server.running.services)!.kick();
  const row = server.running.services.meta.prepare('SELECT * FROM sms_outbox').get() as Record<string, any>;
  t.match(row, { status: 'queued', attempts: 0, to_masked: MASKED });
  t.match(row.body_sealed, /^v1\./);
  t.notMatch(row.body_sealed, /4915123456712|activation/, 'sealed at rest');

  const json = await runPpctl(['sms', 'outbox', '--json', '--data-dir', server.dataDir]);
  t.equal(json.code, 0, json.stderr);
  t.same(JSON.parse(json.stdout), [
    { id: row.id, kind: 'trial_activation', to_masked: MASKED, status: 'queued', attempts: 0, next_attempt_at: row.next_attempt_at, last_error: null, created_at: row.created_at, sent_at: null },
  ]);
  const text = await runPpctl(['sms', 'outbox', '--data-dir', server.dataDir]);
  t.equal(text.code, 0, text.stderr);
  t.equal(text.stdout, `#${row.id}  queued  trial_activation  to ${MASKED}  created ${row.created_at}  attempts 0  next attempt ${row.next_attempt_at}\n`);
});

t.test('rate limits: both operations spend the sign-in group budget of the client address', async (t) => {
  const { cloud } = await startCloudWithGateway(t, { 'rate_limit.auth_ip_per_minute': 4 });
  const held = await heldOrg(cloud);
  const ip = freshIp();
  const call = (path: string, body: unknown, from = ip) => cloud.server.request('POST', path, { token: held.token, body, headers: { 'x-forwarded-for': from } });
  t.equal((await call(SEND, { phone: PHONE })).status, 202);
  for (let i = 2; i <= 4; i++) t.equal((await call(VERIFY, { code: '000000' })).status, 422, `attempt ${i}`);
  const fifth = await call(VERIFY, { code: '000000' });
  t.equal(fifth.status, 429);
  t.equal(fifth.body.error.code, 'rate_limited');
  t.equal((await call(SEND, { phone: 'not a phone' })).status, 429, 'before validation');
  t.equal((await call(VERIFY, { code: '000000' }, freshIp())).status, 422, 'another address has its own budget');
});

t.test('a clock stepped back or forward by a day: no wait longer than its length, no code outliving ten minutes', async (t) => {
  const { gateway, cloud } = await startCloudWithGateway(t);
  const { server } = cloud;

  t.test('stepped back: the sends before the step do not count and their code is dead', async (t) => {
    const held = await heldOrg(cloud);
    const phone = '+4915100000011';
    for (let i = 1; i <= 5; i++) {
      t.equal((await send(cloud, held, phone)).status, 202, `send ${i}`);
      server.clock.advance(MINUTE);
    }
    const before = await codeSent(gateway, phone, 5);
    server.clock.step(-DAY);
    await signInAgain(cloud, held);
    t.equal((await verify(cloud, held, before)).status, 422, 'a code would otherwise live for the step plus ten minutes');
    t.equal((await send(cloud, held, phone)).status, 202, 'neither the minute nor the day counts sends stamped after now');
    const after = await codeSent(gateway, phone, 6);
    const early = await send(cloud, held, phone);
    t.equal(early.status, 429);
    t.equal(early.headers.get('retry-after'), '60', 'sends after the step count as usual');
    t.equal((await verify(cloud, held, after)).status, 200, 'the code sent after the step works');
  });

  t.test('stepped forward: the minute and the day are over, and so is the code', async (t) => {
    const held = await heldOrg(cloud);
    const phone = '+4915100000012';
    t.equal((await send(cloud, held, phone)).status, 202);
    const before = await codeSent(gateway, phone, 1);
    server.clock.step(DAY);
    await signInAgain(cloud, held);
    t.same((await verify(cloud, held, before)).body.error, WRONG_CODE, 'expired');
    t.equal((await send(cloud, held, phone)).status, 202);
    t.equal((await verify(cloud, held, await codeSent(gateway, phone, 2))).status, 200);
  });
});
