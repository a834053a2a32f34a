// Personal API keys (pp_pk_): issued from a signed-in session, shown once, used as a Bearer value
// on /api/v1 within their scopes and their member's current role, and stopped by revocation,
// expiry or removal from the organization. Never on ingestion, sign-in or the caller's own account.

import t, { type Test } from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, type Tenant } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import type { User } from '../../server/accounts/users.js';

const MINUTE = 60_000;
const KEYS = '/api/v1/me/api-keys';
const insight = { name: 'Activity', kind: 'lifecycle', query: { date_from: '2026-10-01', date_to: '2026-10-31' } };

async function issue(server: TestServer, token: string, body: Record<string, unknown>): Promise<any> {
  const res = await server.request('POST', KEYS, { token, body });
  if (res.status !== 201) throw new Error(`issuing a key answered ${res.status}: ${res.text}`);
  return res.body;
}

interface World {
  server: TestServer;
  tenant: Tenant;
  owner: string;
  member(role: 'viewer' | 'analyst' | 'admin'): Promise<{ user: User; token: string }>;
}

async function world(t: Test, settings: Record<string, unknown> = {}): Promise<World> {
  const server = await startTestServer(t, { settings });
  const tenant = await createTenant(server);
  const owner = await accessTokenFor(server, tenant.owner, tenant.org);
  return {
    server,
    tenant,
    owner,
    async member(role) {
      const user = await addMember(server, tenant.org, role);
      return { user, token: await accessTokenFor(server, user, tenant.org) };
    },
  };
}

t.test('issue, list and revoke: 401 → 422 → 403 → 201 with the value once', async (t) => {
  const { server, tenant, owner, member } = await world(t);
  const viewer = await member('viewer');
  t.equal((await server.request('POST', KEYS, { body: { name: 'bi', scopes: ['read'] } })).status, 401);
  const invalid = await server.request('POST', KEYS, { token: owner, body: { name: 'bi', scopes: ['everything'] } });
  t.equal(invalid.status, 422);
  t.equal(invalid.body.error.code, 'validation_failed');
  const past = await server.request('POST', KEYS, { token: owner, body: { name: 'bi', scopes: ['read'], expires_at: '2026-01-01T00:00:00Z' } });
  t.equal(past.status, 422);
  t.equal(past.body.error.details.field, 'expires_at');
  const foreign = await createTenant(server);
  const elsewhere = await server.request('POST', KEYS, { token: owner, body: { name: 'bi', scopes: ['read'], project_id: foreign.project.id } });
  t.equal(elsewhere.status, 422, "another organization's project");
  const above = await server.request('POST', KEYS, { token: viewer.token, body: { name: 'bi', scopes: ['read', 'write'] } });
  t.equal(above.status, 403, 'a viewer cannot hold a write key');
  t.equal(above.body.error.code, 'forbidden');

  const res = await server.request('POST', KEYS, { token: owner, body: { name: 'Grafana', scopes: ['read'], project_id: tenant.project.id } });
  t.equal(res.status, 201);
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.match(res.body.value, /^pp_pk_[A-Za-z0-9]{40}$/);
  t.match(res.body, { name: 'Grafana', scopes: ['read'], project_id: tenant.project.id, status: 'active', last_used_at: null, prefix: res.body.value.slice(6, 14) });

  const list = await server.request('GET', KEYS, { token: owner });
  t.same(
    list.body.items.map((k: any) => k.id),
    [res.body.id],
  );
  t.notOk(list.text.includes(res.body.value), 'the value is never listed');
  t.same((await server.request('GET', KEYS, { token: viewer.token })).body.items, [], 'each member sees their own keys');
  t.equal((await server.request('DELETE', `${KEYS}/${res.body.id}`, { token: viewer.token })).status, 404, "another member's key");

  const stored = server.running.services.meta.prepare('SELECT secret_hash FROM personal_api_keys WHERE id = ?').get(res.body.id) as { secret_hash: string };
  t.notOk(stored.secret_hash.includes(res.body.value.slice(14)), 'only a hash of the secret is kept');

  t.equal((await server.request('GET', `/api/v1/projects/${tenant.project.id}/events`, { token: res.body.value })).status, 200);
  t.equal((await server.request('DELETE', `${KEYS}/${res.body.id}`, { token: owner })).status, 204);
  t.equal((await server.request('DELETE', `${KEYS}/${res.body.id}`, { token: owner })).status, 204, 'revoking twice is harmless');
  const after = await server.request('GET', `/api/v1/projects/${tenant.project.id}/events`, { token: res.body.value });
  t.equal(after.status, 401, 'a revoked key stops at once');
  t.equal(after.body.error.code, 'unauthorized');
  t.equal((await server.request('GET', KEYS, { token: owner })).body.items[0].status, 'revoked');

  const audit = server.running.services.meta.prepare("SELECT action, actor_user_id FROM audit_log WHERE action LIKE 'api_key.%' ORDER BY id").all();
  t.same(audit, [
    { action: 'api_key.create', actor_user_id: tenant.owner.id },
    { action: 'api_key.revoke', actor_user_id: tenant.owner.id },
  ]);
});

