// One page of GET /projects/{id}/recordings: newest start first (ties by session id, descending),
// keyset-paged so that no recording is repeated or skipped across the pages of one walk. Filters
// on the session's events are semi-joins on the events table; every value is bound.

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { WhereBuilder } from '../events/eventsWhere.js';
import { readEvents } from '../events/timeLimit.js';
import { parseRecordingsQuery, recordingsScope, type RecordingFilters } from './recordingsQuery.js';
import { msOfMicros, presentSummary, sessionCounts, sessionsSql, slackWindow, timestamp, TRACKER_EVENTS, type RecordingSummary } from './sessionSummary.js';

export interface RecordingsPage {
  items: RecordingSummary[];
  next_cursor: string | null;
}

/** A keyset position: the start in microseconds since the epoch (as text) and the session id. */
interface RecordingPosition {
  at: string;
  session: string;
}

const MICROS = /^-?\d{1,18}$/;

function isPosition(value: unknown): value is RecordingPosition {
  const p = value as RecordingPosition | null;
  return typeof p === 'object' && p !== null && typeof p.at === 'string' && MICROS.test(p.at) && typeof p.session === 'string';
}

export async function recordingsPage(services: Services, projectId: number, rawQuery: Record<string, unknown>): Promise<RecordingsPage> {
  const q = parseRecordingsQuery(rawQuery);
  const scope = recordingsScope(projectId, q.filters);
  let after: RecordingPosition | undefined;
  if (q.cursor !== undefined) {
    const position = decodeCursor(services, scope, q.cursor);
    if (!isPosition(position)) throw new ValidationError('cursor is not valid for this query', 'cursor');
    after = position;
  }
  const since = await eventsSince(services, projectId, q.filters);
  const { sql, params } = buildRecordingsSql(projectId, q.filters, q.limit + 1, since, after);
  const rows = await readEvents(services, sql, params);
  const page = rows.slice(0, q.limit);
  const window = slackWindow(Math.min(...page.map((r) => msOfMicros(r.start_us))), Math.max(...page.map((r) => msOfMicros(r.end_us))));
  const counts = await sessionCounts(services, projectId, page.map((r) => String(r.session_id)), window);
  const last = page.at(-1);
  const next = rows.length > q.limit && last ? encodeCursor(services, scope, { at: String(last.start_us), session: String(last.session_id) }) : null;
  return { items: page.map((r) => presentSummary(r, counts.get(String(r.session_id)))), next_cursor: next };
}

/**
 * Where the event filters start reading events: a day before the project's earliest recording (or
 * before `from`, when later). Recordings live only as long as their retention, so this skips most
 * of a long history.
 */
async function eventsSince(services: Services, projectId: number, f: RecordingFilters): Promise<Date> {
  const [row] = await readEvents(services, 'SELECT epoch_us(min(coalesce(first_ts, received_at))) AS first_us FROM replay_chunks WHERE project_id = $1', [projectId]);
  const first = row?.first_us === null || row?.first_us === undefined ? services.clock.now().getTime() : msOfMicros(row.first_us);
  return slackWindow(Math.max(first, f.from?.getTime() ?? 0), 0).from;
}

/** Pure: the page's SQL with its bound values; event filters read events from `since` on. */
export function buildRecordingsSql(projectId: number, f: RecordingFilters, limit: number, since: Date, after?: RecordingPosition): { sql: string; params: ReturnType<WhereBuilder['build']>['params'] } {
  const w = new WhereBuilder();
  const sessions = sessionsSql(w, projectId, f.session);
  // Bound per use: DuckDB refuses a bound value the statement never reads.
  const withEvent = (condition: string) =>
    `r.session_id IN (SELECT session_id FROM events WHERE project_id = ${w.bind(projectId)} AND ts >= ${w.bind(timestamp(since))} AND session_id IS NOT NULL AND ${condition})`;
  w.add('TRUE');
  if (f.person !== undefined) w.add(`r.actor_id = ${w.bind(f.person)}`);
  if (f.from) w.add(`r.start_us >= ${w.bind(BigInt(f.from.getTime()) * 1000n)}`);
  if (f.to) w.add(`r.start_us < ${w.bind(BigInt(f.to.getTime()) * 1000n)}`);
  if (f.minDuration !== undefined) w.add(`r.duration_us >= ${w.bind(BigInt(f.minDuration) * 1_000_000n)}`);
  if (f.maxDuration !== undefined) w.add(`r.duration_us <= ${w.bind(BigInt(f.maxDuration) * 1_000_000n)}`);
  if (f.url !== undefined) w.add(withEvent(`event = ${w.bind(TRACKER_EVENTS.page)} AND contains(url, ${w.bind(f.url)})`));
  if (f.rageClicks) w.add(withEvent(`event = ${w.bind(TRACKER_EVENTS.rage)}`));
  if (f.deadClicks) w.add(withEvent(`event = ${w.bind(TRACKER_EVENTS.dead)}`));
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
