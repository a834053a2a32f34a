// Deleting stored events on ClickHouse, which are otherwise only ever appended: purges of collected
// data (server/behavior/formPurge.ts), with the promise of ../duckdb/deleteEvents.ts: the project's
// events of the names and the labeled events derived from them are gone, all time, once the job
// answers, and the count is heard once. ClickHouse deletes by mutations (ALTER TABLE … DELETE), run
// on the table holding each node's rows (ON CLUSTER on a cluster) and applied in the background;
// 18.16 has no `mutations_sync`, so the job polls system.mutations on every node of
// `clickhouse.urls` until none of this table's mutations is left to do. There is no transaction
// and no rollup to forget: ClickHouse keeps no rollups of events (its reports read the raw events).
// A purge cut short is safe to run again: a second run deletes what is left.
//
// Where shards have replicas, 18.16 mutates no partition's latest part written with a quorum until
// another quorum INSERT reaches that partition of that shard: so after each mutation the job
// writes a marker row per shard and month partition (PURGE_MARKER: project 0, which no project
// has, at the month's first second), which the next purge's mutation deletes in turn. At most one
// marker per shard and month is stored; no project's read sees them, and `size()` of all projects
// leaves project 0 out.

import type { EngineConnection } from '../engine.js';
import { ClickHouseConnection, QUORUM_WRITE } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { identifier, literal, sql } from './literal.js';

/** How often the job looks at the mutations, and how long it waits for them at most. */
const POLL_MS = 200;
const MUTATION_LIMIT_MS = 30 * 60_000;

/** The marker rows' event name (project 0, 1970-01-01): see above. */
export const PURGE_MARKER = 'pp.purge_marker';
const MARKER = `(project_id = 0 AND event = ${literal(PURGE_MARKER)})`;

/** The table holding this node's rows of `events`, named with its database, with ON CLUSTER on a cluster. */
function localEvents(ch: ClickHouseConnection): string {
  const cluster = ch.cluster === undefined ? '' : ` ON CLUSTER ${identifier(ch.cluster).text}`;
  return `${ch.database.text}.${identifier(ch.cluster === undefined ? 'events' : 'events_local').text}${cluster}`;
}

/** Rows of `statement` on each node of `ch`'s URLs, each node asked on its own. */
async function onEveryNode<T>(ch: ClickHouseConnection, statement: string): Promise<T[]> {
  const rows: T[] = [];
  for (const url of ch.settings.urls) {
    const node = ch.settings.urls.length === 1 ? ch : new ClickHouseConnection({ ...ch.settings, urls: [url] });
    try {
      rows.push(...(await node.query<T>(statement, { bare: true })));
    } finally {
      if (node !== ch) await node.close();
    }
  }
  return rows;
}

const localTable = (ch: ClickHouseConnection) => (ch.cluster === undefined ? 'events' : 'events_local');

/** The mutations of the local events table not yet done, summed over the nodes. */
async function mutationsLeft(ch: ClickHouseConnection): Promise<number> {
  const rows = await onEveryNode<{ n: string }>(ch, sql`SELECT count() AS n FROM system.mutations WHERE database = ${ch.settings.database} AND table = ${localTable(ch)} AND is_done = 0`);
  return rows.reduce((sum, r) => sum + Number(r.n), 0);
}

/**
 * The sum of the cluster's shard weights where its shards have replicas (the Distributed table
 * sends a row of `distinct_key` k to the shard of k modulo it), else undefined.
 */
async function replicatedWeights(ch: ClickHouseConnection): Promise<number | undefined> {
  if (ch.cluster === undefined) return undefined;
  const [shape] = await ch.query<{ replicas: string; weights: string }>(
    sql`SELECT max(replicas) AS replicas, sum(weight) AS weights FROM (SELECT shard_num, max(replica_num) AS replicas, any(shard_weight) AS weight FROM system.clusters WHERE cluster = ${ch.cluster} GROUP BY shard_num)`,
    { bare: true },
  );
  return Number(shape?.replicas ?? 1) > 1 ? Number(shape!.weights) : undefined;
}

