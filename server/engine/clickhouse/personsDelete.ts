// Deleting a person's data on ClickHouse (server/persons/personDeletion.ts; the DuckDB side is
// engine/duckdb/personsDelete.ts): their events with the labeled events derived from them, their
// identity links and traits, and their recordings where the installation keeps them (a
// `replay_chunks` table), each a mutation awaited on every node (mutations.ts), so when the job
// answers no replica holds any of it. ClickHouse keeps no rollups, so nothing is folded again.
//
// ClickHouse has no transactions: the ids are resolved first, then each table is cleared in turn;
// a job stopped halfway is finished by running it again (it resolves the same ids and deletes
// what is left). A derived event carries its source's distinct, anonymous and user ids
// (labeled/derive.ts, labeledSql.ts), so the events naming the person's ids are theirs and every
// label derived from them.

import type { EngineConnection, Row, Statement } from '../engine.js';
import type { PersonDeleted } from '../duckdb/personsDelete.js';
import type { ClickHouseConnection } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { linksSql } from './links.js';
import { literal } from './literal.js';
import { deleteRows, hasTable } from './mutations.js';

export type { PersonDeleted };

/** `column IN (ids)`; `0` for none. */
function inIds(column: string, ids: readonly string[]): string {
  return ids.length === 0 ? '0' : `${column} IN (${ids.map(literal).join(', ')})`;
}

/** The events of the project naming one of `ids` (as distinct, anonymous or user id). */
function theirEvents(projectId: number, ids: readonly string[]): string {
  return `project_id = ${literal(projectId)} AND (${inIds('distinct_id', ids)} OR ifNull(${inIds('anonymous_id', ids)}, 0) OR ifNull(${inIds('user_id', ids)}, 0))`;
}

async function countOf(conn: ClickHouseConnection, sql: string): Promise<number> {
  const [row] = await conn.query<{ n: string }>(sql);
  return Number(row?.n ?? 0);
}

/** Deletes every event naming one of `ids`, labels derived from them included; answers how many (each stored event once). */
async function deletePersonEvents(conn: ClickHouseConnection, projectId: number, ids: readonly string[]): Promise<number> {
  const where = theirEvents(projectId, ids);
  const events = await countOf(conn, `SELECT count() AS n FROM events FINAL WHERE ${where}`);
  if (events > 0) await deleteRows(conn, 'events', where);
  return events;
}

/**
 * Deletes every identity link from or to one of `ids` as the links stand, with every earlier version
 * of those links (a version left behind would stand again), and the traits stored for the ids.
 */
async function forgetIdentities(conn: ClickHouseConnection, projectId: number, ids: readonly string[]): Promise<void> {
  const linked = await conn.query<{ distinct_id: string }>(`SELECT distinct_id FROM (${linksSql(projectId)}) WHERE ${inIds('distinct_id', ids)} OR ${inIds('actor_id', ids)}`);
  const from = [...new Set([...ids, ...linked.map((r) => r.distinct_id)])];
  const p = literal(projectId);
  if ((await countOf(conn, `SELECT count() AS n FROM identity_links WHERE project_id = ${p} AND ${inIds('distinct_id', from)}`)) > 0) {
    await deleteRows(conn, 'identity_links', `project_id = ${p} AND ${inIds('distinct_id', from)}`);
  }
  if ((await countOf(conn, `SELECT count() AS n FROM actor_traits WHERE project_id = ${p} AND ${inIds('user_id', ids)}`)) > 0) {
    await deleteRows(conn, 'actor_traits', `project_id = ${p} AND ${inIds('user_id', ids)}`);
  }
}

/**
 * Deletes every recording of a session that one of `ids` recorded, where the installation keeps
 * recordings on ClickHouse (`replay_chunks`, as DuckDB's: project_id, session_id, anonymous_id);
 * answers how many recordings.
 */
async function deletePersonRecordings(conn: ClickHouseConnection, projectId: number, ids: readonly string[]): Promise<number> {
  if (!(await hasTable(conn, 'replay_chunks'))) return 0;
  const p = literal(projectId);
  const sessions = await conn.query<{ session_id: string }>(`SELECT DISTINCT session_id FROM replay_chunks WHERE project_id = ${p} AND ${inIds('anonymous_id', ids)}`);
  if (sessions.length > 0) {
    await deleteRows(
      conn,
      'replay_chunks',
      `project_id = ${p} AND ${inIds(
        'session_id',
        sessions.map((s) => s.session_id),
      )}`,
    );
  }
  return sessions.length;
}

/**
 * The deletion: `resolve` names the person's ids (links and events stored since the request
 * count), then everything naming them goes, table by table, each deletion finished on every node
 * before the next starts; `committed` hears the ids once all of it is gone.
 */
export async function deletePerson(
  turn: EngineConnection,
  projectId: number,
  resolve: (read: (statement: Statement) => Promise<Row[]>) => Promise<string[]>,
  committed: (ids: string[]) => void,
): Promise<PersonDeleted> {
  const conn = clickHouse(turn);
  const ids = await resolve((q) => conn.query<Row>(q.sql));
  const events = await deletePersonEvents(conn, projectId, ids);
  const recordings = await deletePersonRecordings(conn, projectId, ids);
  await forgetIdentities(conn, projectId, ids);
  committed(ids);
  return { events, recordings, ids };
}
