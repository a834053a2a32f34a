// The cloud account states seen from outside: what a live trial, a held trial, an ended trial, a
// paid plan, a past-due and a cancelled subscription may do, through the real routes. Time moves
// with the server's clock; subscriptions start the way signup starts them (insertSubscription) and
// later states are the rows the payment callback writes.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, login, TEST_PASSWORD, type Tenant } from '../support/factories.js';
import { withCookie } from '../auth/authTestKit.js';
import { createIngestKey, ingestEvents, type TestKey } from '../support/ingest.js';
import { insertSubscription } from '../../server/billing/subscriptions.js';
import { gatedByAccountState, other, self } from '../../server/access/access.js';

const DAY_MS = 86_400_000;
const START = new Date('2026-11-02T12:00:00Z');
const CLOUD = {
  edition: 'cloud',
  base_url: 'https://pp.example.com',
  'billing.trial_event_cap': 5,
  'billing.free_events_per_month': 3,
  'billing.checkout_url': 'https://pay.example/checkout?org={org_id}&plan={plan}&email={email}',
};

interface Org extends Tenant {
  token: string;
  key: TestKey;
}

async function cloudOrg(server: TestServer, status: 'trialing' | 'pending_review' = 'trialing'): Promise<Org> {
  const tenant = await createTenant(server);
  insertSubscription(server.running.services, tenant.org.id, { status, trialState: status === 'trialing' ? 'trialing' : 'sms_required' });
  return { ...tenant, token: await accessTokenFor(server, tenant.owner, tenant.org), key: createIngestKey(server, tenant.project) };
}

/** Moves the clock; access tokens live minutes, so the owner signs in again. */
async function moveTo(server: TestServer, org: Org, at: Date | string): Promise<void> {
  server.clock.set(at);
  org.token = await accessTokenFor(server, org.owner, org.org);
}

function setRow(server: TestServer, orgId: number, columns: Record<string, string | number | null>): void {
  const names = Object.keys(columns);
  server.running.services.meta.prepare(`UPDATE subscriptions SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE org_id = ?`).run(...Object.values(columns), orgId);
}

/** Signs the owner in with the password and asks for the bootstrap as the console does. */
async function bootstrapOf(server: TestServer, tenant: Tenant) {
  const signedIn = await login(server, tenant.owner.email, TEST_PASSWORD);
  return withCookie(server, '/api/v1/auth/bootstrap', signedIn.cookie, { origin: server.running.services.config.base_url });
}

const event = (n: number) => ({ event: 'signup', user_id: `u${n}`, ts: '2026-11-01T10:00:00Z' });
const funnel = { date_from: '2026-10-01', date_to: '2026-11-01', steps: [{ event: 'signup' }, { event: 'activate' }] };

/** One call of each kind: a mutation, a plan-gated query, an ungated query, a read, an ingest. */
async function probe(server: TestServer, org: Org) {
  const p = `/api/v1/projects/${org.project.id}`;
  const [mutation, query, summary, read, forms, ingest] = await Promise.all([
    server.request('PATCH', p, { token: org.token, body: { name: 'Renamed' } }),
    server.request('POST', `${p}/queries/funnel`, { token: org.token, body: funnel }),
    server.request('POST', `${p}/queries/activity-summary`, { token: org.token, body: { date_to: '2026-11-01' } }),
    server.request('GET', `${p}/events`, { token: org.token }),
    server.request('GET', `${p}/forms`, { token: org.token }),
    ingestEvents(server, org.key, [event(1)]),
  ]);
  return { mutation, query, summary, read, forms, ingest };
}

const statuses = (r: Awaited<ReturnType<typeof probe>>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.status]));
const codes = (r: Awaited<ReturnType<typeof probe>>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.body?.error?.code ?? null]));

