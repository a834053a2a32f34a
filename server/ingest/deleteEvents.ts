// Deleting stored events, which are otherwise only ever appended: purges of collected data. The
// caller runs it on the writer connection inside its own transaction, together with whatever must
// go with the events (derived rollup rows), and owns what follows (see server/behavior/formPurge.ts
// and server/persons/personDeletion.ts).

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';

/**
 * Deletes every event of the project named one of `names`, all time, with the labeled events
 * derived from them (whatever their rule); answers how many events it deleted in all.
 */
export async function deleteEvents(conn: DuckDBConnection, projectId: number, names: readonly string[]): Promise<number> {
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
 * Deletes every event of the project naming one of `ids` (as distinct, anonymous or user id), with
 * the labeled events derived from them; answers how many events it deleted in all.
 */
export async function deletePersonEvents(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const params = { project: projectId, ids: listValue([...ids]) };
  const types = { project: INTEGER, ids: LIST(VARCHAR) };
  const theirs = `project_id = $project AND (distinct_id IN (SELECT unnest($ids)) OR anonymous_id IN (SELECT unnest($ids)) OR user_id IN (SELECT unnest($ids)))`;
  const labels = await conn.run(
    `DELETE FROM events WHERE project_id = $project AND rule_id IS NOT NULL AND source_uuid IN (SELECT uuid FROM events WHERE ${theirs} AND rule_id IS NULL)`,
    params,
    types,
  );
  const own = await conn.run(`DELETE FROM events WHERE ${theirs}`, params, types);
  return labels.rowsChanged + own.rowsChanged;
}
