// Deleting rows on ClickHouse (docs/scale-out.md#labeled-events-and-deletions): a mutation
// (`ALTER TABLE … DELETE`), which rewrites the parts holding matching rows in the background, then
// a wait until every node has finished it, so the rows are gone from every replica a read may be
// sent to when the job that asked answers. 18.16 has no `mutations_sync`: the wait polls
// `system.mutations` of every node.
//
// Two rules of 18.16 shape every condition given here: a mutation's condition must not be Nullable
// (18.16 deletes the rows whose Nullable result is NULL, every row of a column that is NULL
// there: the condition is wrapped in ifNull(…, 0)), and it must hold no subquery (a mutation with
// one never finishes on 18.16, and holds back every later mutation of the table): values go in as
// literal lists.

import type { ClickHouseConnection } from './connection.js';
import { identifier, literal, sql } from './literal.js';

/** How long a job waits for a mutation before failing (it goes on in the background; running the job again is harmless). */
export const MUTATION_WAIT_MS = 10 * 60_000;
const POLL_MS = 100;

export class MutationTimeoutError extends Error {
  constructor(table: string, waitedMs: number) {
    super(
      `deleting rows of ${table} had not finished on every ClickHouse node after ${Math.round(waitedMs / 1000)} s; it goes on in the background, and running the job again finishes it (on replicas, 18.16 mutates the part last written with insert_quorum in a month only once another write lands in that month: docs/scale-out.md#labeled-events-and-deletions)`,
    );
  }
}

/**
 * Where the rows of `name` are deleted: its local table on every shard (ON CLUSTER) when it is
 * sharded under a Distributed table, else the table itself, which on a cluster is replicated to
 * every node (a mutation of a replicated table reaches its replicas through ZooKeeper). Undefined
 * when the installation has no such table.
 */
async function deletionTarget(conn: ClickHouseConnection, name: string): Promise<{ table: string; onCluster: string } | undefined> {
  const local = `${name}_local`;
  const rows = await conn.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${conn.settings.database} AND name IN (${name}, ${local})`);
  const names = new Set(rows.map((r) => r.name));
  if (conn.cluster !== undefined && names.has(local)) return { table: local, onCluster: ` ON CLUSTER ${identifier(conn.cluster).text}` };
  return names.has(name) ? { table: name, onCluster: '' } : undefined;
}

/** Whether the installation has the table `name` (a Distributed one or a local one). */
export async function hasTable(conn: ClickHouseConnection, name: string): Promise<boolean> {
  return (await deletionTarget(conn, name)) !== undefined;
}

/** `system.mutations` of every node of the cluster (of the one node otherwise), as a table expression. */
async function everyNodesMutations(conn: ClickHouseConnection): Promise<string> {
  if (conn.cluster === undefined) return 'system.mutations';
  const hosts = await conn.query<{ host: string; port: number }>(sql`SELECT host_address AS host, port FROM system.clusters WHERE cluster = ${conn.cluster}`);
  const addresses = hosts.map((h) => (h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`)).join(',');
  return `remote(${literal(addresses)}, system, mutations, ${literal(conn.settings.user)}, ${literal(conn.settings.password ?? '')})`;
}

/**
 * Deletes the rows of table `name` meeting `condition` (no subquery; see above) and waits until
 * every node has finished; nothing when the installation has no such table. Answers whether it ran.
 */
export async function deleteRows(conn: ClickHouseConnection, name: string, condition: string, waitMs = MUTATION_WAIT_MS): Promise<boolean> {
  const target = await deletionTarget(conn, name);
  if (!target) return false;
  await conn.command(`ALTER TABLE ${identifier(target.table).text}${target.onCluster} DELETE WHERE ifNull(${condition}, 0)`);
  const mutations = await everyNodesMutations(conn);
  const started = Date.now();
  for (;;) {
    const [row] = await conn.query<{ n: string }>(`SELECT count() AS n FROM ${mutations} WHERE database = ${literal(conn.settings.database)} AND table = ${literal(target.table)} AND is_done = 0`);
    if (Number(row?.n ?? 0) === 0) return true;
    if (Date.now() - started > waitMs) throw new MutationTimeoutError(name, waitMs);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
