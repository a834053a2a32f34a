// The ClickHouse part of `ppctl doctor` (events.engine clickhouse): every node of clickhouse.urls
// answers, runs 18.16 or newer, sees the cluster alike (every shard's replicas answering), holds
// the macros the replicated tables need and replicas that are writable and keeping up, and the
// database has this release's migrations. Each check names what is wrong in plain words. It runs in
// ppctl's own process, whether or not a server is running: it only reads the nodes.

import type { ClickHouseSettings } from '../ground/config.js';
import type { AppliedMigration } from '../store/migrate.js';
import { ClickHouseConnection } from '../engine/clickhouse/connection.js';
import { appliedClickHouse } from '../engine/clickhouse/migrations.js';
import { sql } from '../engine/clickhouse/literal.js';

export interface ClickHouseCheck {
  name: string;
  level: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

export interface ClickHouseReport {
  checks: ClickHouseCheck[];
  /** The database's applied migrations, or undefined when no node answered. */
  applied: AppliedMigration[] | undefined;
}

/** The oldest server pp's statements are written for (Debian 12's clickhouse-server). */
const OLDEST = [18, 16] as const;
/** A replica this far behind (seconds) or with this many entries queued is worth a look. */
const DELAY_WARN_S = 300;
const QUEUE_WARN = 1000;
const TIMEOUT_MS = 10_000;

interface NodeState {
  url: string;
  conn: ClickHouseConnection;
  version?: string;
  error?: string;
}

export function versionTooOld(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < OLDEST[0] || (major === OLDEST[0] && minor < OLDEST[1]);
}

export async function checkClickHouse(settings: ClickHouseSettings): Promise<ClickHouseReport> {
  const checks: ClickHouseCheck[] = [];
  const add = (name: string, level: ClickHouseCheck['level'], message: string, fix?: string) => void checks.push({ name, level, message, ...(fix ? { fix } : {}) });
  const nodes: NodeState[] = settings.urls.map((url) => ({ url, conn: new ClickHouseConnection({ ...settings, urls: [url] }, { requestTimeoutMs: TIMEOUT_MS }) }));
  try {
    await Promise.all(
      nodes.map(async (n) => {
        try {
          const [row] = await n.conn.query<{ v: string }>('SELECT version() AS v', { bare: true });
          n.version = row!.v;
        } catch (err) {
          n.error = plain(err);
        }
      }),
    );
    const up = nodes.filter((n) => n.version !== undefined);
    const down = nodes.filter((n) => n.version === undefined);
    if (nodes.length === 0) add('clickhouse nodes', 'fail', 'clickhouse.urls names no node', 'set clickhouse.urls (PP_CLICKHOUSE_URLS) to the HTTP URLs of the nodes');
    else if (down.length > 0) {
      const what = down.map((n) => `${n.url} (${n.error})`).join('; ');
      const still = up.length > 0 ? `pp uses the others meanwhile; ${up.length} of ${nodes.length} answer` : 'pp cannot store or read events: acknowledged events wait in the ingest journal';
      add(
        'clickhouse nodes',
        'fail',
        `${down.length === 1 ? 'a node does' : `${down.length} nodes do`} not answer: ${what}; ${still}`,
        'start the node or fix its address in clickhouse.urls; check the user and password (clickhouse.user, clickhouse.password)',
      );
    } else add('clickhouse nodes', 'ok', `${nodes.length} node${nodes.length === 1 ? '' : 's'} answer${nodes.length === 1 ? 's' : ''}: ${nodes.map((n) => n.url).join(', ')}`);

    const old = up.filter((n) => versionTooOld(n.version!));
    if (old.length > 0)
      add('clickhouse version', 'fail', `pp needs ClickHouse ${OLDEST.join('.')} or newer: ${old.map((n) => `${n.url} runs ${n.version}`).join(', ')}`, 'upgrade ClickHouse on those nodes');
    else if (up.length > 0) {
      const versions = [...new Set(up.map((n) => n.version!))];
      add('clickhouse version', 'ok', versions.length === 1 ? `ClickHouse ${versions[0]} on every node that answers` : `ClickHouse ${versions.join(', ')} (the nodes differ; each is new enough)`);
    }

    if (settings.cluster !== undefined && up.length > 0) await clusterChecks(settings, up, add);

    let applied: AppliedMigration[] | undefined;
    if (up.length > 0) {
      const all = new ClickHouseConnection({ ...settings, urls: up.map((n) => n.url) }, { requestTimeoutMs: TIMEOUT_MS });
      try {
        applied = await appliedClickHouse(all);
      } catch (err) {
        add('clickhouse migrations', 'fail', `cannot read ${settings.database}.schema_migrations: ${plain(err)}`, 'ppctl logs; the server creates and migrates its tables when it starts');
      } finally {
        await all.close();
      }
    }
    return { checks, applied };
  } finally {
    await Promise.all(nodes.map((n) => n.conn.close()));
  }
}

interface ClusterRow {
  shard_num: number;
  replica_num: number;
  host_name: string;
  port: number;
}

async function clusterChecks(settings: ClickHouseSettings, up: NodeState[], add: (name: string, level: ClickHouseCheck['level'], message: string, fix?: string) => void): Promise<void> {
  const cluster = settings.cluster!;
  // Each node's description of the cluster: the same on all, or ON CLUSTER statements and reads go astray.
  const described = await Promise.all(
    up.map(async (n) => {
      try {
        const rows = await n.conn.query<ClusterRow>(sql`SELECT shard_num, replica_num, host_name, port FROM system.clusters WHERE cluster = ${cluster} ORDER BY shard_num, replica_num`, {
          bare: true,
        });
        const names = rows.length === 0 ? (await n.conn.query<{ cluster: string }>('SELECT DISTINCT cluster FROM system.clusters ORDER BY cluster', { bare: true })).map((r) => r.cluster) : [];
        return { node: n, rows, names };
      } catch (err) {
        return { node: n, rows: [] as ClusterRow[], names: [] as string[], error: plain(err) };
      }
    }),
  );
  const missing = described.filter((d) => d.rows.length === 0);
  if (missing.length > 0) {
    const what = missing.map((d) => (d.error ? `${d.node.url} (${d.error})` : `${d.node.url} (its clusters: ${d.names.length ? d.names.join(', ') : 'none'})`)).join('; ');
    add(
      'clickhouse cluster',
      'fail',
      `clickhouse.cluster ${cluster} is not in the remote_servers of ${what}`,
      "set clickhouse.cluster to the cluster's name in the nodes' remote_servers, or add it there on every node",
    );
    return;
  }
  const shape = (rows: ClusterRow[]) => rows.map((r) => `${r.shard_num}/${r.replica_num}/${r.host_name}:${r.port}`).join(' ');
  const first = described[0]!;
  const differing = described.filter((d) => shape(d.rows) !== shape(first.rows));
  const shards = new Map<number, ClusterRow[]>();
  for (const r of first.rows) shards.set(Number(r.shard_num), [...(shards.get(Number(r.shard_num)) ?? []), r]);
  const replicaCounts = [...shards.values()].map((rs) => rs.length);
  const layout = `${shards.size} shard${shards.size === 1 ? '' : 's'} × ${Math.min(...replicaCounts)}${Math.max(...replicaCounts) !== Math.min(...replicaCounts) ? `–${Math.max(...replicaCounts)}` : ''} replica${Math.max(...replicaCounts) === 1 ? '' : 's'}`;
  if (differing.length > 0) {
    add(
      'clickhouse cluster',
      'fail',
      `the nodes describe cluster ${cluster} differently: ${first.node.url} has ${shape(first.rows)}, ${differing.map((d) => `${d.node.url} has ${shape(d.rows)}`).join('; ')}`,
      'give every node the same remote_servers',
    );
    return;
  }
  // Every replica answers the native protocol, as the Distributed tables reach it.
  const silent: string[] = [];
  for (const r of first.rows) {
    try {
      await first.node.conn.query(sql`SELECT 1 FROM remote(${hostPort(r)}, system.one)`, { bare: true, settings: { connect_timeout_with_failover_ms: 1000, connections_with_failover_max_tries: 1 } });
    } catch (err) {
      silent.push(`shard ${r.shard_num} replica ${r.replica_num} (${hostPort(r)}): ${firstLine(plain(err))}`);
    }
  }
  if (silent.length > 0)
    add(
      'clickhouse cluster',
      'fail',
      `cluster ${cluster} (${layout}): ${silent.length === 1 ? 'a replica does' : `${silent.length} replicas do`} not answer: ${silent.join('; ')}`,
      'start those nodes; while a replica of a shard is down pp holds loading back (the journal keeps the events) and reads go to the other replica',
    );
  else add('clickhouse cluster', 'ok', `cluster ${cluster}: ${layout}, every replica answers`);
  const hosts = first.rows.length;
  if (settings.urls.length < hosts)
    add('clickhouse urls', 'warn', `clickhouse.urls names ${settings.urls.length} of the cluster's ${hosts} nodes; pp moves only between those when one stops answering`, 'list every node');

  // The macros the replicated tables' ZooKeeper paths use, distinct on every node.
  const macros = await Promise.all(
    up.map(async (n) => {
      try {
        const rows = await n.conn.query<{ macro: string; substitution: string }>('SELECT macro, substitution FROM system.macros', { bare: true });
        return { node: n, values: new Map(rows.map((r) => [r.macro, r.substitution])) };
      } catch (err) {
        return { node: n, values: new Map<string, string>(), error: plain(err) };
      }
    }),
  );
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const m of macros) {
    const lacking = ['shard', 'replica'].filter((k) => !m.values.get(k));
    if (m.error) problems.push(`${m.node.url}: ${m.error}`);
    else if (lacking.length > 0) problems.push(`${m.node.url} has no ${lacking.map((k) => `{${k}}`).join(' or ')} macro`);
    else {
      const place = `${m.values.get('shard')}-${m.values.get('replica')}`;
      const other = seen.get(place);
      if (other) problems.push(`${m.node.url} and ${other} both have shard ${m.values.get('shard')} replica ${m.values.get('replica')}`);
      seen.set(place, m.node.url);
    }
  }
  if (problems.length > 0)
    add('clickhouse macros', 'fail', problems.join('; '), "give every node <macros> with its own <shard> and <replica> (pp's replicated tables use them in their ZooKeeper paths)");
  else add('clickhouse macros', 'ok', `{shard} and {replica} on every node that answers (${macros.map((m) => `${m.values.get('shard')}/${m.values.get('replica')}`).join(', ')})`);