t.test('every scope reaches its operations and no others', async (t) => {
  const { server, tenant, owner } = await world(t);
  const project = `/api/v1/projects/${tenant.project.id}`;
  const read = (await issue(server, owner, { name: 'read', scopes: ['read'] })).value;
  const write = (await issue(server, owner, { name: 'write', scopes: ['write'] })).value;
  const admin = (await issue(server, owner, { name: 'admin', scopes: ['admin'] })).value;
  const all = (await issue(server, owner, { name: 'all', scopes: ['read', 'write', 'admin'] })).value;

  const calls: Record<string, [string, string, unknown?]> = {
    events: ['GET', `${project}/events`],
    query: ['POST', `${project}/queries/activity-summary`, { date_to: '2026-11-01' }],
    projects: ['GET', '/api/v1/projects'],
    saveInsight: ['POST', `${project}/insights`, insight],
    ingestKeys: ['GET', `${project}/keys`],
    members: ['GET', `/api/v1/orgs/${tenant.org.id}/members`],
  };
  const statuses = async (key: string) => {
    const out: Record<string, number> = {};
    for (const [name, [method, path, body]] of Object.entries(calls)) out[name] = (await server.request(method, path, { token: key, body })).status;
    return out;
  };
  t.same(await statuses(read), { events: 200, query: 200, projects: 200, saveInsight: 403, ingestKeys: 403, members: 403 });
  t.same(await statuses(write), { events: 403, query: 403, projects: 403, saveInsight: 201, ingestKeys: 403, members: 403 });
  t.same(await statuses(admin), { events: 403, query: 403, projects: 403, saveInsight: 403, ingestKeys: 200, members: 200 });
  t.same(await statuses(all), { events: 200, query: 200, projects: 200, saveInsight: 201, ingestKeys: 200, members: 200 });
  const lacking = await server.request('POST', `${project}/insights`, { token: read, body: insight });
  t.equal(lacking.body.error.code, 'forbidden');
  t.match(lacking.body.error.message, /lacks the write scope/);
});

t.test('a key acts with its member role of the moment', async (t) => {
  const { server, tenant, owner, member } = await world(t);
  const analyst = await member('analyst');
  const key = (await issue(server, analyst.token, { name: 'notebook', scopes: ['read', 'write'] })).value;
  const insights = `/api/v1/projects/${tenant.project.id}/insights`;
  t.equal((await server.request('POST', insights, { token: key, body: insight })).status, 201);

  const demote = await server.request('PATCH', `/api/v1/orgs/${tenant.org.id}/members/${analyst.user.id}`, { token: owner, body: { role: 'viewer' } });
  t.equal(demote.status, 200);
  const refused = await server.request('POST', insights, { token: key, body: insight });
  t.equal(refused.status, 403, 'demoted: the write scope no longer helps');
  t.equal(refused.body.error.code, 'forbidden');
  t.equal((await server.request('GET', insights, { token: key })).status, 200, 'reading still works');

  await server.request('PATCH', `/api/v1/orgs/${tenant.org.id}/members/${analyst.user.id}`, { token: owner, body: { role: 'analyst' } });
  t.equal((await server.request('POST', insights, { token: key, body: insight })).status, 201, 'promoted back, the key writes again');
});

t.test('removal from the organization ends every key, for good', async (t) => {
  const { server, tenant, owner, member } = await world(t);
  const analyst = await member('analyst');
  const one = (await issue(server, analyst.token, { name: 'one', scopes: ['read'] })).value;
  const two = (await issue(server, analyst.token, { name: 'two', scopes: ['write'] })).value;
  const events = `/api/v1/projects/${tenant.project.id}/events`;
  t.equal((await server.request('GET', events, { token: one })).status, 200);

  t.equal((await server.request('DELETE', `/api/v1/orgs/${tenant.org.id}/members/${analyst.user.id}`, { token: owner })).status, 204);
  t.equal((await server.request('GET', events, { token: one })).status, 401);
  t.equal((await server.request('GET', `/api/v1/projects/${tenant.project.id}/insights`, { token: two })).status, 401);

  server.running.services.meta.prepare("INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'analyst', ?)").run(tenant.org.id, analyst.user.id, server.clock.now().toISOString());
  t.equal((await server.request('GET', events, { token: one })).status, 401, 'a member who comes back does not find old keys alive');
});

