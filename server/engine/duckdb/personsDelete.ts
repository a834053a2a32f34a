// Deleting a person's data (server/persons/personDeletion.ts): in one transaction on the writer
// connection, their events with the labeled events derived from them, their recordings, identity
// links and traits, and the project's rollup rows of the local days their events fell on (folded
// again from the remaining events; the other days' rows and other projects' stay).

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { EngineConnection, Row, Statement } from '../engine.js';
import { foldedProject, followFoldedPoint, refoldDays } from '../rollups/actorDayFolder.js';
import { duckDb } from './connection.js';

function idsParams(projectId: number, ids: readonly string[]) {
  return { params: { project: projectId, ids: listValue([...ids]) }, types: { project: INTEGER, ids: LIST(VARCHAR) } };
}

const theirs = `project_id = $project AND (distinct_id IN (SELECT unnest($ids)) OR anonymous_id IN (SELECT unnest($ids)) OR user_id IN (SELECT unnest($ids)))`;

/**
 * The local dates, in `timezone`, of the project's events that deletePersonEvents deletes (those
 * naming one of `ids` and the labeled events derived from them) stored up to rowid `through`: the
 * days of the rollups that change.
 */
async function personEventDays(conn: DuckDBConnection, projectId: number, ids: readonly string[], timezone: string, through: number): Promise<string[]> {
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
async function deletePersonEvents(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
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
async function deletePersonRecordings(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const { params, types } = idsParams(projectId, ids);
  const sessions = 'SELECT DISTINCT session_id FROM replay_chunks WHERE project_id = $project AND anonymous_id IN (SELECT unnest($ids))';
  const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM (${sessions})`, params, types);
  await conn.run(`DELETE FROM replay_chunks WHERE project_id = $project AND session_id IN (${sessions})`, params, types);
  return Number(reader.getRowObjects()[0]?.n ?? 0);
}

/** Deletes every identity link from or to one of `ids` and the traits stored for them; answers how many links. */
async function forgetIdentities(conn: DuckDBConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const { params, types } = idsParams(projectId, ids);
  const links = await conn.run('DELETE FROM identity_links WHERE project_id = $project AND (distinct_id IN (SELECT unnest($ids)) OR actor_id IN (SELECT unnest($ids)))', params, types);
  await conn.run('DELETE FROM actor_traits WHERE project_id = $project AND user_id IN (SELECT unnest($ids))', params, types);
  return links.rowsChanged;
}

/** What the deletion did: events (labeled ones included) and recordings deleted, and every id it deleted for. */
export interface PersonDeleted {
  events: number;
  recordings: number;
  ids: string[];
}

/**
 * The deletion's transaction: `resolve` names the person's ids, reading through the transaction
 * (so links and events stored since the request count), then everything naming them goes, and the
 * project's rollup days they touched are folded again. `committed` hears the ids once that is committed; a checkpoint then
 * compacts the deleted rows at once, so they leave the database file.
 */
export async function deletePerson(
  turn: EngineConnection,
  projectId: number,
  resolve: (read: (statement: Statement) => Promise<Row[]>) => Promise<string[]>,
  committed: (ids: string[]) => void,
): Promise<PersonDeleted> {
  const conn = duckDb(turn);
  await conn.run('BEGIN TRANSACTION');
  let deleted: PersonDeleted;
  try {
    const ids = await resolve(async (q) => (await conn.runAndReadAll(q.sql, q.params as never)).getRowObjects());
    const folded = await foldedProject(conn, projectId);
    const days = folded ? await personEventDays(conn, projectId, ids, folded.timezone, folded.through) : [];
    const events = await deletePersonEvents(conn, projectId, ids);
    const recordings = await deletePersonRecordings(conn, projectId, ids);
    await forgetIdentities(conn, projectId, ids);
    if (folded) await refoldDays(conn, folded, days);
    await conn.run('COMMIT');
    deleted = { events, recordings, ids };
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
  committed(deleted.ids);
  // The deleted rows leave the database file now, not at some later checkpoint; the rows after
  // them move down, and the folded point with them.
  await conn.run('FORCE CHECKPOINT');
  await followFoldedPoint(conn);
  return deleted;
}
