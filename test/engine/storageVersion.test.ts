// The events file's storage format: a new store is written in the current one (text compressed by
// DICT_FSST); a store of the older format opens in its own, with its rows, and takes writes.

import t from 'tap';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import { STORAGE_VERSION } from '../../server/engine/duckdb/storageVersion.js';
import { VERSION_SQL, olderStore } from './olderStore.js';

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
});

t.test('a store of the older format opens in its own format, with its rows, and takes writes', async (t) => {
  const { file, version: older } = await olderStore(await tempDir(t), 5000);
  t.not(older, `${STORAGE_VERSION}+`, "DuckDB's default format is another");
  const store = await DuckDbEngine.open(file);
  t.teardown(() => store.close());
  t.same(await migrateEvents(store), [], 'every migration is recorded as applied');
  t.equal(String((await store.read(VERSION_SQL))[0]!.v), older, 'the file keeps its format');
  await store.write("INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source) VALUES (1, uuid(), now(), now(), 'signup', 'device-1', 'server')");
  await store.checkpoint();
  t.equal(Number((await store.read('SELECT count(*) AS n FROM events'))[0]!.n), 5001);
});