  // The replicated tables: writable (a replica without its ZooKeeper session is read-only) and keeping up.
  const readOnly: string[] = [];
  const behind: string[] = [];
  let tables = 0;
  for (const n of up) {
    try {
      const rows = await n.conn.query<{ table: string; is_readonly: number; is_session_expired: number; queue_size: number; absolute_delay: string; total_replicas: number; active_replicas: number }>(
        sql`SELECT table, is_readonly, is_session_expired, queue_size, absolute_delay, total_replicas, active_replicas FROM system.replicas WHERE database = ${settings.database} ORDER BY table`,
        { bare: true },
      );
      tables += rows.length;
      for (const r of rows) {
        if (Number(r.is_readonly) || Number(r.is_session_expired)) readOnly.push(`${r.table} on ${n.url}`);
        else if (Number(r.queue_size) > QUEUE_WARN || Number(r.absolute_delay) > DELAY_WARN_S) behind.push(`${r.table} on ${n.url} (${r.queue_size} queued, ${r.absolute_delay} s behind)`);
        else if (Number(r.active_replicas) < Number(r.total_replicas)) behind.push(`${r.table} on ${n.url} sees ${r.active_replicas} of its ${r.total_replicas} replicas`);
      }
    } catch (err) {
      readOnly.push(`${n.url}: ${plain(err)}`);
    }
  }
  if (readOnly.length > 0)
    add(
      'clickhouse replicas',
      'fail',
      `read-only (no ZooKeeper session): ${readOnly.join(', ')}`,
      "check ZooKeeper and the nodes' <zookeeper> configuration; inserts into those tables fail until it answers",
    );
  else if (behind.length > 0) add('clickhouse replicas', 'warn', `replication lags: ${behind.join(', ')}`, 'check the nodes named (system.replication_queue) and their network');
  else add('clickhouse replicas', 'ok', tables > 0 ? `${tables} replicated tables writable and up to date` : `no replicated table in ${settings.database} yet (the server makes them at its start)`);
}

function hostPort(r: ClusterRow): string {
  return `${r.host_name.includes(':') ? `[${r.host_name}]` : r.host_name}:${Number(r.port)}`;
}

function plain(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^no ClickHouse node answered \(/, '').replace(/\)$/, '');
}

function firstLine(text: string): string {
  // 18.16 writes the tries' log after the first line; the cause is on its last "Code:" line.
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const last = [...lines].reverse().find((l) => l.includes('Code: '));
  return (last ?? lines[0] ?? text).replace(/, e\.what\(\) = .*$/, '').trim();
}
