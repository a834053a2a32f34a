// Integrity of both databases for `ppctl doctor`: SQLite's integrity_check and every DuckDB table
// read, plus the applied migrations. The server runs it over the admin socket while it holds the
// files; with no server, the files are opened read-only here.

import Database from 'better-sqlite3';
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppliedMigration } from '../store/migrate.js';
import { EVENTS_FILE, META_FILE } from './snapshot.js';

type Rows = Array<Record<string, unknown>>;

export interface EngineCheck {
  ok: boolean;
  detail: string;
}

export interface DatabaseReport {
  sqlite: EngineCheck;
  /** Absent when the events are not on DuckDB (events.engine clickhouse: clickHouseChecks.ts). */
  duckdb?: EngineCheck;
  applied: { sqlite: AppliedMigration[]; duckdb: AppliedMigration[] };
}

const LEDGER_SQL = 'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version';

function toApplied(rows: Rows): AppliedMigration[] {
  return rows.map((r) => ({ version: Number(r.version), name: String(r.name), checksum: String(r.checksum), applied_at: String(r.applied_at) }));
}

export async function checkDatabases(meta: Database.Database, readEvents: ((sql: string) => Promise<Rows>) | undefined): Promise<DatabaseReport> {
  let sqlite: EngineCheck;
  let appliedSqlite: AppliedMigration[] = [];
  try {
    const problems = (meta.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    sqlite = problems.length === 1 && problems[0] === 'ok' ? { ok: true, detail: 'integrity_check ok' } : { ok: false, detail: problems.slice(0, 5).join('; ') };
    appliedSqlite = toApplied(meta.prepare(LEDGER_SQL).all() as Rows);
  } catch (err) {
    sqlite = { ok: false, detail: (err as Error).message };
  }
  if (!readEvents) return { sqlite, applied: { sqlite: appliedSqlite, duckdb: [] } };
  let duckdb: EngineCheck;
  let appliedDuckdb: AppliedMigration[] = [];
  try {
    const tables = (await readEvents('SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()')) as Array<{ schema_name: string; table_name: string }>;
    let rows = 0;
    for (const t of tables) {
      const [r] = await readEvents(`SELECT count(*) AS n FROM "${t.schema_name.replaceAll('"', '""')}"."${t.table_name.replaceAll('"', '""')}"`);
      rows += Number(r!.n);
    }
    appliedDuckdb = toApplied(await readEvents(LEDGER_SQL));
    duckdb = { ok: true, detail: `${tables.length} tables readable, ${rows} rows` };
  } catch (err) {
    duckdb = { ok: false, detail: (err as Error).message };
  }
  return { sqlite, duckdb, applied: { sqlite: appliedSqlite, duckdb: appliedDuckdb } };
}

/** The same checks on the files of a stopped server, opened read-only (the DuckDB file only when it holds the events). */
export async function checkDatabaseFiles(dataDir: string, eventsOnDuckDb = true): Promise<DatabaseReport> {
  const metaFile = path.join(dataDir, META_FILE);
  const eventsFile = path.join(dataDir, EVENTS_FILE);
  if (!eventsOnDuckDb) {
    if (!existsSync(metaFile)) return { sqlite: { ok: false, detail: `${metaFile} does not exist` }, applied: { sqlite: [], duckdb: [] } };
    const meta = new Database(metaFile, { readonly: true, fileMustExist: true });
    try {
      return await checkDatabases(meta, undefined);
    } finally {
      meta.close();
    }
  }
  const missing = (f: string) => ({ ok: false, detail: `${f} does not exist` });
  if (!existsSync(metaFile) || !existsSync(eventsFile)) {
    return {
      sqlite: existsSync(metaFile) ? { ok: true, detail: 'not checked' } : missing(metaFile),
      duckdb: existsSync(eventsFile) ? { ok: true, detail: 'not checked' } : missing(eventsFile),
      applied: { sqlite: [], duckdb: [] },
    };
  }
  const meta = new Database(metaFile, { readonly: true, fileMustExist: true });
  let instance: DuckDBInstance | undefined;
  try {
    instance = await DuckDBInstance.create(eventsFile, { access_mode: 'READ_ONLY', autoinstall_known_extensions: 'false' });
  } catch (err) {
    const report = await checkDatabases(meta, () => Promise.reject(err));
    meta.close();
    return report;
  }
  const conn = await instance.connect();
  try {
    return await checkDatabases(meta, async (sql) => (await conn.runAndReadAll(sql)).getRowObjects() as Rows);
  } finally {
    conn.closeSync();
    instance.closeSync();
    meta.close();
  }
}
