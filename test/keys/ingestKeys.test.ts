// Ingestion key management over HTTP: issue, list, rotate, revoke (admin or owner), in the order
// 401 → 422 → 403 → 404 → success, and what is (not) stored.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createLegacyKey, ingestEvents } from '../support/ingest.js';

const DAY = 86_400_000;

t.test('ingestion keys', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const other = await createTenant(server);
  let ownerToken = await accessTokenFor(server, owner, org);
  const adminToken = await accessTokenFor(server, await addMember(server, org, 'admin'), org);
  const analyst = await addMember(server, org, 'analyst');
  let analystToken = await accessTokenFor(server, analyst, org);
  const path = `/api/v1/projects/${project.id}/keys`;
  const inDays = (n: number) => new Date(server.clock.now().getTime() + n * DAY).toISOString();
  const browserBody = { type: 'browser', name: 'Site', domains: ['Shop.Example.', '*.example.com'], expires_at: inDays(90) };

  t.test('issue: 401, then 422 with exact messages, 403, 404', async (t) => {
    t.equal((await server.request('POST', path, { body: browserBody })).status, 401);
    const invalid: Array<[Record<string, unknown>, string, string]> = [
      [{ type: 'browser', name: 'b', expires_at: inDays(1) }, 'domains: a browser token needs at least one domain', 'domains'],
      [{ type: 'browser', name: 'b', domains: ['a.example'] }, 'expires_at: a browser token needs an expiry', 'expires_at'],
      [{ type: 'browser', name: 'b', domains: ['https://a.example/'], expires_at: inDays(1) }, 'domains[0]: must be a host name like example.com, or *.example.com for its subdomains', 'domains[0]'],
      [{ type: 'browser', name: 'b', domains: ['*.com'], expires_at: inDays(1) }, 'domains[0]: must be a host name like example.com, or *.example.com for its subdomains', 'domains[0]'],
      [{ type: 'browser', name: 'b', domains: ['a.example'], expires_at: '2020-01-01T00:00:00Z' }, 'expires_at: must be in the future', 'expires_at'],
      [{ type: 'server', name: 's', domains: ['a.example'] }, 'domains: domains apply only to browser tokens', 'domains'],
      [{ type: 'server', name: 's', scopes: ['events:write', 'replay:write'] }, 'scopes: replay:write is not available to server keys', 'scopes'],
      [{ type: 'legacy', name: 's' }, 'invalid request body: type must be one of "browser", "server"', 'type'],
      [{ type: 'server', name: 's', scopes: ['admin'] }, 'invalid request body: scopes[0] must be one of "events:write", "identify:write", "replay:write", "capture:write"', 'scopes[0]'],
      [{ type: 'server' }, 'invalid request body: name is required', 'name'],
      [{ type: 'server', name: 's', value: 'pp_sk_mine' }, 'invalid request body: value is not a known field', 'value'],
    ];
    for (const [body, message, field] of invalid) {
      const res = await server.request('POST', path, { token: ownerToken, body });
      t.equal(res.status, 422, message);
      t.equal(res.body.error.message, message);
      t.equal(res.body.error.details.field, field);
    }
    const analyst = await server.request('POST', path, { token: analystToken, body: browserBody });
    t.equal(analyst.status, 403);
    t.equal(analyst.body.error.code, 'forbidden');
    t.equal((await server.request('POST', `/api/v1/projects/${other.project.id}/keys`, { token: ownerToken, body: browserBody })).status, 404);
    t.equal((await server.request('POST', '/api/v1/projects/999999/keys', { token: ownerToken, body: browserBody })).status, 404);
  });

  let browserKey: any;
  let serverKey: any;

  t.test('issue: a browser token and a server key, values shown once, only hashes kept', async (t) => {
    const res = await server.request('POST', path, { token: adminToken, body: browserBody });
    t.equal(res.status, 201);
    t.equal(res.headers.get('cache-control'), 'no-store');
    browserKey = res.body;
    t.match(browserKey.value, /^pp_bt_[A-Za-z0-9]{8}[A-Za-z0-9]{32}$/);
    t.match(browserKey, {
      type: 'browser',
      name: 'Site',
      prefix: browserKey.value.slice(6, 14),
      domains: ['shop.example', '*.example.com'],
      expires_at: browserBody.expires_at,
      scopes: ['events:write', 'identify:write', 'replay:write', 'capture:write'],
      status: 'active',
      linking_split: true,
      rotated_from: null,
      revoked_at: null,
    });
    const srv = await server.request('POST', path, { token: ownerToken, body: { type: 'server', name: 'Backend' } });
    t.equal(srv.status, 201);
    serverKey = srv.body;
    t.match(serverKey.value, /^pp_sk_[A-Za-z0-9]{40}$/);
    t.match(serverKey, { expires_at: null, domains: [], scopes: ['events:write', 'identify:write'] });

    const rows = server.running.services.meta.prepare('SELECT * FROM ingest_keys WHERE project_id = ?').all(project.id) as Array<Record<string, unknown>>;
    const dump = JSON.stringify(rows);
    t.notOk(dump.includes(browserKey.value.slice(14)), 'the secret is not stored');
    t.notOk(dump.includes(serverKey.value.slice(14)), 'the secret is not stored');
    t.ok(
      rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.secret_hash))),
      'an HMAC-SHA256 per key',
    );

    const sent = await ingestEvents(server, serverKey.value, [{ event: 'works', anonymous_id: 'a' }]);
    t.equal(sent.status, 202);
  });

  t.test('list: every key without its value, newest first', async (t) => {
    t.equal((await server.request('GET', path)).status, 401);
    t.equal((await server.request('GET', path, { token: analystToken })).status, 403);
    t.equal((await server.request('GET', `/api/v1/projects/${other.project.id}/keys`, { token: ownerToken })).status, 404);
    const res = await server.request('GET', path, { token: ownerToken });
    t.equal(res.status, 200);
    t.same(
      res.body.items.map((k: any) => k.id),
      [serverKey.id, browserKey.id],
    );
    t.equal(res.body.next_cursor, null);
    t.notOk(res.text.includes('pp_sk_') || res.text.includes('pp_bt_'), 'no values in the list');
  });

  t.test('rotate: a new value, the old one revoked, the lifetime not extended', async (t) => {
    const rotatePath = `${path}/${browserKey.id}/rotate`;
    t.equal((await server.request('POST', rotatePath)).status, 401);
    const typeChange = await server.request('POST', rotatePath, { token: ownerToken, body: { type: 'server' } });
    t.equal(typeChange.status, 422);
    t.equal(typeChange.body.error.message, 'type: a key keeps its type when rotated');
    t.equal((await server.request('POST', rotatePath, { token: analystToken })).status, 403);
    t.equal((await server.request('POST', `${path}/999999/rotate`, { token: ownerToken })).status, 404);
    t.equal((await server.request('POST', `/api/v1/projects/${other.project.id}/keys/${browserKey.id}/rotate`, { token: ownerToken })).status, 404);

    server.clock.advance(10 * DAY);
    // Access tokens live 15 minutes: sign in again after the jump.
    ownerToken = await accessTokenFor(server, owner, org);
    analystToken = await accessTokenFor(server, analyst, org);
    const res = await server.request('POST', rotatePath, { token: ownerToken });
    t.equal(res.status, 201);
    t.not(res.body.value, browserKey.value);
    t.not(res.body.prefix, browserKey.prefix);
    t.match(res.body, { type: 'browser', name: 'Site', domains: ['shop.example', '*.example.com'], rotated_from: browserKey.id, status: 'active' });
    t.equal(res.body.expires_at, new Date(server.clock.now().getTime() + 90 * DAY).toISOString(), 'the old 90-day lifetime, counted from now');
    const list = (await server.request('GET', path, { token: ownerToken })).body.items;
    t.match(
      list.find((k: any) => k.id === browserKey.id),
      { status: 'revoked' },
    );
    const origin = { origin: 'https://shop.example' };
    t.equal((await ingestEvents(server, browserKey.value, [{ event: 'x', anonymous_id: 'a' }], { headers: origin })).status, 401, 'old value refused');
    t.equal((await ingestEvents(server, res.body.value, [{ event: 'x', anonymous_id: 'a' }], { headers: origin })).status, 202, 'new value works');

    const again = await server.request('POST', rotatePath, { token: ownerToken });
    t.equal(again.status, 409);
    t.equal(again.body.error.code, 'key_revoked');
  });

  t.test('rotate a legacy key: the replacement names its type and may identify', async (t) => {
    const legacy = createLegacyKey(server, project);
    const rotatePath = `${path}/${legacy.id}/rotate`;
    const missing = await server.request('POST', rotatePath, { token: ownerToken });
    t.equal(missing.status, 422);
    t.equal(missing.body.error.message, 'type: rotating a legacy key needs the type of its replacement (browser or server)');
    const res = await server.request('POST', rotatePath, { token: ownerToken, body: { type: 'server' } });
    t.equal(res.status, 201);
    t.match(res.body, { type: 'server', linking_split: true, scopes: ['events:write', 'identify:write'], expires_at: null });
    const identify = await server.request('POST', '/v1/identify', { token: res.body.value, body: { anonymous_id: 'a', user_id: 'u' } });
    t.equal(identify.status, 202);
  });

  t.test('revoke: 204, idempotent, then the key is refused', async (t) => {
    const keyPath = `${path}/${serverKey.id}`;
    t.equal((await server.request('DELETE', keyPath)).status, 401);
    t.equal((await server.request('DELETE', keyPath, { token: analystToken })).status, 403);
    t.equal((await server.request('DELETE', `${path}/424242`, { token: ownerToken })).status, 404);
    t.equal((await server.request('DELETE', `/api/v1/projects/${other.project.id}/keys/${serverKey.id}`, { token: ownerToken })).status, 404);
    t.equal((await server.request('DELETE', keyPath, { token: ownerToken })).status, 204);
    t.equal((await server.request('DELETE', keyPath, { token: ownerToken })).status, 204);
    t.equal((await ingestEvents(server, serverKey.value, [{ event: 'x', anonymous_id: 'a' }])).status, 401);
    const bad = await server.request('DELETE', `${path}/abc`, { token: ownerToken });
    t.equal(bad.status, 400);
  });
});
