// The query of GET /projects/{id}/recordings after schema validation: the semantic checks (range
// and duration order) and the canonical scope a cursor is bound to. SQL is listRecordings.ts's.

import { ValidationError } from '../ground/errors.js';

export const DEFAULT_RECORDINGS_LIMIT = 50;
export const MAX_RECORDINGS_LIMIT = 200;
/** Longest duration filter, in seconds (a week: no recording lasts longer than its session). */
export const MAX_DURATION_S = 7 * 86_400;

export interface RecordingFilters {
  /** Recordings of this actor (through identify and alias links). */
  person?: string;
  session?: string;
  /** Half-open [from, to) on the recording's start. */
  from?: Date;
  to?: Date;
  /** Recordings with a page view whose URL contains this text. */
  url?: string;
  rageClicks: boolean;
  deadClicks: boolean;
  /** Inclusive bounds on the duration, in seconds. */
  minDuration?: number;
  maxDuration?: number;
  /** Recordings whose session holds an event of this name. */
  event?: string;
}

export interface RecordingsQuery {
  filters: RecordingFilters;
  limit: number;
  cursor?: string;
}

/** `query` is req.valid.query: types, formats and bounds are already checked by the OpenAPI schema. */
export function parseRecordingsQuery(query: Record<string, unknown>): RecordingsQuery {
  const str = (name: string) => (query[name] === undefined ? undefined : String(query[name]));
  const num = (name: string) => (query[name] === undefined ? undefined : Number(query[name]));
  const date = (name: string) => (query[name] === undefined ? undefined : new Date(String(query[name])));
  const filters: RecordingFilters = {
    person: str('person'),
    session: str('session'),
    from: date('from'),
    to: date('to'),
    url: str('url'),
    rageClicks: query.rage_clicks === true,
    deadClicks: query.dead_clicks === true,
    minDuration: num('min_duration'),
    maxDuration: num('max_duration'),
    event: str('event'),
  };
  checkRange(filters.from, filters.to);
  checkDurations(filters.minDuration, filters.maxDuration);
  return { filters, limit: num('limit') ?? DEFAULT_RECORDINGS_LIMIT, cursor: str('cursor') };
}

function checkRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && to.getTime() <= from.getTime()) {
    throw new ValidationError(`to (${to.toISOString()}) must be later than from (${from.toISOString()})`, 'to');
  }
}

function checkDurations(min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && max < min) {
    throw new ValidationError(`max_duration (${max}) must not be below min_duration (${min})`, 'max_duration');
  }
}

/** What a cursor is bound to: the project and every filter (not the page size). */
export function recordingsScope(projectId: number, f: RecordingFilters): unknown {
  return {
    list: 'recordings',
    project: projectId,
    person: f.person,
    session: f.session,
    from: f.from?.toISOString(),
    to: f.to?.toISOString(),
    url: f.url,
    rage: f.rageClicks,
    dead: f.deadClicks,
    min: f.minDuration,
    max: f.maxDuration,
    event: f.event,
  };
}
