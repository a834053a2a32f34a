// The ClickHouse statements of recordings (the shapes of engine/duckdb/replaySql.ts): the
// per-session summary of the stored chunks (replay_chunks, migration 0009, read with FINAL), the
// counts of a session's tracker events, a page of recordings with its filters, a recording's events
// and chunks, the retention deletes and the storage figures. Values are literals (literal.ts).
//
// Columns read back as the shaping reads DuckDB's: instants in µs (Int64, which ClickHouse sends as
// text: the shaping reads them with BigInt), times as RFC 3339 text, and a chunk's bytes as hex
// (`chunkBytes` in engine/sql.ts turns either engine's into bytes). A column computed from a table
// column of the same name is computed under another name in a subquery first: 18.16 reads an alias
// equal to a column's name as that column everywhere in its SELECT.
//
// The retention deletes are mutations (ALTER … DELETE) awaited on every node, with the deletion
// markers of replicated shards (mutations.ts): rows of project 0, which every statement here leaves
// out (each reads one project's rows, and the projects holding recordings are those but 0).

import type { EngineConnection, Statement } from '../engine.js';
import type { RecordingSelection, TrackerEvents } from '../duckdb/replaySql.js';
import { clickHouse } from './engineConnection.js';
import { linksSql } from './links.js';
import { literal, sql } from './literal.js';
import { deleteRows } from './mutations.js';

export type { RecordingSelection, TrackerEvents } from '../duckdb/replaySql.js';

/** `ts` (a DateTime) and `us` (the µs within its second) as RFC 3339 text to the millisecond, as DuckDB's strftime(…, '%Y-%m-%dT%H:%M:%S.%gZ'). */
export function isoText(ts: string, us: string): string {
  return `concat(formatDateTime(${ts}, '%Y-%m-%dT%H:%M:%S', 'UTC'), '.', substring(toString(1000 + intDiv(${us}, 1000)), 2, 3), 'Z')`;
}

/** An instant in µs since the epoch (a bigint, for a literal). */
const micros = (d: Date): bigint => BigInt(d.getTime()) * 1000n;

/** A chunk's receipt in µs (an Int64). */
const RECEIVED_US = '(toInt64(received_at) * 1000000 + received_us)';

/** An event's instant in µs (an Int64). */
const EVENT_US = '(toInt64(ts) * 1000000 + ts_us)';

/** Events from `since` on (µs, inclusive): the DateTime bound lets ClickHouse skip parts, the µs one is exact. */
function eventsFrom(since: Date): string {
  return `ts >= toDateTime(${literal(Math.max(0, Math.floor(since.getTime() / 1000)))}, 'UTC') AND ${EVENT_US} >= ${literal(micros(since))}`;
}

/** Events within [from, to] (µs, both included). */
function eventsWithin(window: { from: Date; to: Date }): string {
  return `${eventsFrom(window.from)} AND ${EVENT_US} <= ${literal(micros(window.to))}`;
}

/**
 * One row per recorded session of the project: `session_id`, `anonymous_id` (of its first chunk),
 * `actor_id` (through identity links), `start_us`, `end_us`, `duration_us`, `raw_bytes`. A chunk
 * without rrweb timestamps counts at its time of receipt.
 */
function sessionsSql(projectId: number, sessionId?: string): string {
  const only = sessionId === undefined ? '' : ` AND session_id = ${literal(sessionId)}`;
  return `SELECT session_id, s_anonymous_id AS anonymous_id, start_us, end_us, end_us - start_us AS duration_us, s_raw_bytes AS raw_bytes,
         if(l_linked = 1, l_actor_id, s_anonymous_id) AS actor_id
    FROM (
      SELECT session_id, argMin(anonymous_id, seq) AS s_anonymous_id, min(ifNull(first_us, ${RECEIVED_US})) AS start_us,
             max(ifNull(last_us, ifNull(first_us, ${RECEIVED_US}))) AS end_us, sum(raw_bytes) AS s_raw_bytes
        FROM replay_chunks FINAL WHERE project_id = ${literal(projectId)}${only}
       GROUP BY session_id
    ) ANY LEFT JOIN (SELECT distinct_id AS s_anonymous_id, actor_id AS l_actor_id, toUInt8(1) AS l_linked FROM (${linksSql(projectId)})) USING s_anonymous_id`;
}

/** One session's summary row (see sessionsSql), none when nothing is recorded. */
export function recordingSql(projectId: number, sessionId: string): Statement {
  return { sql: sessionsSql(projectId, sessionId), params: [] };
}

