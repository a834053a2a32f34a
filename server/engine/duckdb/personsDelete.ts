// Deleting a person's data (server/persons/personDeletion.ts): their events with the labeled events
// derived from them, their recordings, identity links and traits, each run in the caller's
// transaction on the writer connection, and the local days their events fall on (the rollup days
// folded again once they are gone).

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';

function idsParams(projectId: number, ids: readonly string[]) {
  return { params: { project: projectId, ids: listValue([...ids]) }, types: { project: INTEGER, ids: LIST(VARCHAR) } };
}

const theirs = `project_id = $project AND (distinct_id IN (SELECT unnest($ids)) OR anonymous_id IN (SELECT unnest($ids)) OR user_id IN (SELECT unnest($ids)))`;

/**
 * The local dates, in `timezone`, of the project's events that deletePersonEvents deletes (those
 * naming one of `ids` and the labeled events derived from them) stored up to rowid `through`: the
 * days of the rollups that change.
 */
export async function personEventDays(conn: DuckDBConnection, projectId: number, ids: readonly string[], timezone: string, through: number): Promise<string[]> {
  const { params, types } = idsParams(projectId, ids);
  const reader = await conn.runAndReadAll(
    `SELECT DISTINCT CAST(CAST(timezone($zone, ts) AS DATE) AS VARCHAR) AS day FROM events
       WHERE project_id = $project AND rowid <= $through
         AND (${theirs} OR (rule_id IS NOT NULL AND source_uuid IN (SELECT uuid FROM events WHERE ${theirs} AND rule_id IS NULL)))`,
    { ...params, zone: timezone, through: BigInt(through) },
    { ...types, zone: VARCHAR },
  );
  return reader.getRowObjects().map((r) => String(r.day));
}

/**
 * Deletes every event of the project naming one of `ids` (as distinct, anonymous or user id), with
 * the labeled events derived from them; answers how many events it deleted in all.
 */
export async function deletePersonEvents(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const { params, types } = idsParams(projectId, ids);
  const labels = await conn.run(
    `DELETE FROM events WHERE project_id = $project AND rule_id IS NOT NULL AND source_uuid IN (SELECT uuid FROM events WHERE ${theirs} AND rule_id IS NULL)`,
    params,
    types,
  );
  const own = await conn.run(`DELETE FROM events WHERE ${theirs}`, params, types);
  return labels.rowsChanged + own.rowsChanged;
}

/** Deletes every recording of a session that one of `ids` recorded; answers how many recordings. */
export async function deletePersonRecordings(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const { params, types } = idsParams(projectId, ids);
  const sessions = 'SELECT DISTINCT session_id FROM replay_chunks WHERE project_id = $project AND anonymous_id IN (SELECT unnest($ids))';
  const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM (${sessions})`, params, types);
  await conn.run(`DELETE FROM replay_chunks WHERE project_id = $project AND session_id IN (${sessions})`, params, types);
  return Number(reader.getRowObjects()[0]?.n ?? 0);
}

/** Deletes every identity link from or to one of `ids` and the traits stored for them; answers how many links. */
export async function forgetIdentities(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const { params, types } = idsParams(projectId, ids);
  const links = await conn.run('DELETE FROM identity_links WHERE project_id = $project AND (distinct_id IN (SELECT unnest($ids)) OR actor_id IN (SELECT unnest($ids)))', params, types);
  await conn.run('DELETE FROM actor_traits WHERE project_id = $project AND user_id IN (SELECT unnest($ids))', params, types);
  return links.rowsChanged;
}