/**
 * One marker row on every shard in every month partition of the events (a mutation rewrites every
 * part), written with a quorum as events are: each partition's latest quorum part is then a marker.
 */
async function writeMarkers(ch: ClickHouseConnection, weights: number): Promise<void> {
  const parts = await onEveryNode<{ p: string }>(ch, sql`SELECT DISTINCT partition AS p FROM system.parts WHERE database = ${ch.settings.database} AND table = ${localTable(ch)} AND active`);
  const months = [...new Set(parts.map((r) => r.p))].filter((p) => /^\d{6}$/.test(p));
  const rows = months.flatMap((m) =>
    Array.from({ length: weights }, (_, k) => {
      const ts = `toDateTime(${literal(`${m.slice(0, 4)}-${m.slice(4)}-01 00:00:00`)}, 'UTC')`;
      return `(0, toUUID(${literal(`00000000-0000-0000-0000-${String(k).padStart(12, '0')}`)}), ${ts}, 0, ${ts}, 0, ${literal(PURGE_MARKER)}, '', ${k}, '', '', 0)`;
    }),
  );
  if (rows.length === 0) return;
  await ch.command(`INSERT INTO events (project_id, uuid, ts, ts_us, received_at, received_us, event, distinct_id, distinct_key, source, key_id, invalid) VALUES ${rows.join(', ')}`, {
    settings: { insert_distributed_sync: 1, ...QUORUM_WRITE },
  });
}

/** Runs a mutation (`ALTER TABLE … DELETE WHERE condition`, earlier markers with it) and waits until every node applied it. */
async function mutate(ch: ClickHouseConnection, condition: string): Promise<void> {
  const weights = await replicatedWeights(ch);
  await ch.command(`ALTER TABLE ${localEvents(ch)} DELETE WHERE (${condition})${weights === undefined ? '' : ` OR ${MARKER}`}`, { bare: true });
  if (weights !== undefined) await writeMarkers(ch, weights);
  const until = Date.now() + MUTATION_LIMIT_MS;
  while ((await mutationsLeft(ch)) > 0) {
    if (Date.now() > until) throw new Error(`the deletion of events did not finish within ${MUTATION_LIMIT_MS / 60_000} minutes; run the purge again`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The purge: the project's events named one of `names` and the labeled events derived from them
 * (a label is stored with its source's distinct id, so on its source's shard), deleted by
 * mutations waited for; `deleted` hears the count (each event once, counted with FINAL before the
 * deletion). Answers the count.
 */
export async function purgeEvents(turn: EngineConnection, projectId: number, names: readonly string[], deleted: (n: number) => void): Promise<number> {
  const ch = clickHouse(turn);
  const project = `project_id = ${literal(projectId)}`;
  const sources = `${project} AND event IN (${names.map(literal).join(', ')}) AND isNull(rule_id)`;
  const [count] = await ch.query<{ sources: string; labels: string }>(
    `SELECT countIf(isNull(rule_id)) AS sources, countIf(isNotNull(rule_id)) AS labels FROM events FINAL
      WHERE ${project} AND ((${sources}) OR (isNotNull(rule_id) AND source_uuid GLOBAL IN (SELECT uuid FROM events WHERE ${sources})))`,
  );
  const labels = Number(count?.labels ?? 0);
  const n = Number(count?.sources ?? 0) + labels;
  // Labels first, while their sources still tell which they are (as on DuckDB).
  if (labels > 0) await mutate(ch, `${project} AND isNotNull(rule_id) AND source_uuid IN (SELECT uuid FROM ${localEvents(ch).split(' ON CLUSTER')[0]} WHERE ${sources})`);
  if (n > 0) await mutate(ch, sources);
  deleted(n);
  return n;
}
