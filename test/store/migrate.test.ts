// The migration runner: order, one transaction each, checksums, and refusal of edited files; then
// what shipped migrations do to data stored before them.

import t from 'tap';
import { copyFile, mkdir, writeFile, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { openMetaDb } from '../../server/store/sqlite.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateMeta, MigrationError, migrationsDir, readMigrations } from '../../server/store/migrate.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';

t.test('sqlite: applies in order, once, and refuses an edited file', async (t) => {
  const dir = await tempDir(t);
  const migrations = path.join(dir, 'm');
  await import('node:fs/promises').then((fs) => fs.mkdir(migrations));
  await writeFile(path.join(migrations, '0002_second.sql'), 'ALTER TABLE a ADD COLUMN b TEXT;');
  await writeFile(path.join(migrations, '0001_first.sql'), 'CREATE TABLE a (id INTEGER PRIMARY KEY);');
  const db = openMetaDb(path.join(dir, 'meta.sqlite'));
  t.teardown(() => db.close());
  t.same(
    migrateMeta(db, migrations).map((m) => m.file),
    ['0001_first.sql', '0002_second.sql'],
  );
  t.same(migrateMeta(db, migrations), [], 're-running is a no-op');
  t.same(
    (db.pragma('table_info(a)') as Array<{ name: string }>).map((c) => c.name),
    ['id', 'b'],
  );

  await writeFile(path.join(migrations, '0001_first.sql'), 'CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT);');
  t.throws(() => migrateMeta(db, migrations), { message: /0001_first\.sql was changed after it was applied/ });
});

t.test('sqlite: a failing migration leaves nothing behind', async (t) => {
  const dir = await tempDir(t);
  const migrations = path.join(dir, 'm');
  await import('node:fs/promises').then((fs) => fs.mkdir(migrations));
  await writeFile(path.join(migrations, '0001_ok.sql'), 'CREATE TABLE a (id INTEGER);');
  await writeFile(path.join(migrations, '0002_bad.sql'), 'CREATE TABLE b (id INTEGER); INSERT INTO nowhere VALUES (1);');
  const db = openMetaDb(path.join(dir, 'meta.sqlite'));
  t.teardown(() => db.close());
  t.throws(() => migrateMeta(db, migrations), { name: 'Error', message: /failed/ });
  t.ok(
    (() => {
      try {
        migrateMeta(db, migrations);
      } catch (e) {
        return e instanceof MigrationError;
      }
      return false;
    })(),
    'a MigrationError',
  );
  t.throws(() => migrateMeta(db, migrations), { message: /0002_bad\.sql failed/ });
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r: any) => r.name);
  t.same(tables, ['a', 'schema_migrations'], 'table b was rolled back with its migration');
  t.same(db.prepare('SELECT version FROM schema_migrations').all(), [{ version: 1 }]);
});

t.test('duckdb: applies in a transaction and refuses an edited file', async (t) => {
  const dir = await tempDir(t);
  const migrations = path.join(dir, 'm');
  await import('node:fs/promises').then((fs) => fs.mkdir(migrations));
  await writeFile(path.join(migrations, '0001_t.sql'), 'CREATE TABLE t (a INTEGER);');
  await writeFile(path.join(migrations, '0002_bad.sql'), 'CREATE TABLE u (a INTEGER); SELECT * FROM missing_table;');
  const store = await DuckDbEngine.open(path.join(dir, 'e.duckdb'));
  t.teardown(() => store.close());
  await t.rejects(migrateEvents(store, migrations), { message: /0002_bad\.sql failed/ });
  const tables = (await store.read("SELECT table_name FROM information_schema.tables WHERE table_name IN ('t', 'u')")).map((r) => r.table_name);
  t.same(tables, ['t'], 'the failed migration left no table');
  await writeFile(path.join(migrations, '0002_bad.sql'), 'CREATE TABLE u (a INTEGER);');
  t.same(
    (await migrateEvents(store, migrations)).map((m) => m.version),
    [2],
  );
  t.same(await migrateEvents(store, migrations), []);
  await writeFile(path.join(migrations, '0001_t.sql'), 'CREATE TABLE t (a BIGINT);');
  await t.rejects(migrateEvents(store, migrations), { message: /0001_t\.sql was changed/ });
});

