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
//
// Where shards have replicas, 18.16 mutates no partition's latest part written with insert_quorum
// until another quorum INSERT reaches that partition (on that shard): a deletion in a month no event
// arrives in any more, of a link when no link is made, or of a recording when none is sent, would
// wait for ever. So after creating its mutation, `deleteRows` writes a marker row with a quorum into
// every partition of the table the mutation must reach (for `events`, one per shard and month; for
// `replay_chunks`, one partition, one per shard; for a table every node holds, one), which becomes
// that partition's latest quorum part; the next deletion's mutation deletes the markers there were.
// Markers are rows of project 0, which no project has: no read of a project sees them, and reads
// over every project leave it out. They are written without deduplication: a block equal to one
// written before (the same markers as at the last deletion) would otherwise be dropped, and the
// partition's latest part stay the one the mutation waits for.

import { QUORUM_WRITE, type ClickHouseConnection } from './connection.js';
import { identifier, literal, sql } from './literal.js';

/** How long a job waits for a mutation before failing (it goes on in the background; running the job again is harmless). */
export const MUTATION_WAIT_MS = 10 * 60_000;
const POLL_MS = 100;

export class MutationTimeoutError extends Error {
  constructor(table: string, waitedMs: number) {
    super(
      `deleting rows of ${table} had not finished on every ClickHouse node after ${Math.round(waitedMs / 1000)} s; it goes on in the background, and running the job again finishes it (a mutation another one waits behind, or a node that is down: docs/scale-out.md#labeled-events-and-deletions)`,
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

/** A system table (`mutations`, `parts`) of every node of the cluster (of the one node otherwise), as a table expression. */
async function everyNodes(conn: ClickHouseConnection, system: 'mutations' | 'parts'): Promise<string> {
  if (conn.cluster === undefined) return `system.${system}`;
  const hosts = await conn.query<{ host: string; port: number }>(sql`SELECT host_address AS host, port FROM system.clusters WHERE cluster = ${conn.cluster}`);
  const addresses = hosts.map((h) => (h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`)).join(',');
  return `remote(${literal(addresses)}, system, ${system}, ${literal(conn.settings.user)}, ${literal(conn.settings.password ?? '')})`;
}

/** The marker rows' event name in `events` (project 0, at the first second of its month). */
export const DELETION_MARKER = 'pp.deletion_marker';

/** The tables written with a quorum where shards have replicas, and how their markers are told apart. */
const MARKED: Record<string, string> = {
  events: `(project_id = 0 AND event = ${literal(DELETION_MARKER)})`,
  replay_chunks: '(project_id = 0)',
  identity_links: '(project_id = 0)',
  actor_traits: '(project_id = 0)',
};

/** The marker rows' session ids in `replay_chunks`: the first of these that lands on each shard. */
const CHUNK_MARKER = 'pp.deletion_marker.';

/**
 * The sum of the cluster's shard weights where its shards have replicas (the Distributed table
 * sends a row of `distinct_key` k to the shard of k modulo it), else undefined (no marker needed).
 */
async function replicatedWeights(conn: ClickHouseConnection): Promise<number | undefined> {
  if (conn.cluster === undefined) return undefined;
  const [shape] = await conn.query<{ replicas: string; weights: string }>(
    sql`SELECT max(replicas) AS replicas, sum(weight) AS weights FROM (SELECT shard_num, max(replica_num) AS replicas, any(shard_weight) AS weight FROM system.clusters WHERE cluster = ${conn.cluster} GROUP BY shard_num)`,
    { bare: true },
  );
  return Number(shape?.replicas ?? 1) > 1 ? Number(shape!.weights) : undefined;
}

/**
 * Writes the markers of `name` (see the header): for `events`, one on every shard in every month
 * partition its local table holds; for `replay_chunks`, one on every shard.
 */
async function writeMarkers(conn: ClickHouseConnection, name: string, table: string, weights: number): Promise<void> {
  const settings = { insert_distributed_sync: 1, insert_deduplicate: 0, ...QUORUM_WRITE };
  if (name === 'events') {
    await writeEventMarkers(conn, table, weights, settings);
    return;
  }
  if (name === 'replay_chunks') {
    // The Distributed table sends a chunk to the shard of cityHash64(session_id) modulo the weights:
    // a marker session per remainder (the first of some candidates per weight that has it).
    const candidates = `SELECT concat(${literal(CHUNK_MARKER)}, toString(number)) AS candidate FROM numbers(${literal(weights * 64)})`;
    const ids = await conn.query<{ id: string }>(`SELECT min(candidate) AS id FROM (${candidates}) GROUP BY cityHash64(candidate) % ${literal(weights)}`);
    const rows = ids.map((r) => `(0, ${literal(r.id)})`);
    await conn.command(`INSERT INTO replay_chunks (project_id, session_id) VALUES ${rows.join(', ')}`, { settings });
    return;
  }
  await conn.command(`INSERT INTO ${identifier(name).text} (project_id) VALUES (0)`, { settings });
}

async function writeEventMarkers(conn: ClickHouseConnection, table: string, weights: number, settings: Record<string, number>): Promise<void> {
  const parts = await conn.query<{ p: string }>(
    `SELECT DISTINCT partition AS p FROM ${await everyNodes(conn, 'parts')} WHERE database = ${literal(conn.settings.database)} AND table = ${literal(table)} AND active`,
  );
  const months = [...new Set(parts.map((r) => r.p))].filter((p) => /^\d{6}$/.test(p));
  const rows = months.flatMap((m) =>
    Array.from({ length: weights }, (_, k) => {
      const ts = `toDateTime(${literal(`${m.slice(0, 4)}-${m.slice(4)}-01 00:00:00`)}, 'UTC')`;
      return `(0, toUUID(${literal(`00000000-0000-0000-0000-${String(k).padStart(12, '0')}`)}), ${ts}, 0, ${ts}, 0, ${literal(DELETION_MARKER)}, '', ${k}, '', '', 0)`;
    }),
  );
  if (rows.length === 0) return;
  await conn.command(`INSERT INTO events (project_id, uuid, ts, ts_us, received_at, received_us, event, distinct_id, distinct_key, source, key_id, invalid) VALUES ${rows.join(', ')}`, { settings });
}

/**
 * Deletes the rows of table `name` meeting `condition` (no subquery; see above) and waits until
 * every node has finished; nothing when the installation has no such table. Answers whether it ran.
 */
export async function deleteRows(conn: ClickHouseConnection, name: string, condition: string, waitMs = MUTATION_WAIT_MS): Promise<boolean> {
  const target = await deletionTarget(conn, name);
  if (!target) return false;
  const marked = MARKED[name];
  const weights = marked === undefined ? undefined : await replicatedWeights(conn);
  const markers = weights === undefined ? '' : ` OR ${marked}`;
  await conn.command(`ALTER TABLE ${identifier(target.table).text}${target.onCluster} DELETE WHERE ifNull(${condition}, 0)${markers}`);
  if (weights !== undefined) await writeMarkers(conn, name, target.table, weights);
  const mutations = await everyNodes(conn, 'mutations');
  const started = Date.now();
  for (;;) {
    const [row] = await conn.query<{ n: string }>(`SELECT count() AS n FROM ${mutations} WHERE database = ${literal(conn.settings.database)} AND table = ${literal(target.table)} AND is_done = 0`);
    if (Number(row?.n ?? 0) === 0) return true;
    if (Date.now() - started > waitMs) throw new MutationTimeoutError(name, waitMs);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