/** Which of `actorIds` have a recorded session (`actor_id`), as the recordings list finds a person's. */
export function recordedActorsSql(projectId: number, actorIds: readonly string[]): Statement {
  const ids = actorIds.length === 0 ? "''" : actorIds.map((id) => literal(id)).join(', ');
  return { sql: `SELECT DISTINCT actor_id FROM (${sessionsSql(projectId)}) WHERE actor_id IN (${ids})${actorIds.length === 0 ? ' AND 0' : ''}`, params: [] };
}

/**
 * Per session, the counts of its tracker events (events derived by labeling rules are not the
 * tracker's) with event times inside `window`: `page_views`, `clicks`, `rage_clicks`,
 * `dead_clicks`, `events` and the `first_url` viewed (as DuckDB's arg_min: the earliest page view
 * with a URL; NULL without one, where argMinIf would give '').
 */
export function sessionCountsSql(projectId: number, sessionIds: readonly string[], window: { from: Date; to: Date }, names: TrackerEvents): Statement {
  const [page, click, rage, dead] = [names.page, names.click, names.rage, names.dead].map((n) => literal(n));
  return {
    sql: `SELECT assumeNotNull(session_id) AS session_id, countIf(event = ${page}) AS page_views, countIf(event = ${click}) AS clicks,
          countIf(event = ${rage}) AS rage_clicks, countIf(event = ${dead}) AS dead_clicks, count() AS events,
          if(countIf(event = ${page} AND isNotNull(url)) = 0, NULL, argMinIf(assumeNotNull(url), ${EVENT_US}, event = ${page} AND isNotNull(url))) AS first_url
     FROM events FINAL
    WHERE project_id = ${literal(projectId)} AND rule_id IS NULL AND ${eventsWithin(window)}
      AND session_id IN (${sessionIds.map((id) => literal(id)).join(', ')})
    GROUP BY session_id`,
    params: [],
  };
}

/** The project's earliest recorded instant (`first_us`, null without recordings). */
export function firstRecordingSql(projectId: number): Statement {
  return {
    sql: `SELECT if(count() = 0, NULL, min(ifNull(first_us, ${RECEIVED_US}))) AS first_us FROM replay_chunks WHERE project_id = ${literal(projectId)}`,
    params: [],
  };
}

/**
 * A page of summary rows, newest start first (ties by session id, descending), after the keyset
 * position `after` (start in microseconds as text, session id). Event filters are semi-joins on
 * the events table reading events from `since` on.
 */
export function recordingsSql(projectId: number, f: RecordingSelection, limit: number, since: Date, names: TrackerEvents, after?: { at: string; session: string }): Statement {
  const withEvent = (condition: string) =>
    `session_id IN (SELECT assumeNotNull(session_id) FROM events WHERE project_id = ${literal(projectId)} AND ${eventsFrom(since)} AND session_id IS NOT NULL AND ${condition})`;
  const where = ['1'];
  if (f.person !== undefined) where.push(`actor_id = ${literal(f.person)}`);
  if (f.from) where.push(`start_us >= ${literal(micros(f.from))}`);
  if (f.to) where.push(`start_us < ${literal(micros(f.to))}`);
  if (f.minDuration !== undefined) where.push(`duration_us >= ${literal(BigInt(f.minDuration) * 1_000_000n)}`);
  if (f.maxDuration !== undefined) where.push(`duration_us <= ${literal(BigInt(f.maxDuration) * 1_000_000n)}`);
  if (f.url !== undefined) where.push(withEvent(`event = ${literal(names.page)} AND position(url, ${literal(f.url)}) > 0`));
  if (f.rageClicks) where.push(withEvent(`event = ${literal(names.rage)}`));
  if (f.deadClicks) where.push(withEvent(`event = ${literal(names.dead)}`));
  if (f.event !== undefined) where.push(withEvent(`event = ${literal(f.event)}`));
  if (after) {
    const at = literal(BigInt(after.at));
    where.push(`(start_us < ${at} OR (start_us = ${at} AND session_id < ${literal(after.session)}))`);
  }
  return {
    sql: `SELECT * FROM (${sessionsSql(projectId, f.session)}) WHERE ${where.join(' AND ')}
     ORDER BY start_us DESC, session_id DESC LIMIT ${literal(limit)}`,
    params: [],
  };
}

