// `ppctl events compact`: a store of the older format comes back in the current one with every row
// at its rowid, its migrations, macros and keys; a store with free blocks comes back smaller; a
// running server's store is refused, untouched.

import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tempDir } from '../support/tempDir.js';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import { STORAGE_VERSION, compactFile } from '../../server/engine/duckdb/storageVersion.js';
import type { EventEngine } from '../../server/engine/engine.js';

const VERSION_SQL = "SELECT tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = current_database()";
const ROWS_SQL = 'SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid';

/** The migrations applied on a bare connection, as a store of DuckDB's default format holds them. */
function bare(conn: DuckDBConnection): EventEngine {
  return {
    write: async (sql: string, params: unknown[] = []) => void (await conn.run(sql, params as never)),
    read: async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjects(),
  } as unknown as EventEngine;
}

/** A data folder whose events.duckdb is in DuckDB's default format, with events and an identity link. */
async function olderStore(dataDir: string, events: number): Promise<string> {
  const file = path.join(dataDir, 'events.duckdb');
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  await migrateEvents(bare(conn));
  await conn.run(`INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, url, props)
    SELECT 1 + i % 3, uuid(), TIMESTAMPTZ '2026-11-01' + to_seconds(i), TIMESTAMPTZ '2026-11-01' + to_seconds(i), 'page_view',
           'device-' || (i % 97), 'browser', 'https://shop.example.com/p/' || (i % 13), '{"category": "c' || (i % 7) || '"}'
      FROM range(${events}) r(i)`);
  await conn.run("INSERT INTO identity_links VALUES (1, 'device-1', 'user-1', TIMESTAMPTZ '2026-11-02', 1, 2)");
  conn.closeSync();
  instance.closeSync();
  return file;
}

async function read(file: string, sql: string) {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjects();
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

t.test('an older store comes back in the current format, every row at its rowid, with its migrations, macros and keys', async (t) => {
  const dataDir = await tempDir(t);
  const file = await olderStore(dataDir, 5000);
  const [before] = await read(file, VERSION_SQL);
  t.not(before!.v, `${STORAGE_VERSION}+`, "DuckDB's default format is another");
  const rows = await read(file, ROWS_SQL);
  const done = await runPpctl(['events', 'compact', '--data-dir', dataDir, '--json']);
  t.equal(done.code, 0, done.stderr);
  const report = JSON.parse(done.stdout);
  t.match(report, { versionBefore: before!.v, versionAfter: `${STORAGE_VERSION}+` });
  t.equal(report.bytesAfter, statSync(file).size);
  t.notOk(existsSync(compactFile(file)), 'the copy replaced the store');
  const store = await DuckDbEngine.open(file);
  t.teardown(() => store.close());
  t.same((await store.read(VERSION_SQL))[0]!.v, `${STORAGE_VERSION}+`);
  t.same(await store.read(ROWS_SQL), rows, 'the same events at the same rowids');
  t.same(await migrateEvents(store), [], 'every migration is recorded as applied');
  t.same(await store.read(`SELECT array_to_string(pp_el_tags('[{"tag": "BUTTON"}]'), ',') AS tags`), [{ tags: 'button' }], 'the macros are there');
  await t.rejects(store.write("INSERT INTO identity_links VALUES (1, 'device-1', 'user-2', now(), 1, 3)"), /violates primary key/, 'and the keys');
});

t.test('a store with free blocks comes back smaller, and says so', async (t) => {
  const dataDir = await tempDir(t);
  const file = await olderStore(dataDir, 20_000);
  const store = await DuckDbEngine.open(file);
  // A table written and dropped, as a rollup's compaction does: its blocks stay free in the file.
  await store.write('CREATE TABLE dropped AS SELECT * FROM events, range(20)');
  await store.checkpoint();
  await store.write('DROP TABLE dropped');
  await store.checkpoint();
  await store.close();
  const size = statSync(file).size;
  const done = await runPpctl(['events', 'compact', '--data-dir', dataDir]);
  t.equal(done.code, 0, done.stderr);
  t.match(done.stdout, new RegExp(`^events\\.duckdb: \\d+ MiB → \\d+ MiB in [\\d.]+ s \\(storage format v[\\d.]+\\+ → ${STORAGE_VERSION.replaceAll('.', '\\.')}\\+\\)\\n$`));
  t.ok(statSync(file).size < size / 2, `${size} → ${statSync(file).size} bytes`);
  t.equal(Number((await read(file, 'SELECT count(*) AS n FROM events'))[0]!.n), 20_000);
});

t.test("a running server's store is refused and left as it is", async (t) => {
  const dataDir = await tempDir(t);
  const served = await spawnServe(['--data-dir', dataDir]);
  t.teardown(() => served.child.kill('SIGKILL'));
  const file = path.join(dataDir, 'events.duckdb');
  const size = statSync(file).size;
  const refused = await runPpctl(['events', 'compact', '--data-dir', dataDir]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /pp .* is running on .* \(pid \d+\); stop it first/);
  t.equal(statSync(file).size, size);
  served.child.kill('SIGTERM');
  t.equal(await served.exited, 0);
});
