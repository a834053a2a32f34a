// The ClickHouse engine's migrations: the numbered files of migrations/clickhouse applied in order
// (planned and checksummed as the other stores' are, store/migrate.ts), each statement on every
// node of the cluster (ON CLUSTER) when one is set, and recorded in `schema_migrations` in the
// installation's database. ClickHouse has no transactions: every statement is written to be
// applied again harmlessly (IF NOT EXISTS), so a file cut short by a failure is applied again whole.
//
// A file is a template; the runner fills in its marks:
//   {{db}}                  the installation's database (an identifier)
//   {{cluster}}             the cluster's name (an identifier; only in {{cluster_only}} statements)
//   {{on_cluster}}          ON CLUSTER <cluster>, or nothing on one node
//   {{local:T}}             the table holding this node's rows of T: T_local on a cluster (under
//                           the Distributed table T), T itself on one node
//   {{sharded:T}}           the engine of T's rows on one shard: ReplicatedReplacingMergeTree when
//                           the cluster's shards have replicas, ReplacingMergeTree otherwise
//   {{everywhere:T}}        the engine of a table whose rows every node holds: replicated across
//                           the whole cluster, ReplacingMergeTree on one node
//   {{everywhere:T:V}}      the same, keeping of the rows of one key the one with the largest V
//   {{low_cardinality:X}}   LowCardinality(X) where the server has it on by default (19.1 and
//                           newer), X on 18.16, where it is experimental
//   {{cluster_only}}        at the start of a statement: run on a cluster only
//   {{unless_column:T:C}}   at the start of a statement (after {{cluster_only}}): run only where
//                           the table T has no column C yet (18.16 has no ADD COLUMN IF NOT
//                           EXISTS); `local:T` names the table holding this node's rows of T
// Replicated tables' ZooKeeper paths hold the database's name, so two installations (two
// databases) can share a cluster.

import { MigrationError, migrationsDir, planMigrations, readMigrations, type AppliedMigration, type Migration } from '../../store/migrate.js';
import { ClickHouseConnection } from './connection.js';
import type { ClickHouseSettings } from '../../ground/config.js';
import { identifier, sql } from './literal.js';

/** What the runner learned of the servers, which decides how the marks are filled in. */
export interface Topology {
  database: string;
  cluster: string | undefined;
  /** The cluster's shards have more than one replica each. */
  replicated: boolean;
  /** Replicas per shard (1 on one node). */
  replicas: number;
  /** The server's major version (18 for Debian's 18.16). */
  major: number;
}

export async function topologyOf(conn: ClickHouseConnection): Promise<Topology> {
  const [version] = await conn.query<{ v: string }>('SELECT version() AS v', { bare: true });
  const major = Number(version!.v.split('.')[0]);
  const cluster = conn.cluster;
  let replicas = 1;
  if (cluster !== undefined) {
    const [shape] = await conn.query<{ hosts: string; replicas: string }>(sql`SELECT count() AS hosts, max(replica_num) AS replicas FROM system.clusters WHERE cluster = ${cluster}`, { bare: true });
    if (Number(shape!.hosts) === 0) throw new MigrationError(`clickhouse.cluster ${cluster} is not among the clusters of ${conn.url} (its remote_servers)`);
    replicas = Number(shape!.replicas);
  }
  return { database: conn.settings.database, cluster, replicated: replicas > 1, replicas, major };
}

const ZK_ROOT = '/clickhouse/pp';

/** A statement of a file, with the marks filled in. */
export interface RenderedStatement {
  sql: string;
  /** Run only where this table has no such column yet. */
  unlessColumn?: { table: string; column: string };
}

/** One file's statements with the marks filled in for `topology`. */
export function renderMigration(template: string, topology: Topology): string[] {
  return renderStatements(template, topology).map((s) => s.sql);
}

/** One file's statements with the marks filled in for `topology`, and when each runs. */
export function renderStatements(template: string, topology: Topology): RenderedStatement[] {
  const { cluster, database } = topology;
  const db = identifier(database).text;
  const zk = (scope: string, table: string) => `'${ZK_ROOT}/${database}/tables/${scope}/${table}'`;
  const engine = (kind: string, table: string, version: string | undefined): string => {
    const v = version === undefined ? '' : identifier(version).text;
    if (kind === 'sharded') return cluster && topology.replicated ? `ReplicatedReplacingMergeTree(${zk('{shard}', table)}, '{replica}'${v && `, ${v}`})` : `ReplacingMergeTree${v && `(${v})`}`;
    // On a cluster every node holds the rows: one replication group of all of them.
    return cluster ? `ReplicatedReplacingMergeTree(${zk('all', table)}, '{shard}-{replica}'${v && `, ${v}`})` : `ReplacingMergeTree${v && `(${v})`}`;
  };
  const statements: RenderedStatement[] = [];
  for (const statement of splitStatements(template)) {
    let text = statement;
    const clusterOnly = text.startsWith('{{cluster_only}}');
    if (clusterOnly) {
      if (!cluster) continue;
      text = text.slice('{{cluster_only}}'.length).trimStart();
    }
    let unlessColumn: RenderedStatement['unlessColumn'];
    if (text.startsWith('{{unless_column:')) {
      const close = text.indexOf('}}');
      const parts = text.slice('{{unless_column:'.length, close).split(':');
      const local = parts.length === 3 && parts[0] === 'local';
      if (parts.length !== (local ? 3 : 2)) throw new MigrationError(`a malformed mark ${text.slice(0, close + 2)}`);
      const table = local ? parts[1]! : parts[0]!;
      unlessColumn = { table: local && cluster ? `${table}_local` : table, column: parts.at(-1)! };
      text = text.slice(close + 2).trimStart();
    }
    text = fillMarks(text, (mark) => {
      const [name, arg] = splitOnce(mark, ':');
      switch (name) {
        case 'db':
          return db;
        case 'cluster':
          if (!cluster) throw new MigrationError('{{cluster}} outside a {{cluster_only}} statement');
          return identifier(cluster).text;
        case 'on_cluster':
          return cluster ? `ON CLUSTER ${identifier(cluster).text}` : '';
        case 'local':
          return identifier(cluster ? `${arg}_local` : arg!).text;
        case 'sharded':
        case 'everywhere': {
          const [table, version] = splitOnce(arg!, ':');
          return engine(name, table, version);
        }
        case 'low_cardinality':
          return topology.major >= 19 ? `LowCardinality(${arg})` : arg!;
      }
      throw new MigrationError(`unknown mark {{${mark}}}`);
    });
    statements.push(unlessColumn ? { sql: text, unlessColumn } : { sql: text });
  }
  return statements;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const at = s.indexOf(sep);
  return at < 0 ? [s, undefined] : [s.slice(0, at), s.slice(at + 1)];
}