/** The session's tracker events inside `window`, oldest first, at most `limit`: `uuid`, `event`, `ts` (RFC 3339 text), `url`, `props` (JSON text). */
export function sessionEventsSql(projectId: number, sessionId: string, window: { from: Date; to: Date }, limit: number): Statement {
  return {
    sql: `SELECT e_uuid AS uuid, event, e_ts AS ts, url, props FROM (
       SELECT toString(uuid) AS e_uuid, event, ${isoText('ts', 'ts_us')} AS e_ts, ${EVENT_US} AS e_us, url, props
         FROM events FINAL
        WHERE project_id = ${literal(projectId)} AND session_id = ${literal(sessionId)} AND rule_id IS NULL AND ${eventsWithin(window)})
      ORDER BY e_us, e_uuid LIMIT ${literal(limit)}`,
    params: [],
  };
}

/** A row when the project holds a recording of this session. */
export function recordingExistsSql(projectId: number, sessionId: string): Statement {
  return { sql: sql`SELECT 1 AS held FROM replay_chunks WHERE project_id = ${projectId} AND session_id = ${sessionId} LIMIT 1`, params: [] };
}

/** The session's chunks after `afterSeq`, in order, at most `limit`: `seq`, `data` (the gzip bytes as hex). */
export function chunksSql(projectId: number, sessionId: string, afterSeq: bigint, limit: number): Statement {
  return {
    sql: sql`SELECT seq, c_data AS data FROM (
       SELECT seq, hex(data) AS c_data FROM replay_chunks FINAL WHERE project_id = ${projectId} AND session_id = ${sessionId} AND seq > ${afterSeq})
      ORDER BY seq LIMIT ${limit}`,
    params: [],
  };
}

/** The projects holding recordings (`project_id`; not the deletion markers' project 0, mutations.ts). */
export function recordedProjectsSql(): Statement {
  return { sql: 'SELECT DISTINCT project_id FROM replay_chunks WHERE project_id != 0', params: [] };
}

/**
 * The project's recordings whose last instant is before `cutoff`, to delete (`deleteChunks`): a row
 * per session, its project (`of_project`: an alias of a column's name would stand for the column
 * in the WHERE), `session_id` and its `chunks`.
 */
export function deleteRecordingsBeforeSql(projectId: number, cutoff: Date): Statement {
  return {
    sql: `SELECT ${literal(projectId)} AS of_project, session_id, count() AS chunks FROM replay_chunks FINAL WHERE project_id = ${literal(projectId)}
      GROUP BY session_id HAVING max(ifNull(last_us, ${RECEIVED_US})) < ${literal(micros(cutoff))}`,
    params: [],
  };
}

/** Every recording of the project, to delete (as `deleteRecordingsBeforeSql`). */
export function deleteProjectRecordingsSql(projectId: number): Statement {
  return { sql: `SELECT ${literal(projectId)} AS of_project, session_id, count() AS chunks FROM replay_chunks FINAL WHERE project_id = ${literal(projectId)} GROUP BY session_id`, params: [] };
}

/** The longest text of session ids one mutation names (a statement stays well under max_query_size, 256 KiB). */
const IDS_PER_MUTATION = 65_536;

/** How long a mutation may take before the sweep gives up on this run (it is tried again at the next). */
const MUTATION_WAIT_MS = 300_000;

/**
 * Runs one of the deletes above on the connection of a writer turn: the sessions it names are
 * deleted by mutations (mutations.ts `deleteRows`: on every shard, finished on every node before
 * the next), some 64 KiB of session ids each. Answers how many chunks were deleted.
 */
export async function deleteChunks(conn: EngineConnection, statement: Statement): Promise<number> {
  const ch = clickHouse(conn);
  const rows = await ch.query<{ of_project: number; session_id: string; chunks: string }>(statement.sql);
  if (rows.length === 0) return 0;
  const projectId = Number(rows[0]!.of_project);
  let at = 0;
  while (at < rows.length) {
    const ids: string[] = [];
    for (let size = 0; at < rows.length && size < IDS_PER_MUTATION; at++) {
      const id = literal(rows[at]!.session_id);
      ids.push(id);
      size += id.length + 2;
    }
    await deleteRows(ch, 'replay_chunks', `project_id = ${literal(projectId)} AND session_id IN (${ids.join(', ')})`, MUTATION_WAIT_MS);
  }
  return rows.reduce((n, r) => n + Number(r.chunks), 0);
}

/** The project's recordings, their size as sent and as stored: `recordings`, `raw_bytes`, `stored_bytes`. */
export function recordingsStorageSql(projectId: number): Statement {
  return {
    sql: `SELECT uniqExact(session_id) AS recordings, sum(c_raw) AS raw_bytes, sum(c_stored) AS stored_bytes
       FROM (SELECT session_id, raw_bytes AS c_raw, length(data) AS c_stored FROM replay_chunks FINAL WHERE project_id = ${literal(projectId)})`,
    params: [],
  };
}
