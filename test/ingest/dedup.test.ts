// Re-sent uuids are stored once however the writer's filter of stored pairs stands: after a
// restart (also when it could read back only the newest pairs), at the edge of the window, after
// its generations rotated, and when every hash collides.

import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { countRows, createIngestKey, ingestEvents, type TestKey } from '../support/ingest.js';
import { GroupWriter, ingestWriter } from '../../server/ingest/groupWriter.js';
import { eventBus } from '../../server/ingest/eventBus.js';
import { normalizeEvent } from '../../server/ingest/normalizeEvent.js';

const HOUR_MS = 3_600_000;
// The smallest filter the setting allows: four generations of 250 pairs.
const SMALL_FILTER = { 'ingest.dedup_filter_events': 1000 };

const fresh = (n: number, name = 'dedup') => Array.from({ length: n }, (_, i) => ({ event: name, uuid: randomUUID(), anonymous_id: `a${i}` }));

/** Sends the events in requests of at most 500, one second apart; every one must be answered 202. */
async function send(t: Test, server: TestServer, key: TestKey, events: unknown[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    const res = await ingestEvents(server, key, events.slice(i, i + 500));
    t.equal(res.status, 202);
    server.clock.advance(1000);
  }
}

t.test('a re-send after a restart is stored once, also when the filter read back only the newest pairs', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-dedup-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestServer(t, { dataDir, settings: SMALL_FILTER });
  const { project } = await createTenant(first);
  const key = createIngestKey(first, project);
  const events = fresh(1500);
  await send(t, first, key, events);
  // Stored before the stop: a stop leaves batches not yet loaded to the next start's replay.
  await ingestWriter(first.running.services).loaded();
  await first.close();

  // At start the filter reads the newest 500 pairs; the first 1000 are looked up by time.
  const second = await startTestServer(t, { dataDir, settings: SMALL_FILTER, now: new Date(first.clock.now().getTime() + 60_000) });
  const added = fresh(20, 'after-restart');
  await send(t, second, key, [...events, ...added]);
  const writer = ingestWriter(second.running.services);
  await writer.loaded();
  t.equal(writer.stats.duplicates, 1500, 'every re-sent event recognized');
  t.equal(writer.stats.stored, 20);
  t.equal(await countRows(second, 'events', project.id), 1520);
});

t.test('the window: a uuid is recognized until dedup_window_hours after its receipt, then stored again', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);
  const [event] = fresh(1);
  await ingestEvents(server, key, [event]);
  server.clock.advance(24 * HOUR_MS);
  await ingestEvents(server, key, [event]);
  t.equal(await countRows(server, 'events', project.id), 1, 'exactly 24 hours later: still a duplicate');
  server.clock.advance(1);
  await ingestEvents(server, key, [event]);
  t.equal(await countRows(server, 'events', project.id), 2, 'a millisecond later: a new event');
  await ingestEvents(server, key, [event]);
  t.equal(await countRows(server, 'events', project.id), 2, 'and that one is recognized in turn');
});

t.test('once the filter rotated, older pairs are looked up by time and new ones still cost no lookup', async (t) => {
  const server = await startTestServer(t, { settings: SMALL_FILTER });
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);
  const writer = ingestWriter(server.running.services);
  const events = fresh(1300);
  await send(t, server, key, events);
  await writer.loaded();
  t.equal(writer.stats.lookups, 0, 'nothing looked up for 1300 new events');

  // The first 500 were dropped with the oldest generations; the last 500 are still held.
  await send(t, server, key, [...events.slice(0, 100), ...events.slice(-100), ...fresh(50, 'new')]);
  await writer.loaded();
  t.equal(writer.stats.duplicates, 200);
  t.equal(writer.stats.lookups, 100, 'only the pairs the filter holds were looked up as suspects');
  t.equal(await countRows(server, 'events', project.id), 1350);
});

t.test('when every hash collides, each uuid is looked up and the answer is still exact', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const services = server.running.services;
  const writer = new GroupWriter(services, eventBus(services), { maxGroupRows: 5000, dedupWindowMs: 24 * HOUR_MS, filterCapacity: 1000, keyHash: () => [5, 5] });
  t.teardown(() => writer.close());
  const rows = (events: ReturnType<typeof fresh>) => events.map((e) => normalizeEvent(e, { projectId: project.id, receivedAt: services.clock.now(), source: 'server', sdk: null, keyId: 'testkey1' }));
  const events = fresh(10);
  await writer.submit({ events: rows(events), rejections: [] });
  t.match(writer.stats, { groups: 1, stored: 10, duplicates: 0 });
  await writer.submit({ events: rows([...events, ...fresh(5)]), rejections: [] });
  t.match(writer.stats, { groups: 2, stored: 15, duplicates: 10 });
  t.equal(writer.stats.lookups, 15, 'the second group: every uuid a suspect');
  t.equal(await countRows(server, 'events', project.id), 15);
});
