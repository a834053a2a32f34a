// The payment provider's callback (cloud edition), docs/payments.md: signed over the exact body
// within a time window, every event type moving a subscription created by a real trial-first signup,
// duplicates and late events recorded but not applied, unknown organizations acknowledged, and
// nothing of the secret or the body in the log.

import t from 'tap';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { freshIp, signUp, startCloud } from '../auth/signupKit.js';
import { accountStateOf } from '../../server/billing/accountState.js';

const PATH = '/api/v1/billing/provider-events';
const SECRET = 'whsec_test_0f1e2d3c4b5a';
const OLD_SECRET = 'whsec_test_retired_99';
const WITH_SECRET = { 'billing.webhook_secret': SECRET };
const DAY_MS = 86_400_000;
const BAD_SIGNATURE = { code: 'unauthorized', message: 'the PP-Signature signature is missing or does not match the request body', details: {} };
const OUTSIDE_WINDOW = { code: 'unauthorized', message: 'the PP-Signature timestamp is outside the allowed window of 300 seconds', details: {} };

interface ProviderEvent {
  id: string;
  type: string;
  created: number;
  data: Record<string, unknown>;
}

let sequence = 0;

const seconds = (server: TestServer, offset = 0) => Math.floor(server.clock.now().getTime() / 1000) + offset;

function providerEvent(server: TestServer, type: string, data: Record<string, unknown>, created = seconds(server)): ProviderEvent {
  sequence += 1;
  return { id: `evt_${process.pid}_${sequence}`, type, created, data };
}

function v1(body: string, at: number, secret = SECRET): string {
  return createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
}

interface Delivery {
  /** Sent instead of the JSON of the event. */
  raw?: string;
  /** Signed instead of what is sent. */
  signed?: string;
  at?: number;
  secret?: string;
  /** The whole header; null leaves it out. */
  header?: string | null;
}

function deliver(server: TestServer, event: ProviderEvent | undefined, options: Delivery = {}) {
  const raw = options.raw ?? JSON.stringify(event);
  const at = options.at ?? seconds(server);
  const header = options.header === undefined ? `t=${at},v1=${v1(options.signed ?? raw, at, options.secret)}` : options.header;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (header !== null) headers['pp-signature'] = header;
  return server.request('POST', PATH, { raw, headers });
}

function rowOf(server: TestServer, orgId: number): Record<string, unknown> {
  return server.running.services.meta
    .prepare('SELECT status, trial_state, plan, past_due_since, current_period_end, provider_customer, provider_subscription, updated_at FROM subscriptions WHERE org_id = ?')
    .get(orgId) as Record<string, unknown>;
}

function recorded(server: TestServer, id: string): { type: string; org_id: number | null; outcome: string } | undefined {
  return server.running.services.meta.prepare('SELECT type, org_id, outcome FROM payment_events WHERE id = ?').get(id) as { type: string; org_id: number | null; outcome: string } | undefined;
}

const stateOf = (server: TestServer, orgId: number) => accountStateOf(server.running.services, orgId).kind;

async function cloudOrg(cloud: Awaited<ReturnType<typeof startCloud>>, ip = freshIp()): Promise<{ orgId: number; trialState: string }> {
  const res = await signUp(cloud, {}, ip);
  return { orgId: res.body.org.id as number, trialState: res.body.org.trial_state as string };
}

t.test('the callback does not exist on-prem, nor in the cloud without a secret', async (t) => {
  const onprem = await startTestServer(t, { settings: WITH_SECRET });
  const cloud = await startCloud(t);
  for (const server of [onprem, cloud.server]) {
    const res = await deliver(server, providerEvent(server, 'subscription.activated', { org_id: 1, plan: 'growth', current_period_end: seconds(server, 30 * 86_400) }));
    t.equal(res.status, 404);
    t.equal(res.body.error.code, 'not_found');
  }
  t.equal((await onprem.request('GET', '/api/v1/openapi.json')).body.paths[PATH].post.operationId, 'receiveProviderEvent', 'documented all the same');
});

