// GET /projects/{id}/recordings/{session_id}: a recording's summary with the tracker's events of
// its session in time order (the player's timeline and event list), and its page views; events
// within a day of the recording (see sessionSummary.ts).

import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';
import { msOfMicros, presentSummary, sessionCounts, slackWindow, TRACKER_EVENTS, type RecordingSummary } from './sessionSummary.js';

/** The most events a recording's detail lists (a session's busiest minutes go first). */
export const MAX_RECORDING_EVENTS = 5000;

export interface RecordingEvent {
  uuid: string;
  event: string;
  ts: string;
  url: string | null;
  props: Record<string, unknown> | null;
}

export interface RecordingDetail extends RecordingSummary {
  pages: Array<{ url: string | null; ts: string }>;
  /** The tracker's events of the session, oldest first, at most MAX_RECORDING_EVENTS. */
  session_events: RecordingEvent[];
  /** Whether the session held more events than are listed. */
  events_truncated: boolean;
}

export async function recordingDetail(services: Services, projectId: number, sessionId: string): Promise<RecordingDetail> {
  const sql = statementsOf(services.events).replay;
  const [row] = await readEvents(services, sql.recordingSql(projectId, sessionId));
  if (!row) throw new NotFoundError('recording not found');
  const window = slackWindow(msOfMicros(row.start_us), msOfMicros(row.end_us));
  const counts = await sessionCounts(services, projectId, [sessionId], window);
  const events = await readEvents(services, sql.sessionEventsSql(projectId, sessionId, window, MAX_RECORDING_EVENTS + 1));
  const listed = events.slice(0, MAX_RECORDING_EVENTS).map(
    (e): RecordingEvent => ({
      uuid: String(e.uuid),
      event: String(e.event),
      ts: String(e.ts),
      url: e.url === null ? null : String(e.url),
      props: e.props === null ? null : (JSON.parse(String(e.props)) as Record<string, unknown>),
    }),
  );
  return {
    ...presentSummary(row, counts.get(sessionId)),
    pages: listed.filter((e) => e.event === TRACKER_EVENTS.page).map((e) => ({ url: e.url, ts: e.ts })),
    session_events: listed,
    events_truncated: events.length > MAX_RECORDING_EVENTS,
  };
}
