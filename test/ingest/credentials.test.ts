// The wrong-credential matrix of the spec, walked row by row over both surfaces, plus the
// domain rules of browser tokens. Every 401 carries the same message and no response body
// repeats a key value or a domain.

import t from 'tap';
import { startTestServer, type HttpResult } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, createLegacyKey, createReleaseToken, readTable } from '../support/ingest.js';
import { revokeIngestKey } from '../../server/keys/ingestKeys.js';
import { revokeReleaseToken } from '../../server/keys/releaseTokens.js';

const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'authentication required', details: {} } };
const event = { event: 'e', anonymous_id: 'a' };
const trackBody = { events: [event] };

t.test('wrong-credential matrix', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const other = await createTenant(server);
  const viewer = await addMember(server, org, 'viewer');
  const ownerToken = await accessTokenFor(server, owner, org);
  const viewerToken = await accessTokenFor(server, viewer, org);
  const serverKey = createIngestKey(server, project);
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example', '*.example.com'] });
  const eventsOnly = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'], scopes: ['events:write'] });
  const legacy = createLegacyKey(server, project);
  const release = createReleaseToken(server, project);
  const fromShop = { origin: 'https://shop.example' };
  const secrets = [serverKey, browser, eventsOnly, legacy, release].map((k) => k.value);
  const seen: HttpResult[] = [];
  const call = async (method: string, path: string, options: Parameters<typeof server.request>[2] = {}) => {
    const res = await server.request(method, path, options);
    seen.push(res);
    return res;
  };
  const keysPath = `/api/v1/projects/${project.id}/keys`;

  t.test('nothing → main API: 401', async (t) => {
    t.same((await call('GET', keysPath)).body, UNAUTHORIZED);
  });

  t.test('ingestion key → main API: 401', async (t) => {
    for (const k of [serverKey, browser, legacy]) t.same((await call('GET', keysPath, { token: k.value })).body, UNAUTHORIZED);
  });

  t.test('access token → ingestion: 401', async (t) => {
    t.same((await call('POST', '/v1/track', { token: ownerToken, body: trackBody })).body, UNAUTHORIZED);
    t.same((await call('POST', '/v1/identify', { token: ownerToken, body: { anonymous_id: 'a', user_id: 'u' } })).body, UNAUTHORIZED);
  });

  t.test('release token → anything but the deploy marker: 401', async (t) => {
    t.same((await call('GET', keysPath, { token: release.value })).body, UNAUTHORIZED);
    for (const path of ['/v1/track', '/v1/identify', '/v1/alias', '/v1/replay', '/v1/capture']) {
      t.same((await call('POST', path, { token: release.value, body: {} })).body, UNAUTHORIZED, path);
    }
    t.same((await call('POST', '/v1/track', { body: { ...trackBody, credential: release.value } })).body, UNAUTHORIZED);
    t.equal(
      (await call('POST', `/api/v1/projects/${project.id}/release-markers/deploy`, { token: release.value, body: { release: 'v1' }, headers: { 'idempotency-key': 'deploy-0001' } })).status,
      201,
    );
  });

  t.test('browser or server key in ?key=: 401', async (t) => {
    for (const k of [serverKey, browser]) {
      t.same((await call('POST', `/v1/track?key=${k.value}`, { body: trackBody, headers: fromShop })).body, UNAUTHORIZED);
    }
  });

  t.test('non-browser token in `credential`: 401', async (t) => {
    for (const k of [serverKey, legacy]) t.same((await call('POST', '/v1/track', { body: { ...trackBody, credential: k.value } })).body, UNAUTHORIZED);
    // Only track and replay read `credential`; elsewhere it is no credential at all.
    t.same((await call('POST', '/v1/identify', { body: { anonymous_id: 'a', user_id: 'u', credential: browser.value }, headers: fromShop })).body, UNAUTHORIZED);
  });

  t.test('malformed, unknown, doubled credentials: 401', async (t) => {
    const wrongSecret = serverKey.value.slice(0, -1) + (serverKey.value.endsWith('A') ? 'B' : 'A');
    const unknown = `pp_sk_ZZZZZZZZ${'a'.repeat(32)}`;
    const typeSwapped = browser.value.replace('pp_bt_', 'pp_sk_');
    for (const token of [wrongSecret, unknown, typeSwapped, 'pp_sk_short', 'garbage']) {
      t.same((await call('POST', '/v1/track', { token, body: trackBody, headers: fromShop })).body, UNAUTHORIZED, token.slice(0, 12));
    }
    t.same((await call('POST', '/v1/track', { body: trackBody, headers: { authorization: `Basic ${serverKey.value}` } })).body, UNAUTHORIZED);
    t.same((await call('POST', '/v1/track', { token: browser.value, body: { ...trackBody, credential: browser.value }, headers: fromShop })).body, UNAUTHORIZED);
    t.same((await call('POST', `/v1/track?key=${legacy.value}&key=${legacy.value}`, { body: trackBody })).body, UNAUTHORIZED);
    t.same((await call('POST', '/v1/track', { body: { ...trackBody, credential: 42 } })).body, UNAUTHORIZED);
  });

  t.test('expired or revoked key or token: 401 on either surface', async (t) => {
    const shortLived = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'], expiresAt: new Date(server.clock.now().getTime() + 60_000) });
    t.equal((await call('POST', '/v1/track', { token: shortLived.value, body: trackBody, headers: fromShop })).status, 202);
    server.clock.advance(61_000);
    t.same((await call('POST', '/v1/track', { token: shortLived.value, body: trackBody, headers: fromShop })).body, UNAUTHORIZED);

    const doomed = createIngestKey(server, project);
    revokeIngestKey(server.running.services, project.id, doomed.id);
    t.same((await call('POST', '/v1/track', { token: doomed.value, body: trackBody })).body, UNAUTHORIZED);

    const doomedRelease = createReleaseToken(server, project);
    revokeReleaseToken(server.running.services, project.id, doomedRelease.id);
    t.same(
      (await call('POST', `/api/v1/projects/${project.id}/release-markers/deploy`, { token: doomedRelease.value, body: { release: 'v1' }, headers: { 'idempotency-key': 'deploy-0002' } })).body,
      UNAUTHORIZED,
    );

    const staleAccess = await accessTokenFor(server, owner, org);
    server.clock.advance(15 * 60_000 + 1000);
    t.same((await call('GET', keysPath, { token: staleAccess })).body, UNAUTHORIZED);
  });

  t.test('right format, wrong type or scope: 403 credential_scope_forbidden', async (t) => {
    const cases: Array<[string, string, unknown, Record<string, string>]> = [
      // A server key may not send recordings or captures (type).
      ['/v1/replay', serverKey.value, { session_id: 's', anonymous_id: 'a', seq: 0, events: [{}] }, {}],
      ['/v1/capture', serverKey.value, {}, {}],
      // A browser token holding only events:write (scope).
      ['/v1/identify', eventsOnly.value, { anonymous_id: 'a', user_id: 'u' }, fromShop],
      ['/v1/alias', eventsOnly.value, { previous_id: 'a', user_id: 'u' }, fromShop],
      ['/v1/replay', eventsOnly.value, {}, fromShop],
    ];
    for (const [path, token, body, headers] of cases) {
      const res = await call('POST', path, { token, body, headers });
      t.equal(res.status, 403, path);
      t.equal(res.body.error.code, 'credential_scope_forbidden');
    }
  });

  t.test('browser token from a domain outside its list: 403 credential_origin_forbidden', async (t) => {
    const allowed = ['https://shop.example', 'https://www.example.com', 'https://a.b.example.com:8443', 'http://SHOP.example'];
    for (const origin of allowed) t.equal((await call('POST', '/v1/track', { token: browser.value, body: trackBody, headers: { origin } })).status, 202, origin);
    t.equal((await call('POST', '/v1/track', { token: browser.value, body: trackBody, headers: { referer: 'https://shop.example/page?x=1' } })).status, 202, 'Referer when there is no Origin');
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'https://example.com' }, // *.example.com covers subdomains only
      { origin: 'https://shop.example.evil.com' },
      { origin: 'https://notexample.com' },
      { origin: 'null' },
      { origin: 'https://evil.example', referer: 'https://shop.example/' }, // Origin wins over Referer
      {},
    ];
    for (const headers of refused) {
      const res = await call('POST', '/v1/track', { token: browser.value, body: trackBody, headers });
      t.equal(res.status, 403, JSON.stringify(headers));
      t.equal(res.body.error.code, 'credential_origin_forbidden');
      t.notMatch(res.text, /evil|example/, 'the body does not name a domain');
    }
    // The 403 does not wait for its doctor record; give the writer a moment.
    let records: Array<Record<string, any>> = [];
    for (let i = 0; i < 100 && records.length < refused.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      records = await readTable(server, `SELECT code, key_id, message FROM ingest_rejections WHERE code = 'credential_origin_forbidden'`);
    }
    t.equal(records.length, refused.length, 'origin refusals are recorded for the doctor');
    t.equal(records[0]!.key_id, browser.prefix);
  });

  t.test('key issued before the linking split: 403 credential_rotation_required on identify and alias', async (t) => {
    const identify = await call('POST', '/v1/identify', { token: legacy.value, body: { anonymous_id: 'a', user_id: 'u' } });
    t.equal(identify.status, 403);
    t.equal(identify.body.error.code, 'credential_rotation_required');
    const viaQuery = await call('POST', `/v1/alias?key=${legacy.value}`, { body: { previous_id: 'a', user_id: 'u' } });
    t.equal(viaQuery.status, 403);
    t.equal(viaQuery.body.error.code, 'credential_rotation_required');
    t.equal((await call('POST', '/v1/track', { token: legacy.value, body: trackBody })).status, 202, 'the same key still tracks');
  });

  t.test('access token without the role: 403 forbidden; for another project: 404', async (t) => {
    const fresh = await accessTokenFor(server, viewer, org);
    const res = await call('POST', keysPath, { token: fresh, body: { type: 'server', name: 'x' } });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'forbidden');
    const owner2 = await accessTokenFor(server, owner, org);
    const elsewhere = await call('GET', `/api/v1/projects/${other.project.id}/keys`, { token: owner2 });
    t.equal(elsewhere.status, 404);
    t.equal(elsewhere.body.error.code, 'not_found');
    t.ok(viewerToken);
  });

  t.test('no response repeats a key value', async (t) => {
    const leaking = seen.filter((res) => secrets.some((secret) => res.text.includes(secret)));
    t.same(
      leaking.map((r) => r.text),
      [],
    );
    t.ok(seen.length > 50, `${seen.length} responses checked`);
  });
});
