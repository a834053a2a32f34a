// The ClickHouse side of `ppctl backup` and `ppctl restore`: the installation's tables copied out
// over HTTP (`SELECT … FINAL FORMAT Native`, gzip) into files the backup packs beside meta.sqlite,
// and loaded back (`INSERT … FORMAT Native`) into the same or another cluster. The backup file
// alone restores the installation: nothing is left on the nodes (a `FREEZE`'s shadow folder would
// be), which an operator on a network without internet access can carry and check by its SHA-256.
//
// A sharded table is read through its Distributed table (one replica of every shard) and written
// back through it (`insert_distributed_sync`, each row to the shard its key names, on two replicas
// when the shards have them); a table every node holds is read from and written to one node, its
// replicas fetching the rows. ingest_journal is read first: an event loaded while the copy runs is
// in the copy of `events` or past the copied journal position, never lost from both.

import { createReadStream, createWriteStream, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createGunzip, createGzip } from 'node:zlib';
import type { ClickHouseSettings } from '../ground/config.js';
import { ClickHouseConnection, QUORUM_WRITE } from '../engine/clickhouse/connection.js';
import { identifier, sql } from '../engine/clickhouse/literal.js';
import { appliedClickHouse, migrateClickHouse, topologyOf } from '../engine/clickhouse/migrations.js';
import type { AppliedMigration } from '../store/migrate.js';
import { sha256File, type SnapshotFile } from './snapshot.js';

/** The folder of the copies inside a snapshot's folder (and under `data/` in a backup). */
export const CLICKHOUSE_DIR = 'clickhouse';

/** The installation's tables in the order they are copied; `sharded`: its rows are spread over the shards. */
export const CLICKHOUSE_TABLES = [
  { name: 'ingest_journal', sharded: false },
  { name: 'events', sharded: true },
  { name: 'ingest_rejections', sharded: true },
  { name: 'identity_links', sharded: false },
  { name: 'actor_traits', sharded: false },
  { name: 'element_captures', sharded: false },
  { name: 'replay_chunks', sharded: true },
  { name: 'schema_migrations', sharded: false },
] as const;

export interface ClickHouseTableCopy extends SnapshotFile {
  table: string;
  /** Rows copied (each row once: read with FINAL). */
  rows: number;
  /** The columns in the file, in its order, as the table had them. */
  columns: Array<{ name: string; type: string }>;
}

export interface ClickHouseCopy {
  database: string;
  cluster: string | null;
  tables: ClickHouseTableCopy[];
}

/** A copy's file name relative to the snapshot's folder. */
export const copyFileName = (table: string) => `${CLICKHOUSE_DIR}/${table}.native.gz`;

/** Copies may take long on a large installation: a request is not abandoned before this (ms). */
const COPY_TIMEOUT_MS = 24 * 3600 * 1000;

function connect(settings: ClickHouseSettings): ClickHouseConnection {
  return new ClickHouseConnection(settings, { requestTimeoutMs: COPY_TIMEOUT_MS });
}

