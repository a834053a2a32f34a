// A consistent copy of both databases taken by the process that holds them, while it keeps serving:
// SQLite through its online backup API, DuckDB with COPY FROM DATABASE into a fresh file, which reads
// one transaction's snapshot. On the ClickHouse engine the events' side is a copy of each of the
// installation's tables (clickHouseBackup.ts). Packing, checksums and restore are
// installer/backup.ts and installer/restore.ts, which hash files with sha256File from here.

import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { Services } from '../http/services.js';
import { appliedMeta, type AppliedMigration } from '../store/migrate.js';
import { appliedEvents } from '../engine/duckdb/migrations.js';
import { copyClickHouse, type ClickHouseCopy } from './clickHouseBackup.js';

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export interface SnapshotFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Snapshot {
  pp_version: string;
  taken_at: string;
  files: SnapshotFile[];
  /** Row counts read from the copies themselves, so a restore can be checked against them. */
  counts: { events: number; users: number; projects: number };
  /** The event store's migrations: `duckdb`, or `clickhouse` for an installation on ClickHouse. */
  migrations: { sqlite: AppliedMigration[]; duckdb?: AppliedMigration[]; clickhouse?: AppliedMigration[] };
  /** On the ClickHouse engine: the copies of its tables, which `files` then leaves out (no events.duckdb). */
  clickhouse?: ClickHouseCopy;
}

export const META_FILE = 'meta.sqlite';
export const EVENTS_FILE = 'events.duckdb';
export const SECRET_FILE = 'secret.key';

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function takeSnapshot(services: Services, dir: string): Promise<Snapshot> {
  if (!path.isAbsolute(dir)) throw new Error('the snapshot folder must be an absolute path');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty`);
  const takenAt = services.clock.now().toISOString();

  await services.meta.backup(path.join(dir, META_FILE));
  if (services.events.kind === 'clickhouse') {
    const { copy, migrations, events } = await copyClickHouse(services.config.clickhouse, dir);
    return finish(services, dir, takenAt, events, { sqlite: appliedMeta(services.meta), clickhouse: migrations }, copy);
  }
  const migrations = { sqlite: appliedMeta(services.meta), duckdb: await appliedEvents(services.events) };

  const alias = `pp_snapshot_${randomBytes(6).toString('hex')}`;
  const [{ db }] = (await services.events.read('SELECT current_database() AS db')) as [{ db: string }];
  // ATTACH is visible to every connection of the instance, so the pooled readers may run these
  // statements; the copy is one statement, hence one consistent snapshot, and ingest carries on.
  await services.events.read(`ATTACH ${sqlString(path.join(dir, EVENTS_FILE))} AS ${alias}`);
  let events: number;
  try {
    await services.events.read(`COPY FROM DATABASE "${db.replaceAll('"', '""')}" TO ${alias}`);
    const [row] = await services.events.read(`SELECT count(*) AS n FROM ${alias}.main.events`);
    events = Number(row!.n);
  } finally {
    await services.events.read(`DETACH ${alias}`);
  }
  return finish(services, dir, takenAt, events, migrations);
}

/** The server secret beside the copies, the copies' counts and checksums. */
async function finish(services: Services, dir: string, takenAt: string, events: number, migrations: Snapshot['migrations'], clickhouse?: ClickHouseCopy): Promise<Snapshot> {
  const secret = path.join(services.config.data_dir, SECRET_FILE);
  if (existsSync(secret)) copyFileSync(secret, path.join(dir, SECRET_FILE));

  const copy = new Database(path.join(dir, META_FILE), { readonly: true });
  const count = (table: string) => (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const [users, projects] = [count('users'), count('projects')];
  copy.close();
  const files: SnapshotFile[] = [];
  for (const name of [META_FILE, EVENTS_FILE, SECRET_FILE]) {
    const file = path.join(dir, name);
    if (existsSync(file)) files.push({ name, bytes: statSync(file).size, sha256: await sha256File(file) });
  }
  return { pp_version: services.version, taken_at: takenAt, files, counts: { events, users, projects }, migrations, ...(clickhouse ? { clickhouse } : {}) };
}