t.test('the signature', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const { orgId } = await cloudOrg(cloud);
  const before = rowOf(server, orgId);
  const update = () => providerEvent(server, 'subscription.activated', { org_id: orgId, plan: 'scale', current_period_end: seconds(server, 30 * 86_400), customer: 'cus_LOGMARKER' });

  const refused: Array<[string, ProviderEvent, Delivery, object]> = [
    ['no header', update(), { header: null }, BAD_SIGNATURE],
    ['an empty header', update(), { header: '' }, BAD_SIGNATURE],
    ['a header without t', update(), { header: `v1=${'a'.repeat(64)}` }, BAD_SIGNATURE],
    ['a header without v1', update(), { header: `t=${seconds(server)}` }, BAD_SIGNATURE],
    ['a v1 that is not hex', update(), { header: `t=${seconds(server)},v1=${'z'.repeat(64)}` }, BAD_SIGNATURE],
    ['two timestamps', update(), { header: `t=${seconds(server)},t=${seconds(server)},v1=${'a'.repeat(64)}` }, BAD_SIGNATURE],
    ['the wrong secret', update(), { secret: 'whsec_someone_else' }, BAD_SIGNATURE],
    ['a tampered body', update(), { signed: JSON.stringify({ tampered: true }) }, BAD_SIGNATURE],
    ['a stale timestamp, correctly signed', update(), { at: seconds(server, -301) }, OUTSIDE_WINDOW],
    ['a timestamp too far ahead, correctly signed', update(), { at: seconds(server, 301) }, OUTSIDE_WINDOW],
  ];
  for (const [label, event, delivery, error] of refused) {
    const res = await deliver(server, event, delivery);
    t.equal(res.status, 401, label);
    t.same(res.body.error, error, label);
  }
  t.same(rowOf(server, orgId), before, 'nothing moved');
  t.equal((server.running.services.meta.prepare('SELECT count(*) AS n FROM payment_events').get() as { n: number }).n, 0, 'nothing recorded');

  // The header parts are trimmed and unknown schemes skipped; the body is signed byte for byte.
  const spaced = update();
  const rawSpaced = `  ${JSON.stringify(spaced, null, 2)}\n`;
  const at = seconds(server, -300);
  const ok = await deliver(server, spaced, { raw: rawSpaced, header: ` t=${at}, v0=ignored , v1=${v1(rawSpaced, at)}` });
  t.equal(ok.status, 200, 'the edge of the window, pretty-printed body');

  const rotating = update();
  const raw = JSON.stringify(rotating);
  const now = seconds(server);
  const both = await deliver(server, rotating, { header: `t=${now},v1=${v1(raw, now, OLD_SECRET)},v1=${v1(raw, now)}` });
  t.equal(both.status, 200, 'two v1 entries while the secret rotates: one match is enough');
  const onlyOld = await deliver(server, update(), { secret: OLD_SECRET });
  t.equal(onlyOld.status, 401, 'the retired secret alone is refused');

  const upper = update();
  const upperRaw = JSON.stringify(upper);
  t.equal((await deliver(server, upper, { header: `t=${now},v1=${v1(upperRaw, now).toUpperCase()}` })).status, 200, 'upper-case hex');

  const compressed = update();
  const compressedRaw = JSON.stringify(compressed);
  const gzip = await server.request('POST', PATH, {
    raw: compressedRaw,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'pp-signature': `t=${now},v1=${v1(compressedRaw, now)}` },
  });
  t.equal(gzip.status, 400, 'a compressed body is refused: the signed bytes are the ones on the wire');
  t.equal(gzip.body.error.message, 'unsupported request body encoding');

  const tooBig = await deliver(server, undefined, { raw: JSON.stringify({ id: 'evt_big', type: 'x', created: now, data: { pad: 'x'.repeat(70_000) } }) });
  t.equal(tooBig.status, 413);
  t.same(tooBig.body.error, { code: 'payload_too_large', message: 'request body exceeds 65536 bytes', details: { limit_bytes: 65536 } });

  const logged = JSON.stringify(server.logs);
  t.notMatch(logged, SECRET, 'the secret is never logged');
  t.notMatch(logged, 'cus_LOGMARKER', 'nor the body');
  t.notMatch(logged, v1(raw, now), 'nor a signature');
  const sent = server.logs
    .filter((l) => l.msg === 'request' && (l.req as { url: string }).url === PATH)
    .map((l) => (l.req as { headers: Record<string, string> }).headers['pp-signature'])
    .filter((h) => h !== undefined);
  t.ok(sent.length > 10);
  t.same(new Set(sent), new Set(['[redacted]']), 'the header is redacted');
});