t.test('a live trial works, counts its events and stops ingest at its cap with 429 trial_quota_exceeded', async (t) => {
  const server = await startTestServer(t, { settings: CLOUD, now: START });
  const org = await cloudOrg(server);
  t.same(statuses(await probe(server, org)), { mutation: 200, query: 200, summary: 200, read: 200, forms: 200, ingest: 202 });

  const boot = await bootstrapOf(server, org);
  const me = await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token });
  t.equal(me.status, 200);
  t.match(me.body.billing, {
    status: 'trialing',
    access: null,
    trial_state: 'trialing',
    plan: 'growth',
    trial_days_left: 14,
    entitlements: ['actor_drilldown', 'saved_segments'],
    billing_url: 'https://pp.example.com/org/billing',
    checkout_available: true,
  });
  t.equal(me.body.billing.trial_ends_at, new Date(START.getTime() + 14 * DAY_MS).toISOString());
  t.same(me.body.usage, { month: '2026-11', events_this_month: 1, trial_events: 1, limit: 5, limit_kind: 'trial_total' });
  t.equal(boot.status, 200, boot.text);

  t.equal((await ingestEvents(server, org.key, [event(2), event(3), event(4), event(5)])).status, 202, 'the fifth event is within the cap');
  const over = await ingestEvents(server, org.key, [event(6)]);
  t.equal(over.status, 429);
  t.equal(over.body.error.code, 'trial_quota_exceeded');
  t.equal(over.body.error.details.billing_url, 'https://pp.example.com/org/billing');
  t.equal((await server.request('POST', `/api/v1/projects/${org.project.id}/queries/funnel`, { token: org.token, body: funnel })).status, 200, 'queries go on');
  const usage = (await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token })).body.usage;
  t.equal(usage.trial_events, 5, 'a refused request is not counted');
});

t.test('the bootstrap carries billing and usage in the cloud and the license on-prem', async (t) => {
  const cloud = await startTestServer(t, { settings: CLOUD, now: START });
  const org = await cloudOrg(cloud);
  const boot = await bootstrapOf(cloud, org);
  t.equal(boot.status, 200, boot.text);
  t.match(boot.body, { billing: { status: 'trialing', plan: 'growth' }, usage: { limit_kind: 'trial_total' } });
  t.notOk('license' in boot.body, 'no license section in the cloud');

  const plain = await cloudOrg(cloud);
  cloud.running.services.meta.prepare('DELETE FROM subscriptions WHERE org_id = ?').run(plain.org.id);
  t.equal((await cloud.request('GET', `/api/v1/orgs/${plain.org.id}/billing`, { token: plain.token })).status, 404, 'an organization without a subscription is not metered');
  t.same(statuses(await probe(cloud, plain)), { mutation: 200, query: 200, summary: 200, read: 200, forms: 200, ingest: 202 });
  const plainBoot = await bootstrapOf(cloud, plain);
  t.ok(plainBoot.body.license, 'the license decides for it, and its section says what it grants');
  t.notOk('billing' in plainBoot.body);

  const onprem = await startTestServer(t, { now: START });
  const tenant = await createTenant(onprem);
  const token = await accessTokenFor(onprem, tenant.owner, tenant.org);
  const local = await bootstrapOf(onprem, tenant);
  t.ok(local.body.license, 'on-prem: the license section');
  t.notOk('billing' in local.body || 'usage' in local.body, 'on-prem: no billing');
  t.equal((await onprem.request('GET', `/api/v1/orgs/${tenant.org.id}/billing`, { token })).status, 404);
  t.equal((await onprem.request('POST', `/api/v1/orgs/${tenant.org.id}/billing/plan`, { token, body: { plan: 'free' } })).status, 404);
});

