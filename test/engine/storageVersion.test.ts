// The events file's storage format: a new store is written in the current one (text compressed by
// DICT_FSST), and a store of the older format is copied into it once, at open, with every row in
// its place, its migrations, macros and keys; a copy that cannot be made leaves the store as it was.

import t from 'tap';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tempDir } from '../support/tempDir.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { appliedEvents, migrateEvents } from '../../server/engine/duckdb/migrations.js';
import { STORAGE_VERSION, olderThan, upgradeFile } from '../../server/engine/duckdb/storageVersion.js';
import type { EventEngine } from '../../server/engine/engine.js';

const VERSION_SQL = "SELECT tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = current_database()";

/** The migrations applied on a bare connection, as a store of the older format holds them. */
function bare(conn: DuckDBConnection): EventEngine {
  return {
    write: async (sql: string, params: unknown[] = []) => void (await conn.run(sql, params as never)),
    read: async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjects(),
  } as unknown as EventEngine;
}

/** A store in DuckDB's default (older) format with the migrations applied, a few events and an identity link. */
async function olderStore(file: string): Promise<Array<{ rowid: string; uuid: string }>> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  await migrateEvents(bare(conn));
  await conn.run(`INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, url, props)
    SELECT 1 + i % 3, uuid(), TIMESTAMPTZ '2026-11-01' + to_seconds(i), TIMESTAMPTZ '2026-11-01' + to_seconds(i), 'page_view',
           'device-' || (i % 97), 'browser', 'https://shop.example.com/p/' || (i % 13), '{"category": "c' || (i % 7) || '"}'
      FROM range(5000) r(i)`);
  await conn.run("INSERT INTO identity_links VALUES (1, 'device-1', 'user-1', TIMESTAMPTZ '2026-11-02', 1, 2)");
  const [version] = (await conn.runAndReadAll(VERSION_SQL)).getRowObjects();
  const rows = (await conn.runAndReadAll('SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid')).getRowObjects();
  conn.closeSync();
  instance.closeSync();
  if (!olderThan(String(version!.v), STORAGE_VERSION)) throw new Error(`DuckDB's default format is ${String(version!.v)} now: the older store of this test is not older`);
  return rows as Array<{ rowid: string; uuid: string }>;
}

t.test('the version tags DuckDB reports compare as versions', async (t) => {
  t.ok(olderThan('v1.0.0+', 'v1.5.0'));
  t.ok(olderThan('', 'v1.5.0'), 'an untagged file is older');
  t.notOk(olderThan('v1.5.0+', 'v1.5.0'));
  t.notOk(olderThan('v1.10.0+', 'v1.5.0'), 'by number, not as text');
});

t.test('a new store is written in the current format and compresses text with DICT_FSST', async (t) => {
  const store = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'));
  t.teardown(() => store.close());
  await migrateEvents(store);
  t.same((await store.read(VERSION_SQL))[0]!.v, `${STORAGE_VERSION}+`);
  await store.write(
    "INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source) SELECT 1, uuid(), now(), now(), 'e' || (i % 50), 'device-' || i, 'browser' FROM range(100000) r(i)",
  );
  await store.checkpoint();
  const methods = (await store.read("SELECT DISTINCT compression FROM pragma_storage_info('events') WHERE column_name = 'distinct_id' AND segment_type = 'VARCHAR'")).map((r) => String(r.compression));
  t.same(methods, ['DICT_FSST']);
  t.same(store.storageUpgrade, { copied: false });
});

t.test('a store of the older format is copied into the current one at open, every row in its place', async (t) => {
  const file = path.join(await tempDir(t), 'events.duckdb');
  const before = await olderStore(file);
  const store = await DuckDbEngine.open(file);
  t.same(store.storageUpgrade, { copied: true });
  t.notOk(existsSync(upgradeFile(file)), 'the copy replaced the file');
  t.same((await store.read(VERSION_SQL))[0]!.v, `${STORAGE_VERSION}+`);
  t.same(await store.read('SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid'), before, 'the same events at the same rowids');
  t.same(await migrateEvents(store), [], 'every migration is recorded as applied');
  t.ok((await appliedEvents(store)).length > 0);
  t.same(await store.read(`SELECT array_to_string(pp_el_tags('[{"tag": "BUTTON"}]'), ',') AS tags`), [{ tags: 'button' }], 'the macros are there');
  await t.rejects(store.write("INSERT INTO identity_links VALUES (1, 'device-1', 'user-2', now(), 1, 3)"), /violates primary key/, 'and the keys');
  await store.close();
  const again = await DuckDbEngine.open(file);
  t.same(again.storageUpgrade, { copied: false }, 'copied once');
  t.equal(Number((await again.read('SELECT count(*) AS n FROM events'))[0]!.n), 5000);
  await again.close();
});

t.test('a copy that cannot be made leaves the store as it was, and it opens', async (t) => {
  const file = path.join(await tempDir(t), 'events.duckdb');
  const before = await olderStore(file);
  // Where the copy would go is taken by a folder that cannot be removed as a file.
  mkdirSync(upgradeFile(file));
  writeFileSync(path.join(upgradeFile(file), 'kept'), 'x');
  const store = await DuckDbEngine.open(file);
  t.teardown(() => store.close());
  t.equal(store.storageUpgrade.copied, false);
  t.ok(store.storageUpgrade.error, 'the reason is kept');
  t.ok(olderThan(String((await store.read(VERSION_SQL))[0]!.v), STORAGE_VERSION), 'still the older format');
  t.same(await store.read('SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid'), before);
});

t.test('a copy left behind by an interrupted start is made again', async (t) => {
  const file = path.join(await tempDir(t), 'events.duckdb');
  const before = await olderStore(file);
  writeFileSync(upgradeFile(file), 'the first bytes of an unfinished copy');
  const store = await DuckDbEngine.open(file);
  t.teardown(() => store.close());
  t.same(store.storageUpgrade, { copied: true });
  t.same(await store.read('SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid'), before);
});
