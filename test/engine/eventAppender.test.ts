// The engine's appender as ingestion uses it (engine.ts, `EventAppender`): a batch's events, refused
// attempts and journal position are stored together or not at all (on ClickHouse, which has no
// transactions: a batch that fails is stored once when loaded again), and the reads of
// deduplication and of imports find exactly what was stored. Past opening the store everything goes
// through the interface (only the checks' reads are each engine's SQL), run on DuckDB and on
// ClickHouse, one node and 2 shards × 2 replicas.

import t, { type Test } from 'tap';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import type { EngineConnection, EventAppender, KeyChunk } from '../../server/engine/engine.js';
import type { StoredEvent, StoredRejection } from '../../server/engine/rows.js';
import { ClickHouseAppender } from '../../server/engine/clickhouse/clickHouseAppender.js';
import { ClickHouseConnection } from '../../server/engine/clickhouse/connection.js';
import { engineConnection } from '../../server/engine/clickhouse/engineConnection.js';
import { migrateClickHouse, topologyOf } from '../../server/engine/clickhouse/migrations.js';
import { startClickHouse, type ClickHouseCluster, type Topology } from '../support/clickhouseCluster.js';

/** A store under test: its writer turns and appender, and its own reads of what was stored. */
interface Store {
  useWriter<T>(use: (conn: EngineConnection) => Promise<T>): Promise<T>;
  appender: EventAppender;
  counts(): Promise<{ events: number; rejections: number; position: number }>;
  /** ClickHouse: events counted once per sorting key (FINAL), as reads that cannot wait for merges count them. */
  finalEvents?(): Promise<number>;
  /** The stored events, by uuid: instants in ms since the epoch. */
  events(): Promise<Array<{ uuid: string; event: string; distinct_id: string; props: string; revenue: number | null; invalid_reasons: string | null; ts: number; received: number }>>;
}

async function openDuckDb(t: Test): Promise<Store> {
  const engine = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'));
  t.teardown(() => engine.close());
  await migrateEvents(engine);
  const store: Store = {
    useWriter: (use) => engine.useWriter(use),
    appender: engine.appender,
    counts: async () => {
      const [row] = await engine.read('SELECT (SELECT count(*) FROM events)::INTEGER AS events, (SELECT count(*) FROM ingest_rejections)::INTEGER AS rejections');
      return { events: row!.events, rejections: row!.rejections, position: await engine.useWriter((conn) => engine.appender.journalPosition(conn)) };
    },
    events: async () => {
      const rows =
        await engine.read(`SELECT uuid::VARCHAR AS uuid, event, distinct_id, props::VARCHAR AS props, revenue, array_to_string(invalid_reasons, ',') AS invalid_reasons, epoch_ms(ts) AS ts, epoch_ms(received_at) AS received
        FROM events ORDER BY uuid`);
      return rows.map((r) => ({ ...r, ts: Number(r.ts), received: Number(r.received) })) as Awaited<ReturnType<Store['events']>>;
    },
  };
  return store;
}

/** The file's own test: the servers stop when it ends. */
const root = t;
const clusters = new Map<Topology, Promise<ClickHouseCluster>>();
let databases = 0;

/**
 * Databases migrated at once, ahead of the tests that take them: one per ClickHouse test of a
 * topology below. A migration on 2 shards × 2 replicas mostly waits on ZooKeeper and the replicas
 * (about 5 s for one here, under 7 s for four at once), so the tests do not each wait for their own.
 */
const DATABASES_AHEAD = 5;
const migrated = new Map<Topology, Array<Promise<string>>>();

/** The name of a database of its own, migrated, on the topology's servers. */
function migratedDatabase(ch: ClickHouseCluster): Promise<string> {
  const ready = migrated.get(ch.topology) ?? [];
  migrated.set(ch.topology, ready);
  if (ready.length === 0) {
    for (let i = 0; i < DATABASES_AHEAD; i++) {
      const database = `pp_${++databases}`;
      const conn = new ClickHouseConnection({ urls: ch.urls, cluster: ch.cluster, database, user: 'default' });
      const done = migrateClickHouse(conn).finally(() => conn.close());
      done.catch(() => undefined); // the test that takes it reports the failure
      ready.push(done.then(() => database));
    }
  }
  return ready.shift()!;
}