t.test('a held trial reads but changes nothing and ingests nothing', async (t) => {
  const server = await startTestServer(t, { settings: CLOUD, now: START });
  const org = await cloudOrg(server, 'pending_review');
  const r = await probe(server, org);
  t.same(statuses(r), { mutation: 403, query: 200, summary: 200, read: 200, forms: 200, ingest: 403 });
  t.same(codes(r), { mutation: 'trial_pending_review', query: null, summary: null, read: null, forms: null, ingest: 'trial_pending_review' });
  const p = `/api/v1/projects/${org.project.id}`;
  const more = await Promise.all([
    server.request('POST', '/api/v1/projects', { token: org.token, body: { name: 'Second' } }),
    server.request('POST', `${p}/dashboards`, { token: org.token, body: { name: 'Board' } }),
    server.request('DELETE', `${p}/keys/${org.key.id}`, { token: org.token }),
    server.request('PATCH', `/api/v1/orgs/${org.org.id}`, { token: org.token, body: { name: 'X' } }),
    server.request('POST', `${p}/labeled-events/preview`, { token: org.token, body: { base_event: 'pp.click', match_text: 'Buy' } }),
    server.request('POST', `${p}/path-cleaning/test`, { token: org.token, body: { url: 'https://a.example/users/1' } }),
  ]);
  t.same(
    more.map((x) => x.status),
    [403, 403, 403, 403, 200, 200],
    'mutations refused, reading POSTs answered',
  );
  t.equal(more[0]!.body.error.code, 'trial_pending_review');
  const billing = await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token });
  t.match(billing.body.billing, { status: 'pending_review', access: 'trial_pending_review', trial_state: 'sms_required', trial_ends_at: null });
  t.equal(billing.body.usage.limit, null);
  const choose = await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'free' } });
  t.equal(choose.status, 403, 'a held trial is activated, not switched to free');
  t.equal(
    (await server.request('POST', '/api/v1/me/password', { token: org.token, body: { current_password: 'nope-nope-1', new_password: 'Another-Horse-9' } })).status !== 403,
    true,
    "the member's own security stays open",
  );
});

t.test('an ended trial pauses ingest, mutations and plan-gated reports with 402 until a plan is chosen', async (t) => {
  const server = await startTestServer(t, { settings: CLOUD, now: START });
  const org = await cloudOrg(server);
  await moveTo(server, org, new Date(START.getTime() + 14 * DAY_MS));
  const r = await probe(server, org);
  t.same(statuses(r), { mutation: 402, query: 402, summary: 200, read: 200, forms: 402, ingest: 402 });
  t.same(codes(r), { mutation: 'trial_expired', query: 'trial_expired', summary: null, read: null, forms: 'trial_expired', ingest: 'trial_expired' });
  t.equal(r.query.body.error.details.billing_url, 'https://pp.example.com/org/billing');
  t.match((await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token })).body.billing, { access: 'trial_expired', trial_state: 'expired', plan: null, entitlements: [] });

  const viewer = await addMember(server, org.org, 'viewer');
  const viewerToken = await accessTokenFor(server, viewer, org.org);
  t.equal((await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: viewerToken, body: { plan: 'free' } })).status, 403, 'admins choose plans');
  const paid = await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'scale' } });
  t.same(paid.body, { plan: 'scale', checkout_url: `https://pay.example/checkout?org=${org.org.id}&plan=scale&email=${encodeURIComponent(org.owner.email)}` });
  t.equal((await probe(server, org)).query.status, 402, 'a checkout link changes nothing by itself');

  const free = await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'free' } });
  t.same(free.body, { plan: 'free', subscription: 'active' });
  t.same(statuses(await probe(server, org)), { mutation: 200, query: 200, summary: 200, read: 200, forms: 200, ingest: 202 });
  const segment = await server.request('POST', `/api/v1/projects/${org.project.id}/segments`, { token: org.token, body: { name: 'S', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] } });
  t.equal(segment.status, 403, 'the free plan has no saved segments');
  t.equal(segment.body.error.code, 'entitlement_required');
  t.match(segment.body.error.message, /organization's plan/);
});

