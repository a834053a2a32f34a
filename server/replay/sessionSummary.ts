// What a recording is, read from the stored chunks and the tracker's events of its session: one
// statement summarizing the chunks per session (start, end, size, the person) and the counts of
// the tracker's events (page views, clicks, rage and dead clicks) for a set of sessions. A session's
// events are read within a day of its recording: the bound lets DuckDB skip the row groups of
// older events (the table is laid out by time of receipt) instead of scanning every event.

import type { Services } from '../http/services.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';

/** Microseconds since the epoch (as DuckDB's epoch_us gives them) as milliseconds. */
export const msOfMicros = (us: unknown): number => Number(BigInt(us as bigint) / 1000n);

/** How far before a recording's start and after its end the events of its session are read. */
export const SESSION_SLACK_MS = 86_400_000;

/** A time window as bound values: `[from - slack, to + slack]`. */
export function slackWindow(fromMs: number, toMs: number): { from: Date; to: Date } {
  return { from: new Date(fromMs - SESSION_SLACK_MS), to: new Date(toMs + SESSION_SLACK_MS) };
}

/** The tracker's event names a recording's counts and timeline marks are made of. */
export const TRACKER_EVENTS = { page: 'pp.page_view', click: 'pp.click', rage: 'pp.rage_click', dead: 'pp.dead_click' } as const;

export interface SessionCounts {
  page_views: number;
  clicks: number;
  rage_clicks: number;
  dead_clicks: number;
  /** Every tracker event of the session. */
  events: number;
  /** The URL of the session's first page view. */
  first_url: string | null;
}

const NO_COUNTS: SessionCounts = { page_views: 0, clicks: 0, rage_clicks: 0, dead_clicks: 0, events: 0, first_url: null };

/**
 * The counts of each session's tracker events (events derived by labeling rules are not the
 * tracker's) with event times inside `window` (see slackWindow).
 */
export async function sessionCounts(services: Services, projectId: number, sessionIds: readonly string[], window: { from: Date; to: Date }): Promise<Map<string, SessionCounts>> {
  const counts = new Map<string, SessionCounts>(sessionIds.map((id) => [id, { ...NO_COUNTS }]));
  if (sessionIds.length === 0) return counts;
  for (const row of await readEvents(services, statementsOf(services.events).replay.sessionCountsSql(projectId, sessionIds, window, TRACKER_EVENTS))) {
    counts.set(String(row.session_id), {
      page_views: Number(row.page_views),
      clicks: Number(row.clicks),
      rage_clicks: Number(row.rage_clicks),
      dead_clicks: Number(row.dead_clicks),
      events: Number(row.events),
      first_url: row.first_url === null ? null : String(row.first_url),
    });
  }
  return counts;
}

export interface RecordingSummary extends SessionCounts {
  session_id: string;
  person: string;
  anonymous_id: string;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  /** Size of the recorded rrweb events as the tracker sent them (stored compressed). */
  raw_bytes: number;
}

const isoOfMicros = (us: unknown) => new Date(msOfMicros(us)).toISOString();

/** A recording's summary row (see engine/<kind>/replaySql.ts) with its counts, as the API shows it. */
export function presentSummary(row: Record<string, unknown>, counts: SessionCounts | undefined): RecordingSummary {
  return {
    session_id: String(row.session_id),
    person: String(row.actor_id),
    anonymous_id: String(row.anonymous_id),
    started_at: isoOfMicros(row.start_us),
    ended_at: isoOfMicros(row.end_us),
    duration_ms: Number(BigInt(row.duration_us as bigint) / 1000n),
    raw_bytes: Number(row.raw_bytes),
    ...(counts ?? NO_COUNTS),
  };
}
