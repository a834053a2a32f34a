// Deleting stored events on ClickHouse, which are otherwise only ever appended: purges of collected
// data (server/behavior/formPurge.ts), with the promise of ../duckdb/deleteEvents.ts: the project's
// events of the names and the labeled events derived from them are gone, all time, once the job
// answers, and the count is heard once. ClickHouse deletes by mutations (mutations.ts: run on the
// table holding each node's rows, ON CLUSTER on a cluster, waited for on every node, with the
// markers replicated shards need). There is no transaction and no rollup to forget: ClickHouse
// keeps no rollups of events (its reports read the raw events). A purge cut short is safe to run
// again: a second run deletes what is left.

import type { EngineConnection } from '../engine.js';
import { clickHouse } from './engineConnection.js';
import { literal } from './literal.js';
import { deleteRows } from './mutations.js';

/** Uuids per mutation: a statement's text must stay under max_query_size (256 KiB). */
const UUIDS_PER_MUTATION = 2000;

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
  const [count] = await ch.query<{ sources: string }>(`SELECT count() AS sources FROM events FINAL WHERE ${sources}`);
  // A mutation holding a subquery never finishes on 18.16: the labels are found first, then deleted by uuid.
  const labels = await ch.query<{ id: string }>(
    `SELECT DISTINCT toString(uuid) AS id FROM events WHERE ${project} AND isNotNull(rule_id) AND source_uuid GLOBAL IN (SELECT uuid FROM events WHERE ${sources})`,
  );
  const n = Number(count?.sources ?? 0) + labels.length;
  // Labels first, while their sources still tell which they are (as on DuckDB).
  for (let at = 0; at < labels.length; at += UUIDS_PER_MUTATION) {
    const uuids = labels.slice(at, at + UUIDS_PER_MUTATION).map((r) => `toUUID(${literal(r.id)})`);
    await deleteRows(ch, 'events', `${project} AND isNotNull(rule_id) AND uuid IN (${uuids.join(', ')})`);
  }
  if (n > 0) await deleteRows(ch, 'events', sources);
  deleted(n);
  return n;
}
