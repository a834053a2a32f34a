// Applies numbered SQL files (migrations/<engine>/NNNN_name.sql) in order, each in its own
// transaction, and records each with a SHA-256 checksum. An applied file that changed is refused.
// The metadata store's here; the event engines' in engine/duckdb/migrations.ts and
// engine/clickhouse/migrations.ts, with the same plan.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MetaDb } from './sqlite.js';
import { packageRoot } from '../ground/packageRoot.js';

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
  applied_at: string;
}

export class MigrationError extends Error {}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export function migrationsDir(engine: 'sqlite' | 'duckdb' | 'clickhouse', root = path.join(packageRoot(), 'migrations')): string {
  return path.join(root, engine);
}

export function readMigrations(dir: string): Migration[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const seen = new Set<number>();
  return files.map((file) => {
    const m = FILE_PATTERN.exec(file);
    if (!m) throw new MigrationError(`migration file ${file} is not named NNNN_name.sql`);
    const version = Number(m[1]);
    if (seen.has(version)) throw new MigrationError(`two migrations share number ${m[1]} in ${dir}`);
    seen.add(version);
    const sql = readFileSync(path.join(dir, file), 'utf8');
    return { version, name: m[2]!, file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
  });
}

/** Which files are not applied yet; throws when an applied one has changed or vanished. */
export function planMigrations(all: Migration[], applied: AppliedMigration[]): Migration[] {
  const byVersion = new Map(all.map((m) => [m.version, m]));
  for (const a of applied) {
    const m = byVersion.get(a.version);
    if (!m) throw new MigrationError(`applied migration ${pad(a.version)}_${a.name} has no file any more`);
    if (m.checksum !== a.checksum) {
      throw new MigrationError(`migration ${m.file} was changed after it was applied (checksum ${a.checksum.slice(0, 12)} recorded, ${m.checksum.slice(0, 12)} now); restore the original file`);
    }
  }
  const done = new Set(applied.map((a) => a.version));
  return all.filter((m) => !done.has(m.version));
}

/** The table recording what was applied, the same in both engines. */
export const LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`;

export function migrateMeta(db: MetaDb, dir = migrationsDir('sqlite'), now = new Date()): Migration[] {
  db.exec(LEDGER);
  const applied = db.prepare('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version').all() as AppliedMigration[];
  const pending = planMigrations(readMigrations(dir), applied);
  for (const m of pending) {
    const apply = db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)').run(m.version, m.name, m.checksum, now.toISOString());
    });
    try {
      apply();
    } catch (err) {
      throw new MigrationError(`migration sqlite/${m.file} failed: ${(err as Error).message}`);
    }
  }
  return pending;
}

export function appliedMeta(db: MetaDb): AppliedMigration[] {
  db.exec(LEDGER);
  return db.prepare('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version').all() as AppliedMigration[];
}

function pad(n: number): string {
  return String(n).padStart(4, '0');
}
