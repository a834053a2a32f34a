// One page of GET /projects/{id}/recordings: newest start first (ties by session id, descending),
// keyset-paged so that no recording is repeated or skipped across the pages of one walk. Filters
// on the session's events are read by the engine's statement (engine/<kind>/replaySql.ts).

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';
import { parseRecordingsQuery, recordingsScope, type RecordingFilters } from './recordingsQuery.js';
import { msOfMicros, presentSummary, sessionCounts, slackWindow, TRACKER_EVENTS, type RecordingSummary } from './sessionSummary.js';

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
  const rows = await readEvents(services, statementsOf(services.events).replay.recordingsSql(projectId, q.filters, q.limit + 1, since, TRACKER_EVENTS, after));
  const page = rows.slice(0, q.limit);
  const window = slackWindow(Math.min(...page.map((r) => msOfMicros(r.start_us))), Math.max(...page.map((r) => msOfMicros(r.end_us))));
  const counts = await sessionCounts(
    services,
    projectId,
    page.map((r) => String(r.session_id)),
    window,
  );
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
  const [row] = await readEvents(services, statementsOf(services.events).replay.firstRecordingSql(projectId));
  const first = row?.first_us === null || row?.first_us === undefined ? services.clock.now().getTime() : msOfMicros(row.first_us);
  return slackWindow(Math.max(first, f.from?.getTime() ?? 0), 0).from;
}
