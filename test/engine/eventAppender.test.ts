// The engine's appender as ingestion uses it (engine.ts, `EventAppender`): a batch's events, refused
// attempts and journal position are stored together or not at all, and the reads of deduplication
// and of imports find exactly what was stored. Past `openEngine` everything goes through the
// interface (only the checks' reads are DuckDB's SQL), so a second engine must answer the same.

import t, { type Test } from 'tap';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import type { EventEngine, KeyChunk } from '../../server/engine/engine.js';
import type { StoredEvent, StoredRejection } from '../../server/engine/rows.js';

async function openEngine(t: Test): Promise<EventEngine> {
  const engine = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'));
  t.teardown(() => engine.close());
  await migrateEvents(engine);
  return engine;
}

const AT = new Date('2026-03-02T10:00:00.000Z');
const us = (d: Date) => d.getTime() * 1000;
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

function event(i: number, over: Partial<StoredEvent> = {}): StoredEvent {
  return {
    project_id: 1,
    uuid: uuidOf(i),
    ts: new Date(AT.getTime() - 60_000),
    received_at: AT,
    event: 'signup',
    distinct_id: `user-${i}`,
    anonymous_id: null,
    user_id: `user-${i}`,
    session_id: null,
    source: 'server',
    sdk_name: 'pp-node',
    sdk_version: '0.3.1',
    key_id: 'key',
    release: null,
    url: null,
    path: null,
    referrer: null,
    props: `{"plan":"pro","n":${i}}`,
    revenue: null,
    elements: null,
    invalid: false,
    invalid_reasons: null,
    distinct_key: BigInt(i),
    ...over,
  };
}

function rejection(requestId: string): StoredRejection {
  return {
    project_id: 1,
    received_at: AT,
    request_id: requestId,
    event_index: 0,
    operation: 'track',
    key_id: 'key',
    source: 'server',
    sdk_name: null,
    sdk_version: null,
    event: 'signup',
    code: 'validation_failed',
    message: 'event is required',
  };
}

async function counts(engine: EventEngine): Promise<{ events: number; rejections: number; position: number }> {
  const [row] = await engine.read('SELECT (SELECT count(*) FROM events)::INTEGER AS events, (SELECT count(*) FROM ingest_rejections)::INTEGER AS rejections');
  const position = await engine.useWriter((conn) => engine.appender.journalPosition(conn));
  return { events: row!.events, rejections: row!.rejections, position };
}

t.test('a batch is stored whole: its events as given, its refused attempts and the journal position', async (t) => {
  const engine = await openEngine(t);
  t.same(await counts(engine), { events: 0, rejections: 0, position: 0 }, 'a new store has loaded nothing');
  await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(1), event(2, { revenue: 9.5, invalid_reasons: ['revenue'] })], rejections: [rejection('r1')], journalPosition: 7 }));
  t.same(await counts(engine), { events: 2, rejections: 1, position: 7 });
  const rows =
    await engine.read(`SELECT uuid::VARCHAR AS uuid, event, distinct_id, props::VARCHAR AS props, revenue, array_to_string(invalid_reasons, ',') AS invalid_reasons, epoch_ms(ts) AS ts, epoch_ms(received_at) AS received
    FROM events ORDER BY uuid`);
  t.same(
    rows.map((r) => ({ ...r, ts: Number(r.ts), received: Number(r.received) })),
    [
      { uuid: uuidOf(1), event: 'signup', distinct_id: 'user-1', props: '{"plan":"pro","n":1}', revenue: null, invalid_reasons: null, ts: AT.getTime() - 60_000, received: AT.getTime() },
      { uuid: uuidOf(2), event: 'signup', distinct_id: 'user-2', props: '{"plan":"pro","n":2}', revenue: 9.5, invalid_reasons: 'revenue', ts: AT.getTime() - 60_000, received: AT.getTime() },
    ],
  );
  // An import's batch: no journal position, which stays where the last batch left it.
  await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(3)], rejections: [] }));
  t.same(await counts(engine), { events: 3, rejections: 1, position: 7 });
});

t.test('a batch that fails stores nothing, not even its position, and the next batch is stored', async (t) => {
  const engine = await openEngine(t);
  await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(1)], rejections: [], journalPosition: 1 }));
  const failing = engine.useWriter((conn) => engine.appender.append(conn, { events: [event(2), event(3, { uuid: 'not-a-uuid' })], rejections: [rejection('r2')], journalPosition: 2 }));
  await t.rejects(failing, /not a canonical uuid/);
  t.same(await counts(engine), { events: 1, rejections: 0, position: 1 }, 'the good event of the failed batch is not stored either');
  await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(2)], rejections: [rejection('r3')], journalPosition: 3 }));
  t.same(await counts(engine), { events: 2, rejections: 1, position: 3 });
});

t.test('the reads of deduplication and of imports find what is stored', async (t) => {
  const engine = await openEngine(t);
  const later = new Date(AT.getTime() + 3_600_000);
  await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(1), event(2, { project_id: 2 }), event(3, { received_at: later })], rejections: [] }));
  const pairs = (uuids: string[], from: Date, before?: Date) => engine.useWriter((conn) => engine.appender.storedPairs(conn, uuids, us(from), before ? us(before) : Infinity));
  const all = [uuidOf(1), uuidOf(2), uuidOf(3), uuidOf(4)];
  t.same((await pairs(all, AT)).sort(), [`1/${uuidOf(1)}`, `1/${uuidOf(3)}`, `2/${uuidOf(2)}`], 'each stored pair once, with its project');
  t.same(await pairs(all, new Date(AT.getTime() + 1)), [`1/${uuidOf(3)}`], 'received before the window: not found');
  t.same((await pairs(all, AT, later)).sort(), [`1/${uuidOf(1)}`, `2/${uuidOf(2)}`], 'received at the end of the window or after: not found');
  t.same(await pairs([], AT), [], 'no uuids, no pairs');

  const held = await engine.useWriter((conn) => engine.appender.heldUuids(conn, 1, all));
  t.same([...held].sort(), [uuidOf(1), uuidOf(3)], "the project's own uuids, whenever received");
  const heldOf = (uuids: string[]) => engine.useWriter(async (conn) => [...(await engine.appender.heldUuids(conn, 1, uuids))].sort());
  t.same(await heldOf([uuidOf(4), uuidOf(5)]), [], 'none between the smallest and the largest asked for: none held');
  t.same(await heldOf([uuidOf(0), uuidOf(2), uuidOf(4)]), [], 'a range around held uuids finds only those asked for');
  t.same(await heldOf([uuidOf(3), uuidOf(0)]), [uuidOf(3)], 'the largest asked for, held, is found');
  t.same(await heldOf([]), [], 'no uuids, none held');

  const chunks: KeyChunk[] = [];
  await engine.useWriter((conn) => engine.appender.recentKeys(conn, us(AT), 2, (chunk) => chunks.push(chunk)));
  const keys = chunks.flatMap((c) => Array.from({ length: c.count }, (_, i) => ({ project: c.projects[i], words: c.words.map((w) => w[i]), receivedUs: c.receivedUs[i] })));
  // The newest two, oldest first: event 1 or 2 (received together) then event 3. A uuid's words are
  // its 32 hex digits read 8 at a time.
  t.equal(keys.length, 2);
  t.same(keys[1], { project: 1, words: [0, 0x4000, 0x80000000, 3], receivedUs: us(later) });
  t.equal(keys[0]!.receivedUs, us(AT));
  t.ok(keys[0]!.project === 1 || keys[0]!.project === 2);
});
