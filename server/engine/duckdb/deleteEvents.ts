// Deleting stored events, which are otherwise only ever appended: purges of collected data, run on
// the writer connection as one transaction together with what must go with the events (the
// project's rollup rows), while no rollup fold runs (see server/behavior/formPurge.ts).

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { EngineConnection } from '../engine.js';
import { forgetFolded } from '../rollups/actorDayFolder.js';
import { duckDb } from './connection.js';

/**
 * Deletes every event of the project named one of `names`, all time, with the labeled events
 * derived from them (whatever their rule); answers how many events it deleted in all.
 */
async function deleteEvents(conn: DuckDBConnection, projectId: number, names: readonly string[]): Promise<number> {
  const params = { project: projectId, names: listValue([...names]) };
  const types = { project: INTEGER, names: LIST(VARCHAR) };
  const labels = await conn.run(
    `DELETE FROM events WHERE project_id = $project AND rule_id IS NOT NULL
       AND source_uuid IN (SELECT uuid FROM events WHERE project_id = $project AND event IN (SELECT unnest($names)) AND rule_id IS NULL)`,
    params,
    types,
  );
  const sources = await conn.run('DELETE FROM events WHERE project_id = $project AND event IN (SELECT unnest($names)) AND rule_id IS NULL', params, types);
  return labels.rowsChanged + sources.rowsChanged;
}

/**
 * The purge's transaction: the project's events of these names and their labels, with the
 * project's rollup rows; `deleted` hears the count once committed, then a checkpoint compacts the
 * deleted rows at once (it may fail after the events are gone). Answers the count.
 */
export async function purgeEvents(turn: EngineConnection, projectId: number, names: readonly string[], deleted: (n: number) => void): Promise<number> {
  const conn = duckDb(turn);
  await conn.run('BEGIN TRANSACTION');
  let n: number;
  try {
    n = await deleteEvents(conn, projectId, names);
    await forgetFolded(conn, projectId);
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
  deleted(n);
  await conn.run('FORCE CHECKPOINT');
  return n;
}