t.test('a paid plan meters by calendar month; past due works through its grace; cancelled works to the end of its period', async (t) => {
  const server = await startTestServer(t, { settings: CLOUD, now: new Date('2026-11-29T12:00:00Z') });
  const org = await cloudOrg(server);
  setRow(server, org.org.id, { status: 'active', plan: 'free', trial_state: 'converted' });
  t.equal((await ingestEvents(server, org.key, [event(1), event(2), event(3)])).status, 202);
  const over = await ingestEvents(server, org.key, [event(4)]);
  t.equal(over.status, 429);
  t.equal(over.body.error.code, 'quota_exceeded');
  await moveTo(server, org, '2026-12-01T00:00:00Z');
  t.equal((await ingestEvents(server, org.key, [event(5)])).status, 202, 'a new month, a new quota');

  setRow(server, org.org.id, { status: 'active', plan: 'growth' });
  const again = await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'growth' } });
  t.equal(again.status, 409, 'the plan in force is not bought twice');
  const down = await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'free' } });
  t.equal(down.status, 409, 'a paid plan is cancelled with the provider before moving to free');
  t.ok((await server.request('POST', `/api/v1/orgs/${org.org.id}/billing/plan`, { token: org.token, body: { plan: 'scale' } })).body.checkout_url, 'an upgrade goes to the checkout');
  t.equal(
    (await server.request('POST', `/api/v1/projects/${org.project.id}/segments`, { token: org.token, body: { name: 'S', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] } })).status,
    201,
    'growth has saved segments',
  );

  setRow(server, org.org.id, { status: 'past_due', past_due_since: '2026-12-01T00:00:00Z' });
  await moveTo(server, org, '2026-12-07T23:59:00Z');
  t.same(statuses(await probe(server, org)), { mutation: 200, query: 200, summary: 200, read: 200, forms: 200, ingest: 202 }, 'within the seven days of grace');
  t.equal((await server.request('GET', `/api/v1/orgs/${org.org.id}/billing`, { token: org.token })).body.billing.grace_ends_at, '2026-12-08T00:00:00.000Z');
  await moveTo(server, org, '2026-12-08T00:00:00Z');
  const lapsed = await probe(server, org);
  t.same(codes(lapsed), { mutation: 'subscription_required', query: 'subscription_required', summary: null, read: null, forms: 'subscription_required', ingest: 'subscription_required' });

  setRow(server, org.org.id, { status: 'cancelled', past_due_since: null, current_period_end: '2026-12-31T00:00:00Z' });
  t.equal((await probe(server, org)).mutation.status, 200, 'cancelled: works until the period ends');
  await moveTo(server, org, '2026-12-31T00:00:00Z');
  t.equal((await probe(server, org)).ingest.body.error.code, 'subscription_required');
});

t.test('every cabinet operation is classed as a change or a read on purpose', async (t) => {
  const server = await startTestServer(t);
  const reads = server.running.built.routes.mounted
    .filter((r) => r.method !== 'get' && (r.path.startsWith('/api/v1/projects') || r.path.startsWith('/api/v1/orgs/')))
    .filter((r) => !gatedByAccountState(r.method, r.access))
    .map((r) => `${r.method.toUpperCase()} ${r.path}`)
    .sort();
  const queries = server.running.built.routes.mounted.filter((r) => r.path.startsWith('/api/v1/projects/{id}/queries/')).map((r) => `POST ${r.path}`);
  t.same(
    reads,
    [
      ...queries,
      'POST /api/v1/orgs/{orgID}/billing/plan',
      'POST /api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}/result',
      'POST /api/v1/projects/{id}/insights/{insightID}/result',
      'POST /api/v1/projects/{id}/labeled-events/preview',
      'POST /api/v1/projects/{id}/path-cleaning/test',
    ].sort(),
  );
  const declared = (method: string, path: string) => server.running.built.routes.mounted.find((r) => r.method === method && r.path === path)!.access;
  t.ok(gatedByAccountState('post', declared('post', '/api/v1/projects/{id}/labeled-events')));
  t.ok(gatedByAccountState('post', declared('post', '/api/v1/projects/{id}/release-markers/deploy')));
  t.notOk(gatedByAccountState('post', declared('post', '/api/v1/me/password')));
  t.notOk(gatedByAccountState('post', declared('post', '/api/v1/auth/trial/sms')), 'activation lifts the hold');
  t.notOk(gatedByAccountState('post', self()));
  t.notOk(gatedByAccountState('post', other('none', [])));
});
