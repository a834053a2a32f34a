// The scan of a project's raw events every statement starts from: limited to local dates in the
// project's zone, with local days and buckets computed by integer arithmetic and the identity join
// made only when the columns need actors.

import { addDays, dayNumber, type DateInterval } from './dates.js';
import { ACTOR, actorOf, EVENTS_WITH_ACTORS } from './identity.js';
import { offsetChanges } from './localTime.js';
import { dateValue, type Binder } from './sql.js';

/** Local time of `e.ts` in the project's zone, as SQL expressions valid for the rows of one scan. */
export interface LocalTimeSql {
  /** The local calendar date (a DATE). */
  day: string;
  /** The instant (epoch ms) the local hour of `e.ts` began. */
  hourStart: string;
}

const DAY_MS = 86_400_000;
const EVENT_MS = 'epoch_ms(e.ts)';

/**
 * Local time by integer arithmetic: the event's epoch plus the zone's offset at that instant, with
 * the offsets between DST changes over [fromMs, toMs) written into the SQL. Converting each row
 * through ICU (`timezone()`) cost most of every query's time. Rows before `fromMs`, which only
 * all-history scans read, fall back to ICU.
 */
function localTimeSql(b: Binder, timezone: string, fromMs: number, toMs: number, allRowsInSpan: boolean): LocalTimeSql {
  const changes = offsetChanges(timezone, fromMs, toMs);
  const offset =
    changes.length === 1
      ? String(changes[0]!.offsetMs)
      : `CASE ${changes
          .slice(1)
          .reverse()
          .map((c) => `WHEN ${EVENT_MS} >= ${c.at} THEN ${c.offsetMs}`)
          .join(' ')} ELSE ${changes[0]!.offsetMs} END`;
  const local = `(${EVENT_MS} + ${offset})`;
  let day = `(DATE '1970-01-01' + CAST(${local} // ${DAY_MS} AS INTEGER))`;
  let hourStart = `(${EVENT_MS} - ${local} % 3600000)`;
  if (!allRowsInSpan) {
    const tz = b.bind(timezone);
    const wall = `timezone(${tz}, e.ts)`;
    const before = `${EVENT_MS} < ${fromMs}`;
    day = `CASE WHEN ${before} THEN CAST(${wall} AS DATE) ELSE ${day} END`;
    hourStart = `CASE WHEN ${before} THEN ${EVENT_MS} - (epoch_ms(${wall}) - epoch_ms(date_trunc('hour', ${wall}))) ELSE ${hourStart} END`;
  }
  return { day, hourStart };
}

/** The local bucket start (a DATE) of a local date expression. */
export function dateBucket(day: string, interval: DateInterval): string {
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return `CAST(date_trunc('week', ${day}) AS DATE)`;
    case 'month':
      return `CAST(date_trunc('month', ${day}) AS DATE)`;
  }
}

/** A bucket as text: `YYYY-MM-DD` for dates, the start instant in epoch ms for hours. */
export function bucketKey(local: LocalTimeSql, interval: DateInterval | 'hour'): string {
  if (interval === 'hour') return `CAST(${local.hourStart} AS VARCHAR)`;
  return `CAST(${dateBucket(local.day, interval)} AS VARCHAR)`;
}

export interface ScanOptions {
  projectId: number;
  /** The project's IANA zone. */
  timezone: string;
  /** First local date read (inclusive); omitted reads all history. */
  from?: string;
  /** Last local date read (inclusive). */
  to: string;
  /** Also read this long past the end of `to` (for funnel windows); the local upper bound is then the caller's. */
  extraAfterMs?: number;
  where?: string[];
}

/** The columns of a scan: fixed expressions, or expressions of the event's local time. */
export type ScanColumns = Record<string, string> | ((local: LocalTimeSql) => Record<string, string>);

/** How far back all-history scans compute local time by arithmetic; older rows go through ICU. */
const ARITHMETIC_HISTORY_DAYS = 800;

/**
 * `SELECT <columns> FROM` the project's events with their actors, limited to local dates. A UTC
 * pre-filter one day wider than any zone offset lets DuckDB skip row groups by `ts`.
 */
export function scanEvents(b: Binder, columns: ScanColumns, o: ScanOptions): string {
  const where = [`e.project_id = ${b.bind(o.projectId)}`];
  const until = dayNumber(addDays(o.to, 2)) * DAY_MS + (o.extraAfterMs ?? 0);
  const since = o.from !== undefined ? dayNumber(addDays(o.from, -1)) * DAY_MS : Math.max(0, until - ARITHMETIC_HISTORY_DAYS * DAY_MS);
  const local = localTimeSql(b, o.timezone, since, until, o.from !== undefined);
  if (o.from !== undefined) {
    where.push(`e.ts >= CAST(${b.bind(new Date(since).toISOString())} AS TIMESTAMPTZ)`, `${local.day} >= ${dateValue(b, o.from)}`);
  }
  where.push(`e.ts < CAST(${b.bind(new Date(until).toISOString())} AS TIMESTAMPTZ)`);
  if (o.extraAfterMs === undefined) where.push(`${local.day} <= ${dateValue(b, o.to)}`);
  where.push(...(o.where ?? []));
  const exprs = Object.entries(typeof columns === 'function' ? columns(local) : columns);
  // The identity join costs a hash probe per row: only scans that need actors make it.
  const from = exprs.some(([, expr]) => expr.includes(ACTOR) || expr.includes(actorOf('id'))) ? EVENTS_WITH_ACTORS : 'events e';
  return `SELECT ${exprs.map(([alias, expr]) => `${expr} AS ${alias}`).join(', ')} FROM ${from} WHERE ${where.join(' AND ')}`;
}