t.test('a signed body that is not a valid event', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const now = seconds(server);
  const notJson = await deliver(server, undefined, { raw: '{"id": ' });
  t.equal(notJson.status, 400);
  t.same(notJson.body.error, { code: 'validation_failed', message: 'request body is not valid JSON', details: {} });

  const base = { id: 'evt_invalid', type: 'subscription.activated', created: now, data: { org_id: 1, plan: 'growth', current_period_end: now + 86_400 } };
  const cases: Array<[string, unknown, string, string]> = [
    ['no id', { ...base, id: undefined }, 'id', 'invalid request body: id is required'],
    ['created is not unix seconds', { ...base, created: '2026-11-02' }, 'created', 'invalid request body: created must be integer'],
    ['no data', { ...base, data: undefined }, 'data', 'invalid request body: data is required'],
    ['an unknown plan', { ...base, data: { ...base.data, plan: 'enterprise' } }, 'data.plan', 'invalid request body: data.plan must be one of "free", "growth", "scale"'],
    ['org_id not an integer', { ...base, data: { ...base.data, org_id: '1' } }, 'data.org_id', 'invalid request body: data.org_id must be integer'],
    ['a known type without org_id', { ...base, type: 'payment.failed', data: {} }, 'data.org_id', 'payment.failed needs data.org_id'],
    ['activation without a plan', { ...base, data: { org_id: 1, current_period_end: now } }, 'data.plan', 'subscription.activated needs data.plan'],
    ['activation without a period end', { ...base, data: { org_id: 1, plan: 'growth' } }, 'data.current_period_end', 'subscription.activated needs data.current_period_end'],
    ['an update that changes nothing', { ...base, type: 'subscription.updated', data: { org_id: 1 } }, 'data.plan', 'subscription.updated needs data.plan or data.current_period_end'],
  ];
  for (const [label, body, field, message] of cases) {
    const res = await deliver(server, undefined, { raw: JSON.stringify(body) });
    t.equal(res.status, 422, label);
    t.equal(res.body.error.code, 'validation_failed', label);
    t.equal(res.body.error.details.field, field, label);
    t.equal(res.body.error.message, message, label);
  }
  const badEnd = await deliver(server, undefined, { raw: JSON.stringify({ ...base, data: { ...base.data, current_period_end: 'next month' } }) });
  t.equal(badEnd.status, 422);
  t.equal(badEnd.body.error.details.field, 'data.current_period_end');
  t.equal((server.running.services.meta.prepare('SELECT count(*) AS n FROM payment_events').get() as { n: number }).n, 0, 'a refused event is not recorded, so its retry is read afresh');
});

