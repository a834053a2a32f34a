// `ppctl events compact`: a store of the older format comes back in the current one with every row
// at its rowid, its migrations, macros and keys; a store with free blocks comes back smaller; a
// running server's store is refused, untouched.

import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tempDir } from '../support/tempDir.js';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import { STORAGE_VERSION, compactFile } from '../../server/engine/duckdb/storageVersion.js';
import { VERSION_SQL, olderStore } from '../engine/olderStore.js';

const ROWS_SQL = 'SELECT rowid::VARCHAR AS rowid, uuid::VARCHAR AS uuid FROM events ORDER BY rowid';

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
  const { file, version } = await olderStore(dataDir, 5000);
  t.not(version, `${STORAGE_VERSION}+`, "DuckDB's default format is another");
  const rows = await read(file, ROWS_SQL);
  const done = await runPpctl(['events', 'compact', '--data-dir', dataDir, '--json']);
  t.equal(done.code, 0, done.stderr);
  const report = JSON.parse(done.stdout);
  t.match(report, { versionBefore: version, versionAfter: `${STORAGE_VERSION}+` });
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
  const { file } = await olderStore(dataDir, 20_000);
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