/** A fresh database on the topology's servers, started once for the whole file. */
async function openClickHouse(t: Test, topology: Topology): Promise<Store> {
  if (!clusters.has(topology)) clusters.set(topology, startClickHouse(root, topology));
  const ch = await clusters.get(topology)!;
  const conn = new ClickHouseConnection({ urls: ch.urls, cluster: ch.cluster, database: await migratedDatabase(ch), user: 'default' });
  t.teardown(() => conn.close());
  const appender = new ClickHouseAppender({ replicas: (await topologyOf(conn)).replicas });
  let turn: Promise<unknown> = Promise.resolve();
  const count = async (table: string) => Number((await conn.query<{ n: string }>(`SELECT count() AS n FROM ${table}`))[0]!.n);
  return {
    // One turn at a time, as the engine's writer.
    useWriter: <T>(use: (c: EngineConnection) => Promise<T>) => {
      const next = turn.then(() => use(engineConnection(conn)));
      turn = next.catch(() => undefined);
      return next;
    },
    appender,
    finalEvents: () => count('events FINAL'),
    counts: async () => ({ events: await count('events'), rejections: await count('ingest_rejections'), position: await appender.journalPosition(engineConnection(conn)) }),
    events: async () => {
      const rows = await conn.query<Record<string, string | number | null>>(`SELECT toString(uuid) AS uuid, event, distinct_id, props, revenue,
          if(empty(invalid_reasons), NULL, arrayStringConcat(invalid_reasons, ',')) AS invalid_reasons,
          toString(toUInt64(ts) * 1000 + intDiv(ts_us, 1000)) AS ts, toString(toUInt64(received_at) * 1000 + intDiv(received_us, 1000)) AS received
        FROM events ORDER BY uuid`);
      return rows.map((r) => ({ ...r, ts: Number(r.ts), received: Number(r.received) })) as Awaited<ReturnType<Store['events']>>;
    },
  };
}

const STORES: Array<[string, (t: Test) => Promise<Store>]> = [
  ['DuckDB', openDuckDb],
  ['ClickHouse, one node', (t) => openClickHouse(t, 'single')],
  ['ClickHouse, 2 shards × 2 replicas', (t) => openClickHouse(t, 'replicated')],
];

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

for (const [name, open] of STORES) {
  t.test(`${name}: a batch is stored whole: its events as given, its refused attempts and the journal position`, async (t) => {
    const engine = await open(t);
    t.same(await engine.counts(), { events: 0, rejections: 0, position: 0 }, 'a new store has loaded nothing');
    await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(1), event(2, { revenue: 9.5, invalid_reasons: ['revenue'] })], rejections: [rejection('r1')], journalPosition: 7 }));
    t.same(await engine.counts(), { events: 2, rejections: 1, position: 7 });
    t.same(await engine.events(), [
      { uuid: uuidOf(1), event: 'signup', distinct_id: 'user-1', props: '{"plan":"pro","n":1}', revenue: null, invalid_reasons: null, ts: AT.getTime() - 60_000, received: AT.getTime() },
      { uuid: uuidOf(2), event: 'signup', distinct_id: 'user-2', props: '{"plan":"pro","n":2}', revenue: 9.5, invalid_reasons: 'revenue', ts: AT.getTime() - 60_000, received: AT.getTime() },
    ]);
    // An import's batch: no journal position, which stays where the last batch left it, and events no key sent.
    await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(3, { key_id: null, source: 'import' })], rejections: [] }));
    t.same(await engine.counts(), { events: 3, rejections: 1, position: 7 });
  });

  t.test(`${name}: a batch that fails stores nothing, not even its position, and the next batch is stored`, async (t) => {
    const engine = await open(t);
    await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(1)], rejections: [], journalPosition: 1 }));
    const failing = engine.useWriter((conn) => engine.appender.append(conn, { events: [event(2), event(3, { uuid: 'not-a-uuid' })], rejections: [rejection('r2')], journalPosition: 2 }));
    await t.rejects(failing, /not a canonical uuid/);
    t.same(await engine.counts(), { events: 1, rejections: 0, position: 1 }, 'the good event of the failed batch is not stored either');
    await engine.useWriter((conn) => engine.appender.append(conn, { events: [event(2)], rejections: [rejection('r3')], journalPosition: 3 }));
    t.same(await engine.counts(), { events: 2, rejections: 1, position: 3 });
  });

  // ClickHouse's appender leaves out what is stored already (it has no transaction to undo a batch
  // cut short), and a row that gets in twice anyway counts once; DuckDB's stores a batch whole or
  // not at all, and its ingest writer checks the pairs.
  if (name !== 'DuckDB') {
    t.test(`${name}: a batch loaded again after it was stored (a crash before its acknowledgement) is stored once`, async (t) => {
      const engine = await open(t);
      const batch = { events: [event(1), event(2)], rejections: [], journalPosition: 4 };
      await engine.useWriter((conn) => engine.appender.append(conn, batch));
      await engine.useWriter((conn) => engine.appender.append(conn, { ...batch, events: [...batch.events, event(3)], journalPosition: 5 }));
      t.same(await engine.counts(), { events: 3, rejections: 0, position: 5 }, 'the events stored already are left out by uuid');
    });

    t.test(`${name}: a batch stored twice at once (a timed-out load that landed after all, beside its retry) counts once`, async (t) => {
      const engine = await open(t);
      const batch = { events: [event(1), event(2)], rejections: [], journalPosition: 1 };
      // Outside the writer's turns, so both may find nothing stored and both insert.
      const conn = await engine.useWriter(async (c) => c);
      await Promise.all([engine.appender.append(conn, batch), engine.appender.append(conn, batch)]);
      t.comment(`rows held before parts merge: ${(await engine.counts()).events}`);
      t.equal(await engine.finalEvents!(), 2, 'one row per uuid, whatever the parts hold before they merge');
    });
  }

  t.test(`${name}: the reads of deduplication and of imports find what is stored`, async (t) => {
    const engine = await open(t);
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
}
