// The DuckDB statements of recordings: the per-session summary of the stored chunks, the counts of a
// session's tracker events, a page of recordings with its filters, a recording's events and chunks,
// the retention deletes and the storage figures. Every value is bound.

import { timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import type { EngineConnection, Statement } from '../engine.js';
import { duckDb } from './connection.js';
import { WhereBuilder } from './eventsSql.js';

/** A time as a bound TIMESTAMPTZ value. */
const timestamp = (d: Date): DuckDBValue => timestampTZValue(BigInt(d.getTime()) * 1000n);

/** The tracker's event names a recording's counts and filters read. */
export interface TrackerEvents {
  page: string;
  click: string;
  rage: string;
  dead: string;
}

/** The filters of a page of recordings, as the replay domain parsed them. */
export interface RecordingSelection {
  session?: string;
  person?: string;
  from?: Date;
  to?: Date;
  /** Seconds. */
  minDuration?: number;
  maxDuration?: number;
  url?: string;
  rageClicks?: boolean;
  deadClicks?: boolean;
  event?: string;
}

/**
 * One row per recorded session of the project: `session_id`, `anonymous_id` (of its first chunk),
 * `actor_id` (through identity links), `start_us`, `end_us`, `duration_us`, `raw_bytes`.
 * A chunk without rrweb timestamps counts at its time of receipt.
 */
function sessionsCte(w: WhereBuilder, projectId: number, sessionId?: string): string {
  const project = w.bind(projectId);
  const only = sessionId === undefined ? '' : ` AND c.session_id = ${w.bind(sessionId)}`;
  return `s AS (
      SELECT c.session_id, arg_min(c.anonymous_id, c.seq) AS anonymous_id,
             epoch_us(min(coalesce(c.first_ts, c.received_at))) AS start_us,
             epoch_us(max(coalesce(c.last_ts, c.first_ts, c.received_at))) AS end_us,
             sum(c.raw_bytes) AS raw_bytes
        FROM replay_chunks c WHERE c.project_id = ${project}${only}
       GROUP BY c.session_id
    ), r AS (
      SELECT s.*, s.end_us - s.start_us AS duration_us, COALESCE(l.actor_id, s.anonymous_id) AS actor_id
        FROM s LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_id = s.anonymous_id
    )`;
}

/** One session's summary row (see sessionsCte), none when nothing is recorded. */
export function recordingSql(projectId: number, sessionId: string): Statement {
  const w = new WhereBuilder();
  return { sql: `WITH ${sessionsCte(w, projectId, sessionId)} SELECT * FROM r`, params: w.build().params };
}

/** Which of `actorIds` have a recorded session (`actor_id`), as the recordings list finds a person's. */
export function recordedActorsSql(projectId: number, actorIds: readonly string[]): Statement {
  const w = new WhereBuilder();
  const sessions = sessionsCte(w, projectId);
  return { sql: `WITH ${sessions} SELECT DISTINCT actor_id FROM r WHERE actor_id IN (${actorIds.map((id) => w.bind(id)).join(', ')})`, params: w.build().params };
}

/**
 * Per session, the counts of its tracker events (events derived by labeling rules are not the
 * tracker's) with event times inside `window`: `page_views`, `clicks`, `rage_clicks`,
 * `dead_clicks`, `events` and the `first_url` viewed.
 */
export function sessionCountsSql(projectId: number, sessionIds: readonly string[], window: { from: Date; to: Date }, names: TrackerEvents): Statement {
  const w = new WhereBuilder();
  const bound = [names.page, names.click, names.rage, names.dead].map((n) => w.bind(n));
  const sql = `SELECT session_id,
          count(*) FILTER (WHERE event = ${bound[0]}) AS page_views, count(*) FILTER (WHERE event = ${bound[1]}) AS clicks,
          count(*) FILTER (WHERE event = ${bound[2]}) AS rage_clicks, count(*) FILTER (WHERE event = ${bound[3]}) AS dead_clicks,
          count(*) AS events, arg_min(url, ts) FILTER (WHERE event = ${bound[0]}) AS first_url
     FROM events
    WHERE project_id = ${w.bind(projectId)} AND rule_id IS NULL AND ts BETWEEN ${w.bind(timestamp(window.from))} AND ${w.bind(timestamp(window.to))}
      AND session_id IN (${sessionIds.map((id) => w.bind(id)).join(', ')})
    GROUP BY session_id`;
  return { sql, params: w.build().params };
}

/** The project's earliest recorded instant (`first_us`, null without recordings). */
export function firstRecordingSql(projectId: number): Statement {
  return { sql: 'SELECT epoch_us(min(coalesce(first_ts, received_at))) AS first_us FROM replay_chunks WHERE project_id = $1', params: [projectId] };
}

/**
 * A page of summary rows, newest start first (ties by session id, descending), after the keyset
 * position `after` (start in microseconds as text, session id). Event filters are semi-joins on
 * the events table reading events from `since` on.
 */
export function recordingsSql(projectId: number, f: RecordingSelection, limit: number, since: Date, names: TrackerEvents, after?: { at: string; session: string }): Statement {
  const w = new WhereBuilder();
  const sessions = sessionsCte(w, projectId, f.session);
  // Bound per use: DuckDB refuses a bound value the statement never reads.
  const withEvent = (condition: string) =>
    `r.session_id IN (SELECT session_id FROM events WHERE project_id = ${w.bind(projectId)} AND ts >= ${w.bind(timestamp(since))} AND session_id IS NOT NULL AND ${condition})`;
  w.add('TRUE');
  if (f.person !== undefined) w.add(`r.actor_id = ${w.bind(f.person)}`);
  if (f.from) w.add(`r.start_us >= ${w.bind(BigInt(f.from.getTime()) * 1000n)}`);
  if (f.to) w.add(`r.start_us < ${w.bind(BigInt(f.to.getTime()) * 1000n)}`);
  if (f.minDuration !== undefined) w.add(`r.duration_us >= ${w.bind(BigInt(f.minDuration) * 1_000_000n)}`);
  if (f.maxDuration !== undefined) w.add(`r.duration_us <= ${w.bind(BigInt(f.maxDuration) * 1_000_000n)}`);
  if (f.url !== undefined) w.add(withEvent(`event = ${w.bind(names.page)} AND contains(url, ${w.bind(f.url)})`));
  if (f.rageClicks) w.add(withEvent(`event = ${w.bind(names.rage)}`));
  if (f.deadClicks) w.add(withEvent(`event = ${w.bind(names.dead)}`));
  if (f.event !== undefined) w.add(withEvent(`event = ${w.bind(f.event)}`));
  if (after) {
    const at = w.bind(BigInt(after.at));
    w.add(`(r.start_us < ${at} OR (r.start_us = ${at} AND r.session_id < ${w.bind(after.session)}))`);
  }
  const where = w.build();
  const sql = `WITH ${sessions}
    SELECT r.* FROM r WHERE ${where.sql}
     ORDER BY r.start_us DESC, r.session_id DESC LIMIT ${w.bind(limit)}`;
  return { sql, params: w.build().params };
}

/** The session's tracker events inside `window`, oldest first, at most `limit`: `uuid`, `event`, `ts` (RFC 3339 text), `url`, `props` (JSON text). */
export function sessionEventsSql(projectId: number, sessionId: string, window: { from: Date; to: Date }, limit: number): Statement {
  return {
    sql: `SELECT CAST(uuid AS VARCHAR) AS uuid, event, strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ') AS ts, url, CAST(props AS VARCHAR) AS props
       FROM events WHERE project_id = $1 AND session_id = $2 AND rule_id IS NULL AND ts BETWEEN $3 AND $4
      ORDER BY ts, uuid LIMIT $5`,
    params: [projectId, sessionId, timestamp(window.from), timestamp(window.to), limit],
  };
}

/** A row when the project holds a recording of this session. */
export function recordingExistsSql(projectId: number, sessionId: string): Statement {
  return { sql: 'SELECT 1 FROM replay_chunks WHERE project_id = $1 AND session_id = $2 LIMIT 1', params: [projectId, sessionId] };
}

/** The session's chunks after `afterSeq`, in order, at most `limit`: `seq`, `data` (gzip bytes as a BLOB). */
export function chunksSql(projectId: number, sessionId: string, afterSeq: bigint, limit: number): Statement {
  return { sql: 'SELECT seq, data FROM replay_chunks WHERE project_id = $1 AND session_id = $2 AND seq > $3 ORDER BY seq LIMIT $4', params: [projectId, sessionId, afterSeq, limit] };
}

/** The projects holding recordings (`project_id`). */
export function recordedProjectsSql(): Statement {
  return { sql: 'SELECT DISTINCT project_id FROM replay_chunks', params: [] };
}

/** Deletes the project's recordings whose last instant is before `cutoff`. */
export function deleteRecordingsBeforeSql(projectId: number, cutoff: Date): Statement {
  return {
    sql: `DELETE FROM replay_chunks WHERE project_id = $1 AND session_id IN (
       SELECT session_id FROM replay_chunks WHERE project_id = $1 GROUP BY session_id
       HAVING max(coalesce(last_ts, received_at)) < make_timestamptz($2::BIGINT * 1000))`,
    params: [projectId, cutoff.getTime()],
  };
}

/** Deletes every recording of the project. */
export function deleteProjectRecordingsSql(projectId: number): Statement {
  return { sql: 'DELETE FROM replay_chunks WHERE project_id = $1', params: [projectId] };
}

/** Runs one of the deletes above on the connection of a writer turn; answers how many chunks it deleted. */
export async function deleteChunks(conn: EngineConnection, statement: Statement): Promise<number> {
  const result = await duckDb(conn).run(statement.sql, statement.params as DuckDBValue[]);
  return Number(result.rowsChanged);
}

/** The project's recordings, their size as sent and as stored: `recordings`, `raw_bytes`, `stored_bytes`. */
export function recordingsStorageSql(projectId: number): Statement {
  return {
    sql: `SELECT count(DISTINCT session_id) AS recordings, coalesce(sum(raw_bytes), 0) AS raw_bytes, coalesce(sum(octet_length(data)), 0) AS stored_bytes
       FROM replay_chunks WHERE project_id = $1`,
    params: [projectId],
  };
}