t.test('every event type, from a trial to a lapsed subscription', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const { orgId } = await cloudOrg(cloud);
  t.equal(rowOf(server, orgId).status, 'trialing');

  // Paying for a plan ends the trial: 30 days paid for, the provider's ids kept.
  const periodEnd = seconds(server, 30 * 86_400);
  const activated = await deliver(server, providerEvent(server, 'subscription.activated', { org_id: orgId, plan: 'growth', current_period_end: periodEnd, customer: 'cus_1', subscription: 'sub_1' }));
  t.equal(activated.status, 200);
  t.same(activated.body, { received: true, applied: true, status: 'active', plan: 'growth' });
  t.same(rowOf(server, orgId), {
    status: 'active',
    trial_state: 'converted',
    plan: 'growth',
    past_due_since: null,
    current_period_end: new Date(periodEnd * 1000).toISOString(),
    provider_customer: 'cus_1',
    provider_subscription: 'sub_1',
    updated_at: server.clock.now().toISOString(),
  });
  t.equal(stateOf(server, orgId), 'paid');

  // A plan change keeps everything else; a period end may come as RFC 3339.
  server.clock.advance(60_000);
  t.same((await deliver(server, providerEvent(server, 'subscription.updated', { org_id: orgId, plan: 'scale' }))).body, { received: true, applied: true, status: 'active', plan: 'scale' });
  t.match(rowOf(server, orgId), { status: 'active', plan: 'scale', current_period_end: new Date(periodEnd * 1000).toISOString(), provider_customer: 'cus_1' });
  server.clock.advance(60_000);
  await deliver(server, providerEvent(server, 'subscription.updated', { org_id: orgId, current_period_end: '2026-12-15T09:30:00+01:00' }));
  t.match(rowOf(server, orgId), { plan: 'scale', current_period_end: '2026-12-15T08:30:00.000Z' });

  // A failed payment starts the grace period; a second failure does not restart it.
  server.clock.advance(60_000);
  const failedAt = server.clock.now().toISOString();
  t.same((await deliver(server, providerEvent(server, 'payment.failed', { org_id: orgId }))).body, { received: true, applied: true, status: 'past_due', plan: 'scale' });
  t.match(rowOf(server, orgId), { status: 'past_due', past_due_since: failedAt });
  server.clock.advance(DAY_MS);
  await deliver(server, providerEvent(server, 'payment.failed', { org_id: orgId }));
  t.match(rowOf(server, orgId), { status: 'past_due', past_due_since: failedAt }, 'the grace period still counts from the first failure');
  t.equal(stateOf(server, orgId), 'paid', 'within the grace period it still works');
  server.clock.set(new Date(Date.parse(failedAt) + 7 * DAY_MS));
  t.equal(stateOf(server, orgId), 'paused', 'after billing.past_due_grace_days it is paused');

  // Paying clears it and pays for a new period.
  const nextEnd = seconds(server, 30 * 86_400);
  t.same((await deliver(server, providerEvent(server, 'payment.succeeded', { org_id: orgId, current_period_end: nextEnd }))).body, { received: true, applied: true, status: 'active', plan: 'scale' });
  t.match(rowOf(server, orgId), { status: 'active', past_due_since: null, current_period_end: new Date(nextEnd * 1000).toISOString() });
  t.equal(stateOf(server, orgId), 'paid');

  // Cancelled: it works until the end of the period paid for, then it is paused.
  server.clock.advance(DAY_MS);
  t.same((await deliver(server, providerEvent(server, 'subscription.cancelled', { org_id: orgId }))).body, { received: true, applied: true, status: 'cancelled', plan: 'scale' });
  t.match(rowOf(server, orgId), { status: 'cancelled', plan: 'scale', current_period_end: new Date(nextEnd * 1000).toISOString() });
  t.equal(stateOf(server, orgId), 'paid');
  server.clock.set(new Date(nextEnd * 1000));
  t.equal(stateOf(server, orgId), 'paused');

  // A cancelled subscription bought again is active again.
  const againEnd = seconds(server, 30 * 86_400);
  t.same((await deliver(server, providerEvent(server, 'subscription.activated', { org_id: orgId, plan: 'growth', current_period_end: againEnd }))).body, {
    received: true,
    applied: true,
    status: 'active',
    plan: 'growth',
  });
  t.match(rowOf(server, orgId), { provider_customer: 'cus_1', provider_subscription: 'sub_1' }, 'ids not sent are kept');
  t.equal(stateOf(server, orgId), 'paid');

  const audit = server.running.services.meta.prepare("SELECT action, target, details FROM audit_log WHERE org_id = ? AND action = 'org.subscription.update' ORDER BY id").all(orgId) as Array<{
    details: string;
  }>;
  t.equal(audit.length, 8, 'every applied event is audited');
  t.same(JSON.parse(audit[0]!.details), {
    via: 'payment_provider',
    event_type: 'subscription.activated',
    status: ['trialing', 'active'],
    plan: [null, 'growth'],
    current_period_end: new Date(periodEnd * 1000).toISOString(),
  });
});

