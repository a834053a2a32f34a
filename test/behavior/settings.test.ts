// Behavior settings (GET viewer+, PATCH admin+) and the public collection configuration a
// tracker reads by its key prefix.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, createLegacyKey } from '../support/ingest.js';
import { revokeIngestKey } from '../../server/keys/ingestKeys.js';

const DEFAULTS = {
  autocapture_clicks: false,
  autocapture_hover_intent: false,
  autocapture_sections: false,
  autocapture_scroll: false,
  autocapture_forms: false,
  privacy_mode: 'strict',
  replay_enabled: false,
  replay_sample_rate: 1,
  diagnostics_enabled: false,
  url_query_strip: true,
  url_query_allowlist: [],
  store_client_address: false,
  updated_at: null,
};

t.test('behavior settings', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const other = await createTenant(server);
  const ownerToken = await accessTokenFor(server, owner, org);
  const viewerToken = await accessTokenFor(server, await addMember(server, org, 'viewer'), org);
  const analystToken = await accessTokenFor(server, await addMember(server, org, 'analyst'), org);
  const path = `/api/v1/projects/${project.id}/behavior/settings`;
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });

  t.test('GET: 401, 404, then strict disabled defaults for a viewer', async (t) => {
    t.equal((await server.request('GET', path)).status, 401);
    t.equal((await server.request('GET', `/api/v1/projects/${other.project.id}/behavior/settings`, { token: viewerToken })).status, 404);
    const res = await server.request('GET', path, { token: viewerToken });
    t.equal(res.status, 200);
    t.same(res.body, DEFAULTS);
  });

  t.test('public configuration of an untouched project: strict, nothing collected', async (t) => {
    const res = await server.request('GET', `/v1/config/${browser.prefix}`, { headers: { origin: 'https://shop.example' } });
    t.equal(res.status, 200);
    t.same(res.body, { privacy_mode: 'strict', collect: [] });
    t.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
    t.match(res.headers.get('cache-control'), /max-age=60/);
  });

  t.test('PATCH: 401 → 422 → 403 → 404', async (t) => {
    t.equal((await server.request('PATCH', path, { body: { autocapture_clicks: true } })).status, 401);
    const cases: Array<[unknown, string]> = [
      [{ autocapture_taps: true }, 'invalid request body: autocapture_taps is not a known field'],
      [{ replay_sample_rate: 1.5 }, 'invalid request body: replay_sample_rate must be <= 1'],
      [{ replay_sample_rate: -0.1 }, 'invalid request body: replay_sample_rate must be >= 0'],
      [{ privacy_mode: 'loose' }, 'invalid request body: privacy_mode must be one of "standard", "strict"'],
      [{ autocapture_clicks: 'yes' }, 'invalid request body: autocapture_clicks must be boolean'],
      [{ url_query_strip: 'no' }, 'invalid request body: url_query_strip must be boolean'],
      [{ url_query_allowlist: 'page' }, 'invalid request body: url_query_allowlist must be array'],
      [{ url_query_allowlist: Array.from({ length: 51 }, (_, i) => `p${i}`) }, 'invalid request body: url_query_allowlist must NOT have more than 50 items'],
      [{ url_query_allowlist: ['page', 'x'.repeat(101)] }, 'invalid request body: url_query_allowlist[1] must NOT have more than 100 characters'],
      [{ url_query_allowlist: [''] }, 'invalid request body: url_query_allowlist[0] must NOT have fewer than 1 characters'],
      [{ url_query_allowlist: [3] }, 'invalid request body: url_query_allowlist[0] must be string'],
      [{ url_query_allowlist: ['page', 'page=2'] }, 'url_query_allowlist[1] "page=2" must be a parameter name, without "="'],
      [{ url_query_allowlist: ['a&b'] }, 'url_query_allowlist[0] "a&b" must be a parameter name, without "&"'],
      [{ url_query_allowlist: ['#x'] }, 'url_query_allowlist[0] "#x" must be a parameter name, without "#"'],
      [{ url_query_allowlist: [' page'] }, 'url_query_allowlist[0] " page" must not be empty or start or end with a space'],
      [{ url_query_allowlist: ['page', 'q', 'page'] }, 'url_query_allowlist[2] "page" is listed twice'],
    ];
    for (const [body, message] of cases) {
      const res = await server.request('PATCH', path, { token: ownerToken, body });
      t.equal(res.status, 422, message);
      t.equal(res.body.error.message, message);
      t.match(res.body.error.details.field, Object.keys(body as object)[0]!, 'the field is named');
    }
    t.same((await server.request('GET', path, { token: ownerToken })).body, DEFAULTS, 'a refused patch changes nothing');
    t.equal((await server.request('PATCH', path, { token: analystToken, body: { autocapture_clicks: true } })).status, 403);
    t.equal((await server.request('PATCH', `/api/v1/projects/${other.project.id}/behavior/settings`, { token: ownerToken, body: {} })).status, 404);
  });

  t.test("PATCH: any subset, the rest kept; concurrent patches keep each other's fields", async (t) => {
    const res = await server.request('PATCH', path, { token: ownerToken, body: { autocapture_clicks: true, privacy_mode: 'standard' } });
    t.equal(res.status, 200);
    t.same(res.body, { ...DEFAULTS, autocapture_clicks: true, privacy_mode: 'standard', updated_at: server.clock.now().toISOString() });
    await Promise.all([
      server.request('PATCH', path, { token: ownerToken, body: { autocapture_scroll: true } }),
      server.request('PATCH', path, { token: ownerToken, body: { replay_enabled: true, replay_sample_rate: 0.25 } }),
      server.request('PATCH', path, { token: ownerToken, body: { diagnostics_enabled: true } }),
    ]);
    const after = await server.request('GET', path, { token: viewerToken });
    t.match(after.body, {
      autocapture_clicks: true,
      autocapture_scroll: true,
      replay_enabled: true,
      replay_sample_rate: 0.25,
      diagnostics_enabled: true,
      privacy_mode: 'standard',
      autocapture_forms: false,
    });
  });

  t.test('the query allow-list: round trip, order kept, replaced whole, emptied', async (t) => {
    const names = ['page', 'q', 'a b', 'ü', 'x'.repeat(100), ...Array.from({ length: 45 }, (_, i) => `n${i}`)];
    const set = await server.request('PATCH', path, { token: ownerToken, body: { url_query_allowlist: names } });
    t.equal(set.status, 200);
    t.same(set.body.url_query_allowlist, names);
    t.same((await server.request('GET', path, { token: viewerToken })).body.url_query_allowlist, names, 'as a viewer reads it');
    await server.request('PATCH', path, { token: ownerToken, body: { url_query_strip: false } });
    t.match((await server.request('GET', path, { token: viewerToken })).body, { url_query_strip: false, url_query_allowlist: names }, 'another field leaves it');
    await server.request('PATCH', path, { token: ownerToken, body: { url_query_strip: true, url_query_allowlist: ['page'] } });
    t.match((await server.request('GET', path, { token: viewerToken })).body, { url_query_strip: true, url_query_allowlist: ['page'] }, 'replaced whole');
    t.equal((await server.request('PATCH', path, { token: analystToken, body: { url_query_allowlist: [] } })).status, 403);
    await server.request('PATCH', path, { token: ownerToken, body: { url_query_allowlist: [] } });
    t.same((await server.request('GET', path, { token: viewerToken })).body.url_query_allowlist, [], 'emptied');
  });

  t.test('public configuration lists only enabled kinds, and the rate only with replay', async (t) => {
    const res = await server.request('GET', `/v1/config/${browser.prefix}`);
    t.same(res.body, { privacy_mode: 'standard', collect: ['clicks', 'scroll', 'replay', 'diagnostics'], replay_sample_rate: 0.25 });
    await server.request('PATCH', path, { token: ownerToken, body: { replay_enabled: false } });
    t.same((await server.request('GET', `/v1/config/${browser.prefix}`)).body, { privacy_mode: 'standard', collect: ['clicks', 'scroll', 'diagnostics'] });
    const legacy = createLegacyKey(server, project);
    t.equal((await server.request('GET', `/v1/config/${legacy.prefix}`)).status, 200, 'legacy keys are served too');
  });

  t.test('public configuration: 404 for unknown, server, revoked and expired prefixes', async (t) => {
    const serverKey = createIngestKey(server, project);
    const revoked = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
    revokeIngestKey(server.running.services, project.id, revoked.id);
    const expiring = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'], expiresAt: new Date(server.clock.now().getTime() + 1000) });
    server.clock.advance(2000);
    for (const prefix of ['ZZZZZZZZ', serverKey.prefix, revoked.prefix, expiring.prefix, 'x'.repeat(64)]) {
      const res = await server.request('GET', `/v1/config/${prefix}`);
      t.equal(res.status, 404, prefix);
      t.equal(res.body.error.code, 'not_found');
    }
  });
});