t.test('file names must be NNNN_name.sql and numbers unique', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, '1_bad.sql'), '');
  t.throws(() => readMigrations(dir), { message: /not named NNNN_name\.sql/ });
  await rm(path.join(dir, '1_bad.sql'));
  await writeFile(path.join(dir, '0001_a.sql'), '');
  await writeFile(path.join(dir, '0001_b.sql'), '');
  t.throws(() => readMigrations(dir), { message: /share number 0001/ });
});

t.test('the shipped migrations apply to a fresh installation', async (t) => {
  const dir = await tempDir(t);
  const db = openMetaDb(path.join(dir, 'meta.sqlite'));
  t.teardown(() => db.close());
  t.ok(migrateMeta(db).length > 0);
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('synchronous', { simple: true }), 2, 'synchronous=FULL');
  t.equal(db.pragma('foreign_keys', { simple: true }), 1);
  const store = await DuckDbEngine.open(path.join(dir, 'events.duckdb'));
  t.teardown(() => store.close());
  t.ok((await migrateEvents(store)).length > 0);
});

/** A folder of the shipped migrations numbered before `first`: what an older installation had applied. */
async function migrationsBefore(dir: string, engine: 'sqlite' | 'duckdb', first: string): Promise<string> {
  const shipped = migrationsDir(engine);
  const before = path.join(dir, 'before');
  await mkdir(before);
  for (const file of readdirSync(shipped).filter((f) => f < first)) await copyFile(path.join(shipped, file), path.join(before, file));
  return before;
}

t.test('an upgrade clears stored paths that do not start with /', async (t) => {
  const dir = await tempDir(t);
  const before = await migrationsBefore(dir, 'duckdb', '0029');
  const store = await DuckDbEngine.open(path.join(dir, 'events.duckdb'));
  t.teardown(() => store.close());
  await migrateEvents(store, before);
  const row = (uuid: string, path: string | null) =>
    `(1, '${uuid}', TIMESTAMPTZ '2026-05-04 10:00:00+00', TIMESTAMPTZ '2026-05-04 10:00:00+00', 'pp.page_view', 'a', 'browser', ${path === null ? 'NULL' : `'${path}'`})`;
  const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
  await store.write(
    `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, path) VALUES ${[row(ids[0]!, 'sales@shop.example'), row(ids[1]!, '/pricing'), row(ids[2]!, null)].join(', ')}`,
  );
  await migrateEvents(store);
  const rows = await store.read('SELECT CAST(uuid AS VARCHAR) AS uuid, path FROM events ORDER BY uuid');
  t.same(rows, [
    { uuid: ids[0], path: null },
    { uuid: ids[1], path: '/pricing' },
    { uuid: ids[2], path: null },
  ]);
});

t.test('an upgrade gives every existing project the currency USD', async (t) => {
  const dir = await tempDir(t);
  const before = await migrationsBefore(dir, 'sqlite', '0062');
  const db = openMetaDb(path.join(dir, 'meta.sqlite'));
  t.teardown(() => db.close());
  migrateMeta(db, before);
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES (1, 'Shop', '2026-01-01T00:00:00Z')").run();
  db.prepare("INSERT INTO projects (id, org_id, name, created_at) VALUES (1, 1, 'Store', '2026-01-01T00:00:00Z')").run();
  migrateMeta(db);
  t.same(db.prepare('SELECT id, currency FROM projects').all(), [{ id: 1, currency: 'USD' }]);
});

t.test('an upgrade leaves every project storing no client address', async (t) => {
  const dir = await tempDir(t);
  const before = await migrationsBefore(dir, 'sqlite', '0069');
  const db = openMetaDb(path.join(dir, 'meta.sqlite'));
  t.teardown(() => db.close());
  migrateMeta(db, before);
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES (1, 'Shop', '2026-01-01T00:00:00Z')").run();
  db.prepare("INSERT INTO projects (id, org_id, name, created_at) VALUES (1, 1, 'Store', '2026-01-01T00:00:00Z')").run();
  db.prepare(
    "INSERT INTO behavior_settings (project_id, autocapture_clicks, autocapture_hover_intent, autocapture_sections, autocapture_scroll, autocapture_forms, privacy_mode, replay_enabled, replay_sample_rate, diagnostics_enabled, updated_at) VALUES (1, 1, 0, 0, 0, 0, 'standard', 0, 1, 0, '2026-01-01T00:00:00Z')",
  ).run();
  migrateMeta(db);
  t.same(db.prepare('SELECT project_id, store_client_address FROM behavior_settings').all(), [{ project_id: 1, store_client_address: 0 }]);
});
