// sdk/node against the real server: batching by size and by time, retries with backoff through
// a faulty hop in front of the server (errors, 429, dropped connections, lost answers), no
// double storage on retries, giving up on refusals, identify/alias, close().

import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, readTable } from '../support/ingest.js';
import { PpClient, type PpError } from '../../sdk/node/index.js';
import { resolveActor } from '../../server/ingest/identity.js';

type Fault = 'ok' | '503' | '429' | 'drop' | 'lose-answer';

/** An HTTP hop that applies one scripted fault per request, then forwards like a proxy. */
async function faultyHop(t: { teardown(fn: () => unknown): void }, target: string, script: Fault[]): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const hop = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const fault = script.shift() ?? 'ok';
        seen.push(`${req.url} ${fault}`);
        if (fault === 'drop') return void req.socket.destroy();
        if (fault === '503' || fault === '429') {
          res.writeHead(Number(fault), { 'content-type': 'application/json', ...(fault === '429' ? { 'retry-after': '0' } : {}) });
          return void res.end(JSON.stringify({ error: { code: 'x', message: 'scripted', details: {} } }));
        }
        const headers = Object.fromEntries(['authorization', 'content-type', 'x-pp-tracker'].flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])));
        const answer = await fetch(target + req.url, { method: req.method, headers, body: Buffer.concat(chunks) });
        // The server stored the batch, but its answer never reaches the client.
        if (fault === 'lose-answer') return void req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => hop.close(() => resolve())));
  return { url: `http://127.0.0.1:${(hop.address() as AddressInfo).port}`, seen };
}

async function eventsNamed(server: TestServer, name: string) {
  return readTable(server, `SELECT uuid::VARCHAR AS uuid, user_id, anonymous_id, source, sdk_name, sdk_version, props::VARCHAR AS props FROM events WHERE event = $1 ORDER BY ts`, [name]);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

t.test('sdk/node', async (t) => {
  // The client stamps events with the real time, so the server's clock starts at the real time too.
  const server = await startTestServer(t, { now: new Date() });
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project).value;

  t.test('batches by size, then flush sends the rest', async (t) => {
    const hop = await faultyHop(t, server.url, []);
    const client = new PpClient({ host: hop.url, key, flushAt: 3, flushIntervalMs: 60_000 });
    const uuids = Array.from({ length: 7 }, (_, i) => client.track({ event: 'sized', userId: `u${i}`, props: { i } }));
    await client.flush();
    t.same(hop.seen, ['/v1/track ok', '/v1/track ok', '/v1/track ok'], '3 + 3 + 1');
    const rows = await eventsNamed(server, 'sized');
    t.same(rows.map((r) => r.uuid).sort(), [...uuids].sort());
    t.match(rows[0], { source: 'server', sdk_name: 'pp-node', sdk_version: '0.1.0', user_id: 'u0' });
    await client.close();
  });

  t.test('batches by time', async (t) => {
    const client = new PpClient({ host: server.url, key, flushAt: 100, flushIntervalMs: 20 });
    client.track({ event: 'timed', anonymousId: 'a' });
    await until(async () => (await eventsNamed(server, 'timed')).length === 1, 'the interval flush');
    await client.close();
    t.pass('sent without an explicit flush');
  });

  t.test('retries through errors, 429 and dropped connections; a lost answer is not stored twice', async (t) => {
    const hop = await faultyHop(t, server.url, ['503', 'drop', '429', 'lose-answer', 'ok']);
    const errors: PpError[] = [];
    const client = new PpClient({ host: hop.url, key, flushAt: 50, retryBaseMs: 5, maxRetries: 5, onError: (e) => errors.push(e) });
    const uuids = [client.track({ event: 'retried', userId: 'r1' }), client.track({ event: 'retried', userId: 'r2' })];
    await client.flush();
    t.same(hop.seen, ['/v1/track 503', '/v1/track drop', '/v1/track 429', '/v1/track lose-answer', '/v1/track ok']);
    t.same(errors, []);
    const rows = await eventsNamed(server, 'retried');
    t.same(rows.map((r) => r.uuid).sort(), [...uuids].sort(), 'each event stored once');
    await client.close();
  });

  t.test('gives up after maxRetries and reports it', async (t) => {
    const hop = await faultyHop(t, server.url, ['503', '503', '503']);
    const errors: PpError[] = [];
    const client = new PpClient({ host: hop.url, key, retryBaseMs: 1, maxRetries: 2, onError: (e) => errors.push(e) });
    client.track({ event: 'lost', userId: 'l' });
    await client.close();
    t.equal(hop.seen.length, 3, 'the first attempt and two retries');
    t.equal(errors.length, 1);
    t.equal(errors[0]!.status, 503);
    t.same(await eventsNamed(server, 'lost'), []);
  });

  t.test('a refusal is not retried; refused events are reported', async (t) => {
    const hop = await faultyHop(t, server.url, []);
    const errors: PpError[] = [];
    const bad = new PpClient({ host: hop.url, key: 'pp_sk_wrongwrong' + 'x'.repeat(32), retryBaseMs: 1, onError: (e) => errors.push(e) });
    bad.track({ event: 'refused', userId: 'x' });
    await bad.close();
    t.equal(hop.seen.length, 1, 'a 401 is final');
    t.match(errors[0], { status: 401, code: 'unauthorized' });

    const partial: PpError[] = [];
    const client = new PpClient({ host: server.url, key, onError: (e) => partial.push(e) });
    client.track({ event: 'half', userId: 'x', props: { revenue: 'lots' } });
    client.track({ event: 'half', userId: 'y', props: JSON.parse('{"a":'.repeat(20) + '1' + '}'.repeat(20)) });
    await client.close();
    t.equal(partial.length, 1);
    t.same(partial[0]!.rejected, [{ index: 1, code: 'invalid_field', message: 'props is nested more than 16 levels deep' }]);
    t.equal((await eventsNamed(server, 'half')).length, 1);
  });

  t.test('identify and alias', async (t) => {
    const client = new PpClient({ host: server.url, key });
    client.track({ event: 'before-login', anonymousId: 'anon-sdk' });
    await client.identify({ anonymousId: 'anon-sdk', userId: 'user-sdk', traits: { plan: 'pro' } });
    await client.alias({ previousId: 'user-sdk', userId: 'user-sdk-2' });
    await client.close();
    t.equal(await resolveActor(server.running.services, project.id, 'anon-sdk'), 'user-sdk-2');
  });

  t.test('argument checks and close', async (t) => {
    const client = new PpClient({ host: server.url, key, flushIntervalMs: 60_000 });
    t.throws(() => client.track({ event: '', userId: 'u' }), /event name/);
    t.throws(() => client.track({ event: 'x' }), /userId or an anonymousId/);
    client.track({ event: 'on-close', userId: 'c', timestamp: '2026-01-01T00:00:00Z' });
    await client.close();
    t.equal((await eventsNamed(server, 'on-close')).length, 1, 'close sends what is queued');
    t.throws(() => client.track({ event: 'late', userId: 'c' }), /closed/);
  });
});
