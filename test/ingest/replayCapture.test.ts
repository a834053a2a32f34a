// /v1/replay and /v1/capture: what the tracker's replay and picker modules send, stored
// compressed and bounded, idempotent per chunk, refused while recordings are off.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, readTable } from '../support/ingest.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { readReplayChunks } from '../../server/ingest/replay.js';
import { readCapture } from '../../server/ingest/capture.js';

t.test('replay and capture', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
  const page = { origin: 'https://shop.example' };
  const snapshot = { type: 2, timestamp: Date.parse('2026-11-02T11:59:00Z'), data: { node: { type: 0, childNodes: [{ type: 3, textContent: '*'.repeat(2000) }] } } };
  const chunk = (seq: number, events: unknown[] = [snapshot, { type: 3, timestamp: Date.parse('2026-11-02T11:59:05Z'), data: { source: 1 } }]) => ({
    credential: browser.value,
    tracker: 'pp-browser/0.6.5',
    session_id: 'sess-1',
    anonymous_id: 'anon-1',
    seq,
    events,
  });
  const sendChunk = (body: unknown) => server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', ...page } });

  t.test('replay: 401 → 422 → refused while recordings are off → stored once per seq', async (t) => {
    t.equal((await server.request('POST', '/v1/replay', { body: { ...chunk(0), credential: undefined } })).status, 401);
    const invalid = await sendChunk({ ...chunk(0), seq: -1 });
    t.equal(invalid.status, 422);
    t.equal(invalid.body.error.message, 'invalid request body: seq must be >= 0');

    const off = await sendChunk(chunk(0));
    t.equal(off.status, 202);
    t.same(off.body, { accepted: 0, rejected: [{ index: 0, code: 'replay_disabled', message: 'session recordings are disabled for this project' }] });

    patchBehaviorSettings(server.running.services.meta, project.id, { replay_enabled: true }, null, server.clock.now());
    const first = await sendChunk(chunk(0));
    t.same(first.body, { accepted: 2, rejected: [] });
    t.same((await sendChunk(chunk(0))).body, { accepted: 2, rejected: [] }, 'a re-sent chunk is accepted');
    await sendChunk(chunk(1, [{ type: 3, timestamp: Date.parse('2026-11-02T11:59:09Z'), data: { source: 2 } }]));

    const rows = await readTable(
      server,
      `SELECT seq, event_count, raw_bytes, octet_length(data) AS stored_bytes, strftime(first_ts, '%Y-%m-%dT%H:%M:%SZ') AS first_ts, strftime(last_ts, '%Y-%m-%dT%H:%M:%SZ') AS last_ts, key_id, sdk_name
         FROM replay_chunks WHERE project_id = $1 ORDER BY seq`,
      [project.id],
    );
    t.equal(rows.length, 2, 'stored once per seq');
    t.match(rows[0], { seq: 0, event_count: 2, first_ts: '2026-11-02T11:59:00Z', last_ts: '2026-11-02T11:59:05Z', key_id: browser.prefix, sdk_name: 'pp-browser' });
    t.ok(rows[0]!.stored_bytes < rows[0]!.raw_bytes / 4, `compressed: ${rows[0]!.stored_bytes} of ${rows[0]!.raw_bytes} bytes`);

    const back = await readReplayChunks(server.running.services, project.id, 'sess-1');
    t.same(
      back.map((c) => c.seq),
      [0, 1],
    );
    t.same(back[0]!.events, chunk(0).events);
  });

  t.test('replay: a chunk over 512 KiB is 413; a server key is refused', async (t) => {
    const big = await sendChunk(chunk(5, [{ type: 3, timestamp: 1, data: { blob: 'x'.repeat(600 * 1024) } }]));
    t.equal(big.status, 413);
    t.equal(big.body.error.message, 'a replay chunk holds at most 524288 bytes of events');
    const serverKey = createIngestKey(server, project);
    const res = await server.request('POST', '/v1/replay', { token: serverKey.value, body: { ...chunk(6), credential: undefined } });
    t.equal(res.body.error.code, 'credential_scope_forbidden');
  });

  const capture = {
    picker_token: 'signed.picker.token',
    nonce: 'n-123',
    url: 'https://shop.example/pricing',
    selector: 'main > button.buy',
    element: { tag: 'button', classes: ['buy'], nth_child: 2, text: 'Buy' },
    chain: [
      { tag: 'button', classes: ['buy'], nth_child: 2, text: 'Buy' },
      { tag: 'main', nth_child: 1, attributes: { role: 'main' } },
    ],
  };

  t.test('capture: 401 → 422 → 202, stored under the token hash', async (t) => {
    t.equal((await server.request('POST', '/v1/capture', { body: capture, headers: page })).status, 401);
    const noChain = await server.request('POST', '/v1/capture', { token: browser.value, body: { ...capture, chain: [] }, headers: page });
    t.equal(noChain.status, 422);
    t.equal(noChain.body.error.message, 'invalid request body: chain must NOT have fewer than 1 items');
    const inBody = await server.request('POST', '/v1/capture', { body: { ...capture, credential: browser.value }, headers: page });
    t.equal(inBody.status, 401, '`credential` is not read on capture');
    const res = await server.request('POST', '/v1/capture', { token: browser.value, body: capture, headers: { ...page, 'x-pp-tracker': 'pp-browser/0.6.5' } });
    t.equal(res.status, 202);
    t.same(res.body, { accepted: 1, rejected: [] });
    const stored = await readCapture(server.running.services, project.id, capture.picker_token);
    t.match(stored, { project_id: project.id, nonce: 'n-123', url: capture.url, selector: capture.selector, element: capture.element, chain: capture.chain });
    t.equal(await readCapture(server.running.services, project.id, 'another.token'), undefined);
    const raw = JSON.stringify(await readTable(server, 'SELECT token_hash FROM element_captures'));
    t.notOk(raw.includes(capture.picker_token), 'the picker token itself is not stored');
  });

  t.test('capture: bounded', async (t) => {
    const wide = { ...capture, chain: Array.from({ length: 50 }, () => ({ tag: 'div', attributes: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`data-${i}`, 'v'.repeat(40)])) })) };
    const res = await server.request('POST', '/v1/capture', { token: browser.value, body: wide, headers: page });
    t.equal(res.status, 413);
    t.equal(res.body.error.message, 'a capture holds at most 65536 bytes');
  });
});