t.test('expiry and project restriction', async (t) => {
  const { server, tenant, owner } = await world(t);
  const second = await server.request('POST', '/api/v1/projects', { token: owner, body: { name: 'Second' } });
  t.equal(second.status, 201);
  const inAnHour = new Date(server.clock.now().getTime() + 60 * MINUTE).toISOString();
  const key = (await issue(server, owner, { name: 'short', scopes: ['read'], project_id: tenant.project.id, expires_at: inAnHour })).value;

  t.equal((await server.request('GET', `/api/v1/projects/${tenant.project.id}/events`, { token: key })).status, 200);
  t.equal((await server.request('GET', `/api/v1/projects/${second.body.id}/events`, { token: key })).status, 404, 'another project of the organization');
  const wide = await server.request('GET', '/api/v1/projects', { token: key });
  t.equal(wide.status, 403, 'organization-wide operations are out of reach');
  t.match(wide.body.error.message, /restricted to project/);

  server.clock.advance(60 * MINUTE);
  const expired = await server.request('GET', `/api/v1/projects/${tenant.project.id}/events`, { token: key });
  t.equal(expired.status, 401);
  const fresh = await accessTokenFor(server, tenant.owner, tenant.org);
  t.equal((await server.request('GET', KEYS, { token: fresh })).body.items[0].status, 'expired');
});

t.test('never on ingestion, sign-in, the own account or key management', async (t) => {
  const { server, tenant, owner } = await world(t);
  const key = (await issue(server, owner, { name: 'all', scopes: ['read', 'write', 'admin'] })).value;
  createIngestKey(server, tenant.project);
  const track = await server.request('POST', '/v1/track', { token: key, body: { events: [{ event: 'x', anonymous_id: 'a' }] } });
  t.equal(track.status, 401, 'ingestion');
  t.equal(track.body.error.code, 'unauthorized');
  for (const [method, path, body] of [
    ['GET', '/api/v1/me', undefined],
    ['GET', KEYS, undefined],
    ['POST', KEYS, { name: 'child', scopes: ['read'] }],
    ['GET', '/api/v1/me/sessions', undefined],
    ['POST', '/api/v1/me/password', { current_password: 'x', new_password: 'y' }],
    ['POST', '/api/v1/me/mfa/setup', undefined],
    ['GET', `/api/v1/orgs/${tenant.org.id}/oidc`, undefined],
  ] as const) {
    const res = await server.request(method, path, { token: key, body });
    t.equal(res.status, 401, `${method} ${path}`);
  }
  const refresh = await server.request('POST', '/api/v1/auth/refresh', { token: key });
  t.equal(refresh.status, 401, 'refresh reads the cookie only');
});

t.test('each key has its own request budget, and last use is written at most once a minute', async (t) => {
  const { server, tenant, owner } = await world(t, { 'rate_limit.api_key_per_minute': 3 });
  const one = await issue(server, owner, { name: 'one', scopes: ['read'] });
  const two = await issue(server, owner, { name: 'two', scopes: ['read'] });
  const events = `/api/v1/projects/${tenant.project.id}/events`;
  for (let i = 0; i < 3; i++) t.equal((await server.request('GET', events, { token: one.value })).status, 200);
  const limited = await server.request('GET', events, { token: one.value });
  t.equal(limited.status, 429);
  t.equal(limited.body.error.code, 'rate_limited');
  t.ok(Number(limited.headers.get('retry-after')) > 0);
  t.equal((await server.request('GET', events, { token: two.value })).status, 200, 'another key keeps its budget');

  const lastUse = () => (server.running.services.meta.prepare('SELECT last_used_at FROM personal_api_keys WHERE id = ?').get(two.id) as { last_used_at: string }).last_used_at;
  const first = lastUse();
  t.equal(first, server.clock.now().toISOString());
  server.clock.advance(30_000);
  await server.request('GET', events, { token: two.value });
  t.equal(lastUse(), first, 'within the minute nothing is written');
  server.clock.advance(31_000);
  await server.request('GET', events, { token: two.value });
  t.equal(lastUse(), server.clock.now().toISOString(), 'a minute on, the use is noted');
  const listed = await server.request('GET', KEYS, { token: owner });
  t.equal(listed.body.items.find((k: any) => k.id === two.id).last_used_at, lastUse());
});