t.test('events that do not apply to the current status change nothing', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const { orgId } = await cloudOrg(cloud);
  const before = rowOf(server, orgId);
  for (const type of ['payment.failed', 'payment.succeeded', 'subscription.cancelled']) {
    const event = providerEvent(server, type, { org_id: orgId, plan: 'growth' });
    const res = await deliver(server, event);
    t.same(res.body, { received: true, ignored: 'not applicable' }, `${type} on a trial`);
    t.equal(recorded(server, event.id)?.outcome, 'not_applicable');
  }
  t.same(rowOf(server, orgId), before);
});

t.test('paying resolves a held trial', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  // A second signup from one address within a day is held (risk rule 3).
  const ip = freshIp();
  await cloudOrg(cloud, ip);
  const held = await cloudOrg(cloud, ip);
  t.equal(held.trialState, 'sms_required');
  t.equal(rowOf(server, held.orgId).status, 'pending_review');
  t.equal(stateOf(server, held.orgId), 'pending_review');

  const res = await deliver(server, providerEvent(server, 'subscription.activated', { org_id: held.orgId, plan: 'growth', current_period_end: seconds(server, 30 * 86_400) }));
  t.same(res.body, { received: true, applied: true, status: 'active', plan: 'growth' });
  t.match(rowOf(server, held.orgId), { status: 'active', trial_state: 'converted' });
  t.equal(stateOf(server, held.orgId), 'paid');
});

t.test('a trial the provider runs: the plan it names until its end, then 402 trial_expired', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const ip = freshIp();
  await cloudOrg(cloud, ip);
  const held = await cloudOrg(cloud, ip);
  const missing = await deliver(server, providerEvent(server, 'subscription.trialing', { org_id: held.orgId, plan: 'scale' }));
  t.equal(missing.status, 422);
  t.equal(missing.body.error.details.field, 'data.trial_end');

  const end = seconds(server, 7 * 86_400);
  const res = await deliver(server, providerEvent(server, 'subscription.trialing', { org_id: held.orgId, plan: 'scale', trial_end: end }));
  t.same(res.body, { received: true, applied: true, status: 'trialing', plan: 'scale' });
  t.match(rowOf(server, held.orgId), { status: 'trialing', trial_state: 'trialing', plan: 'scale' });
  const state = accountStateOf(server.running.services, held.orgId);
  t.match(state, { kind: 'trial', plan: 'scale', endsAt: new Date(end * 1000).toISOString() }, 'a card-backed trial resolves the hold, with its own plan and end');
  server.clock.set(new Date(end * 1000));
  t.match(accountStateOf(server.running.services, held.orgId), { kind: 'paused', code: 'trial_expired' });
});

