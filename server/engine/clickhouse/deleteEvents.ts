// Deleting stored events on ClickHouse, which are otherwise only ever appended: purges of collected
// data (server/behavior/formPurge.ts), with the promise of ../duckdb/deleteEvents.ts: the project's
// events of the names and the labeled events derived from them are gone, all time, once the job
// answers, and the count is heard once. ClickHouse deletes by mutations (ALTER TABLE … DELETE), run
// on the table holding each node's rows (ON CLUSTER on a cluster) and applied in the background;
// 18.16 has no `mutations_sync`, so the job polls system.mutations on every node it knows until
// none of this table's mutations is left to do. There is no transaction and no rollup to forget:
// ClickHouse keeps no rollups of events (its reports read the raw events). A purge cut short is
// safe to run again: a second run deletes what is left.

import type { EngineConnection } from '../engine.js';
import { ClickHouseConnection } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { identifier, literal, sql } from './literal.js';

/** How often the job looks at the mutations, and how long it waits for them at most. */
const POLL_MS = 200;
const MUTATION_LIMIT_MS = 30 * 60_000;

/** The table holding this node's rows of `events`, named with its database, with ON CLUSTER on a cluster. */
function localEvents(ch: ClickHouseConnection): string {
  const cluster = ch.cluster === undefined ? '' : ` ON CLUSTER ${identifier(ch.cluster).text}`;
  return `${ch.database.text}.${identifier(ch.cluster === undefined ? 'events' : 'events_local').text}${cluster}`;
}

/** The mutations of the local events table not yet done on the node of `ch`'s URLs, each node asked on its own. */
async function mutationsLeft(ch: ClickHouseConnection): Promise<number> {
  const table = ch.cluster === undefined ? 'events' : 'events_local';
  let left = 0;
  for (const url of ch.settings.urls) {
    const node = ch.settings.urls.length === 1 ? ch : new ClickHouseConnection({ ...ch.settings, urls: [url] });
    try {
      const [row] = await node.query<{ n: string }>(sql`SELECT count() AS n FROM system.mutations WHERE database = ${ch.settings.database} AND table = ${table} AND is_done = 0`, {
        bare: true,
      });
      left += Number(row?.n ?? 0);
    } finally {
      if (node !== ch) await node.close();
    }
  }
  return left;
}

/** Runs a mutation (`ALTER TABLE … DELETE WHERE condition`) and waits until every node applied it. */
async function mutate(ch: ClickHouseConnection, condition: string): Promise<void> {
  await ch.command(`ALTER TABLE ${localEvents(ch)} DELETE WHERE ${condition}`, { bare: true });
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
