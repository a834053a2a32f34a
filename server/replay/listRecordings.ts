// One page of GET /projects/{id}/recordings: newest start first (ties by session id, descending),
// keyset-paged so that no recording is repeated or skipped across the pages of one walk. Filters
// on the session's events are semi-joins on the events table; every value is bound.

import type { Services } from '../services.js';
import { ValidationError } from '../http/errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { WhereBuilder } from '../events/eventsWhere.js';
import { readEvents } from '../events/timeLimit.js';
import { parseRecordingsQuery, recordingsScope, type RecordingFilters } from './recordingsQuery.js';
import { presentSummary, sessionCounts, sessionsSql, TRACKER_EVENTS, type RecordingSummary } from './sessionSummary.js';

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
  const { sql, params } = buildRecordingsSql(projectId, q.filters, q.limit + 1, after);
  const rows = await readEvents(services, sql, params);
  const page = rows.slice(0, q.limit);
  const counts = await sessionCounts(services, projectId, page.map((r) => String(r.session_id)));
  const last = page.at(-1);
  const next = rows.length > q.limit && last ? encodeCursor(services, scope, { at: String(last.start_us), session: String(last.session_id) }) : null;
  return { items: page.map((r) => presentSummary(r, counts.get(String(r.session_id)))), next_cursor: next };
}

/** Pure: the page's SQL with its bound values. */
export function buildRecordingsSql(projectId: number, f: RecordingFilters, limit: number, after?: RecordingPosition): { sql: string; params: ReturnType<WhereBuilder['build']>['params'] } {
  const w = new WhereBuilder();
  const sessions = sessionsSql(w, projectId, f.session);
  // Bound per use: DuckDB refuses a bound value the statement never reads.
  const withEvent = (condition: string) => `r.session_id IN (SELECT session_id FROM events WHERE project_id = ${w.bind(projectId)} AND session_id IS NOT NULL AND ${condition})`;
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