async function existingTables(conn: ClickHouseConnection): Promise<Set<string>> {
  const rows = await conn.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${conn.settings.database}`, { bare: true });
  return new Set(rows.map((r) => r.name));
}

async function columnsOf(conn: ClickHouseConnection, table: string): Promise<Array<{ name: string; type: string }>> {
  const rows = await conn.query<{ name: string; type: string; default_type: string }>(`DESCRIBE TABLE ${conn.database.text}.${identifier(table).text}`, { bare: true });
  // Columns ClickHouse computes itself are not written back.
  return rows.filter((r) => r.default_type !== 'MATERIALIZED' && r.default_type !== 'ALIAS').map((r) => ({ name: r.name, type: r.type }));
}

/** Writes a copy of every table of the installation's database into `dir/clickhouse/`; answers what it wrote and the applied migrations. */
export async function copyClickHouse(settings: ClickHouseSettings, dir: string): Promise<{ copy: ClickHouseCopy; migrations: AppliedMigration[]; events: number }> {
  const conn = connect(settings);
  try {
    mkdirSync(path.join(dir, CLICKHOUSE_DIR), { recursive: true, mode: 0o700 });
    const present = await existingTables(conn);
    // A table a migration added and this list lacks would be left out of every backup unseen.
    const known = new Set<string>(CLICKHOUSE_TABLES.map((t) => t.name));
    const unknown = [...present].filter((name) => !known.has(name) && !(name.endsWith('_local') && known.has(name.slice(0, -'_local'.length))));
    if (unknown.length > 0) throw new Error(`the backup does not know how to copy ClickHouse table(s) ${unknown.join(', ')}`);
    const migrations = await appliedClickHouse(conn);
    const tables: ClickHouseTableCopy[] = [];
    let events = 0;
    for (const { name } of CLICKHOUSE_TABLES) {
      if (!present.has(name)) continue;
      const columns = await columnsOf(conn, name);
      const list = columns.map((c) => identifier(c.name).text).join(', ');
      const file = copyFileName(name);
      const at = path.join(dir, file);
      // Each row once (FINAL), as the reads see them.
      const rowsOf = `SELECT ${list} FROM ${conn.database.text}.${identifier(name).text} FINAL`;
      await conn.download(`${rowsOf} FORMAT Native`, () => [createGzip({ level: 1 }), createWriteStream(at, { mode: 0o600 })]);
      // Counted once copied: the same rows while nothing is loaded (pp stopped, as for an upgrade's backup).
      const [counted] = await conn.query<{ n: string }>(`SELECT count() AS n FROM (${rowsOf})`);
      const rows = Number(counted!.n);
      if (name === 'events') events = rows;
      tables.push({ table: name, name: file, rows, columns, bytes: statSync(at).size, sha256: await sha256File(at) });
    }
    return { copy: { database: settings.database, cluster: settings.cluster ?? null, tables }, migrations, events };
  } finally {
    await conn.close();
  }
}

/**
 * Puts the copies in `dir` back into the installation's database named by `settings` (the same
 * cluster or a new one): the migrations ledger first, then this release's migrations (creating
 * the database and tables where they are missing), then each table emptied and filled from its
 * copy. Run again after a failure, it gives the same result.
 */
export async function restoreClickHouse(settings: ClickHouseSettings, dir: string, copy: ClickHouseCopy): Promise<Array<{ table: string; rows: number }>> {
  const conn = connect(settings);
  try {
    const topology = await topologyOf(conn);
    const onCluster = topology.cluster ? ` ON CLUSTER ${identifier(topology.cluster).text}` : '';
    const local = (table: string, sharded: boolean) => `${conn.database.text}.${identifier(sharded && topology.cluster ? `${table}_local` : table).text}`;
    const sharded = (table: string) => CLICKHOUSE_TABLES.find((t) => t.name === table)?.sharded ?? false;
    // A block identical to one stored before the emptying would be taken for a repeat and dropped.
    const once = { insert_deduplicate: 0 };
    const load = async (t: ClickHouseTableCopy) => {
      await conn.command(`TRUNCATE TABLE ${local(t.table, sharded(t.table))}${onCluster}`, { bare: true });
      if (t.rows === 0) return;
      const settings = sharded(t.table) ? { ...once, insert_distributed_sync: 1, ...(topology.replicated ? QUORUM_WRITE : {}) } : once;
      const list = t.columns.map((c) => identifier(c.name).text).join(', ');
      await conn.upload(`INSERT INTO ${conn.database.text}.${identifier(t.table).text} (${list}) FORMAT Native`, () => createReadStream(path.join(dir, t.name)).pipe(createGunzip()), settings);
    };
    const ledger = copy.tables.find((t) => t.table === 'schema_migrations');
    if (ledger && (await existingTables(conn)).has('schema_migrations')) await load(ledger);
    await migrateClickHouse(conn);
    const loaded: Array<{ table: string; rows: number }> = [];
    for (const t of copy.tables) {
      if (t.table !== 'schema_migrations') await load(t);
      loaded.push({ table: t.table, rows: t.rows });
    }
    // A new cluster's ledger, written by the migrations above, becomes the backup's (its pending files are applied again, harmlessly, at the next start).
    if (ledger) await load(ledger);
    return loaded;
  } finally {
    await conn.close();
  }
}