t.test('a redelivered event is acknowledged and changes nothing', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const { orgId } = await cloudOrg(cloud);
  const event = providerEvent(server, 'subscription.activated', { org_id: orgId, plan: 'growth', current_period_end: seconds(server, 30 * 86_400) });
  t.equal((await deliver(server, event)).body.applied, true);
  const after = rowOf(server, orgId);

  server.clock.advance(3_600_000);
  const again = await deliver(server, event);
  t.equal(again.status, 200);
  t.same(again.body, { received: true, duplicate: true });
  const sameIdOtherBody = await deliver(server, { ...event, data: { ...event.data, plan: 'scale' } });
  t.same(sameIdOtherBody.body, { received: true, duplicate: true }, 'the id decides, not the body');
  t.same(rowOf(server, orgId), after);
  t.equal((server.running.services.meta.prepare('SELECT count(*) AS n FROM payment_events').get() as { n: number }).n, 1);
});

t.test('an event older than the newest applied one is recorded, not applied', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const { orgId } = await cloudOrg(cloud);
  const start = seconds(server);
  await deliver(server, providerEvent(server, 'subscription.activated', { org_id: orgId, plan: 'growth', current_period_end: start + 30 * 86_400 }, start));
  await deliver(server, providerEvent(server, 'subscription.updated', { org_id: orgId, plan: 'scale' }, start + 100));

  // The failure happened before the update the provider delivered first.
  const late = providerEvent(server, 'payment.failed', { org_id: orgId }, start + 50);
  const res = await deliver(server, late);
  t.same(res.body, { received: true, ignored: 'stale' });
  t.same(recorded(server, late.id), { type: 'payment.failed', org_id: orgId, outcome: 'stale' });
  t.match(rowOf(server, orgId), { status: 'active', plan: 'scale', past_due_since: null });

  const sameSecond = await deliver(server, providerEvent(server, 'payment.failed', { org_id: orgId }, start + 100));
  t.equal(sameSecond.body.applied, true, 'an event of the same second as the newest one applies');
  t.equal(rowOf(server, orgId).status, 'past_due');

  const { orgId: other } = await cloudOrg(cloud);
  const otherOrg = await deliver(server, providerEvent(server, 'subscription.activated', { org_id: other, plan: 'growth', current_period_end: start + 30 * 86_400 }, start - 1000));
  t.equal(otherOrg.body.applied, true, 'the order is kept per organization');
});

t.test('unknown types and organizations are acknowledged and ignored', async (t) => {
  const cloud = await startCloud(t, WITH_SECRET);
  const { server } = cloud;
  const operatorOrg = await createTenant(server);

  const unknownType = providerEvent(server, 'invoice.created', { amount: 4200, org_id: 1 });
  t.same((await deliver(server, unknownType)).body, { received: true, ignored: 'unknown type' });
  t.same(recorded(server, unknownType.id), { type: 'invoice.created', org_id: 1, outcome: 'unknown_type' });
  t.same((await deliver(server, providerEvent(server, 'customer.created', {}))).body, { received: true, ignored: 'unknown type' }, 'without an organization too');

  const unknownOrg = providerEvent(server, 'subscription.activated', { org_id: 987_654, plan: 'growth', current_period_end: seconds(server, 86_400) });
  const res = await deliver(server, unknownOrg);
  t.equal(res.status, 200);
  t.same(res.body, { received: true, ignored: 'unknown organization' });
  t.equal(recorded(server, unknownOrg.id)?.outcome, 'unknown_org');
  t.ok(
    server.logs.find((l) => l.msg === 'payment event for an unknown organization; ignored' && l.event_id === unknownOrg.id && l.level === 40),
    'a warning is logged',
  );

  const noRow = providerEvent(server, 'payment.failed', { org_id: operatorOrg.org.id });
  t.same((await deliver(server, noRow)).body, { received: true, ignored: 'no subscription' }, 'an organization created by an operator has no subscription');
  t.ok(server.logs.find((l) => l.msg === 'payment event for an organization without a subscription; ignored' && l.org_id === operatorOrg.org.id && l.level === 40));
  t.equal((server.running.services.meta.prepare('SELECT count(*) AS n FROM subscriptions').get() as { n: number }).n, 0, 'nothing was created');
});