function fillMarks(text: string, fill: (mark: string) => string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', from)) {
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new MigrationError(`an unclosed {{ in: ${text.slice(open, open + 40)}`);
    out += text.slice(from, open) + fill(text.slice(open + 2, close));
    from = close + 2;
  }
  return out + text.slice(from);
}

/** The statements of a file: split at each `;` outside quotes and comments, comments dropped. */
export function splitStatements(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
      continue;
    }
    if (c === "'" || c === '`' || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      current += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** The ledger: one row per applied file, held by every node. */
function ledgerSql(topology: Topology): string {
  return renderMigration(
    `CREATE TABLE IF NOT EXISTS {{db}}.schema_migrations {{on_cluster}} (version UInt32, name String, checksum String, applied_at String)
       ENGINE = {{everywhere:schema_migrations}} ORDER BY version`,
    topology,
  )[0]!;
}

export async function appliedClickHouse(conn: ClickHouseConnection): Promise<AppliedMigration[]> {
  const [exists] = await conn.query<{ n: string }>(sql`SELECT count() AS n FROM system.tables WHERE database = ${conn.settings.database} AND name = 'schema_migrations'`, { bare: true });
  if (Number(exists!.n) === 0) return [];
  // A file recorded twice (applied again after a failure before the ledger's merge) counts once.
  const rows = await conn.query<{ version: number; name: string; checksum: string; applied_at: string }>(
    `SELECT version, any(name) AS name, any(checksum) AS checksum, min(applied_at) AS applied_at FROM ${identifier(conn.settings.database).text}.schema_migrations GROUP BY version ORDER BY version`,
    { bare: true },
  );
  return rows.map((r) => ({ version: Number(r.version), name: r.name, checksum: r.checksum, applied_at: r.applied_at }));
}

/** Applies one file's statements, each where its marks say (applied again, a file changes nothing). */
export async function applyMigration(conn: ClickHouseConnection, template: string, topology: Topology): Promise<void> {
  for (const statement of renderStatements(template, topology)) {
    const need = statement.unlessColumn;
    if (need) {
      const [held] = await conn.query<{ n: string }>(sql`SELECT count() AS n FROM system.columns WHERE database = ${topology.database} AND table = ${need.table} AND name = ${need.column}`, {
        bare: true,
      });
      if (Number(held!.n) > 0) continue;
    }
    await conn.command(statement.sql, { bare: true });
  }
}

/** The applied migrations, read over a connection of its own (`ppctl migrations`). */
export async function appliedOnClickHouse(settings: ClickHouseSettings): Promise<AppliedMigration[]> {
  const conn = new ClickHouseConnection(settings, { requestTimeoutMs: 30_000 });
  try {
    return await appliedClickHouse(conn);
  } finally {
    await conn.close();
  }
}

/** Creates the database and applies what is pending; answers what it applied. */
export async function migrateClickHouse(conn: ClickHouseConnection, dir = migrationsDir('clickhouse'), now = new Date()): Promise<Migration[]> {
  const topology = await topologyOf(conn);
  const onCluster = topology.cluster ? ` ON CLUSTER ${identifier(topology.cluster).text}` : '';
  await conn.command(`CREATE DATABASE IF NOT EXISTS ${identifier(topology.database).text}${onCluster}`, { bare: true });
  await conn.command(ledgerSql(topology), { bare: true });
  const pending = planMigrations(readMigrations(dir), await appliedClickHouse(conn));
  for (const m of pending) {
    try {
      await applyMigration(conn, m.sql, topology);
      await conn.command(
        `INSERT INTO ${identifier(topology.database).text}.schema_migrations (version, name, checksum, applied_at) VALUES ${sql`(${m.version}, ${m.name}, ${m.checksum}, ${now.toISOString()})`}`,
        { bare: true },
      );
    } catch (err) {
      throw new MigrationError(`migration clickhouse/${m.file} failed: ${(err as Error).message}`);
    }
  }
  return pending;
}
