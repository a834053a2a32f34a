// Release tokens (admin+) and the deploy marker they exist for, with the idempotency table of the
// spec: 201 new, 200 + Idempotency-Replayed for the same key and body, 409 for another body.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, createReleaseToken } from '../support/ingest.js';
import { listDeployMarkers } from '../../server/keys/deployMarkers.js';

t.test('release tokens', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const other = await createTenant(server);
  const ownerToken = await accessTokenFor(server, owner, org);
  const analystToken = await accessTokenFor(server, await addMember(server, org, 'analyst'), org);
  const path = `/api/v1/projects/${project.id}/release-tokens`;

  let issued: any;
  t.test('issue: 401 → 422 → 403 → 404 → 201 with the value once', async (t) => {
    t.equal((await server.request('POST', path, { body: { name: 'ci' } })).status, 401);
    const invalid = await server.request('POST', path, { token: ownerToken, body: {} });
    t.equal(invalid.status, 422);
    t.equal(invalid.body.error.message, 'invalid request body: name is required');
    t.equal((await server.request('POST', path, { token: analystToken, body: { name: 'ci' } })).status, 403);
    t.equal((await server.request('POST', `/api/v1/projects/${other.project.id}/release-tokens`, { token: ownerToken, body: { name: 'ci' } })).status, 404);
    const res = await server.request('POST', path, { token: ownerToken, body: { name: 'ci' } });
    t.equal(res.status, 201);
    t.equal(res.headers.get('cache-control'), 'no-store');
    issued = res.body;
    t.match(issued.value, /^pp_rel_[A-Za-z0-9]{40}$/);
    t.match(issued, { name: 'ci', scope: 'release_markers:write', status: 'active', prefix: issued.value.slice(7, 15) });
    const list = await server.request('GET', path, { token: ownerToken });
    t.same(
      list.body.items.map((x: any) => x.id),
      [issued.id],
    );
    t.notOk(list.text.includes(issued.value));
    t.equal((await server.request('GET', path, { token: analystToken })).status, 403);
  });

  t.test('deploy marker', async (t) => {
    const deploy = `/api/v1/projects/${project.id}/release-markers/deploy`;
    const body = { release: 'v2.4.0', environment: 'production', commit: 'abc1234', deployed_at: '2026-11-02T11:00:00Z', url: 'https://ci.example/run/9', description: 'fix checkout' };
    const send = (b: unknown, key: string | undefined, token = issued.value as string, p = deploy) =>
      server.request('POST', p, { token, body: b, headers: key === undefined ? {} : { 'idempotency-key': key } });

    t.test('401 for every credential but a live release token', async (t) => {
      t.equal((await send(body, 'key-00001', '')).status, 401);
      t.equal((await send(body, 'key-00001', ownerToken)).status, 401, 'an access token');
      t.equal((await send(body, 'key-00001', createIngestKey(server, project).value)).status, 401, 'an ingestion key');
    });

    t.test('422: Idempotency-Key and body', async (t) => {
      const missing = await send(body, undefined);
      t.equal(missing.status, 422);
      t.equal(missing.body.error.message, 'the Idempotency-Key header is required');
      for (const bad of ['short', 'has space 123', 'has,comma123', 'x'.repeat(129), 'tab\there123']) {
        const res = await send(body, bad);
        t.equal(res.status, 422, JSON.stringify(bad));
        t.equal(res.body.error.message, 'Idempotency-Key must be 8 to 128 printable characters without spaces or commas');
      }
      const noRelease = await send({ environment: 'x' }, 'key-00002');
      t.equal(noRelease.status, 422);
      t.equal(noRelease.body.error.message, 'invalid request body: release is required');
      t.equal((await send(body, 'x'.repeat(128))).status, 201, '128 characters are fine');
    });

    t.test("404 for a project that is not the token's", async (t) => {
      const res = await send(body, 'key-00003', issued.value, `/api/v1/projects/${other.project.id}/release-markers/deploy`);
      t.equal(res.status, 404);
    });

    t.test('201 new, 200 replayed for the same body, 409 for another', async (t) => {
      const created = await send(body, 'deploy-2026-11-02');
      t.equal(created.status, 201);
      t.equal(created.headers.get('idempotency-replayed'), null);
      t.match(created.body, { release: 'v2.4.0', environment: 'production', commit: 'abc1234', deployed_at: '2026-11-02T11:00:00.000Z', url: 'https://ci.example/run/9', description: 'fix checkout' });
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const replay = await send(reordered, 'deploy-2026-11-02');
      t.equal(replay.status, 200);
      t.equal(replay.headers.get('idempotency-replayed'), 'true');
      t.same(replay.body, created.body);
      const conflict = await send({ ...body, commit: 'def5678' }, 'deploy-2026-11-02');
      t.equal(conflict.status, 409);
      t.equal(conflict.body.error.code, 'idempotency_conflict');
      const second = await send({ release: 'v2.4.1' }, 'deploy-2026-11-03');
      t.equal(second.status, 201);
      t.equal(second.body.deployed_at, server.clock.now().toISOString(), 'deployed_at defaults to now');
      const markers = listDeployMarkers(server.running.services.meta, project.id);
      t.same(
        markers.map((m) => m.release),
        ['v2.4.0', 'v2.4.0', 'v2.4.1'],
        'the 128-character key, this one, and the second, by deploy time',
      );
    });

    t.test('revocation is immediate', async (t) => {
      const token = createReleaseToken(server, project);
      t.equal((await send({ release: 'v3' }, 'revoke-0001', token.value)).status, 201);
      t.equal((await server.request('DELETE', `${path}/${token.id}`)).status, 401);
      t.equal((await server.request('DELETE', `${path}/${token.id}`, { token: analystToken })).status, 403);
      t.equal((await server.request('DELETE', `${path}/999999`, { token: ownerToken })).status, 404);
      t.equal((await server.request('DELETE', `${path}/${token.id}`, { token: ownerToken })).status, 204);
      t.equal((await send({ release: 'v3' }, 'revoke-0002', token.value)).status, 401);
    });
  });
});
