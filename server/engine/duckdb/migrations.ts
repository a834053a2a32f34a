// The event engine's migrations: the numbered files of migrations/duckdb applied in order, each in
// its own transaction, and recorded in the same ledger as the metadata store's (store/migrate.ts
// reads and plans them).

import type { EventEngine } from '../engine.js';
import { LEDGER, MigrationError, migrationsDir, planMigrations, readMigrations, type AppliedMigration, type Migration } from '../../store/migrate.js';

export async function migrateEvents(store: EventEngine, dir = migrationsDir('duckdb'), now = new Date()): Promise<Migration[]> {
  await store.write(LEDGER);
  const rows = await store.read('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version');
  const applied = rows.map((r) => ({ version: Number(r.version), name: String(r.name), checksum: String(r.checksum), applied_at: String(r.applied_at) }));
  const pending = planMigrations(readMigrations(dir), applied);
  for (const m of pending) {
    await store.write('BEGIN TRANSACTION');
    try {
      await store.write(m.sql);
      await store.write('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)', [m.version, m.name, m.checksum, now.toISOString()]);
      await store.write('COMMIT');
    } catch (err) {
      await store.write('ROLLBACK').catch(() => undefined);
      throw new MigrationError(`migration duckdb/${m.file} failed: ${(err as Error).message}`);
    }
  }
  return pending;
}

/** What the events store has applied; a read only, so it can run beside ingest. */
export async function appliedEvents(store: EventEngine): Promise<AppliedMigration[]> {
  const [ledger] = await store.read("SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migrations'");
  if (Number(ledger!.n) === 0) return [];
  const rows = await store.read('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version');
  return rows.map((r) => ({ version: Number(r.version), name: String(r.name), checksum: String(r.checksum), applied_at: String(r.applied_at) }));
}
