// The scan of a project's raw events in ClickHouse SQL, as ../eventScan.ts builds it on DuckDB:
// limited to local dates in the project's zone, local days and hours computed by integer
// arithmetic from the zone's offsets (offsetChanges, computed here, written in as integers, so an
// answer never depends on the server's own zone data within the span), and the identity join made
// only when the columns need actors. Rows stored twice before their parts merged count once (FINAL).

import { addDays, dayNumber, type DateInterval } from '../dates.js';
import type { LocalTimeSql, ScanColumns, ScanOptions } from '../eventScan.js';
import { offsetChanges, type OffsetChange } from '../localTime.js';
import { ACTOR, actorOf, eventsWithActors } from './identity.js';
import { literal } from './literal.js';

export type { LocalTimeSql, ScanColumns, ScanOptions } from '../eventScan.js';

const DAY_MS = 86_400_000;

/** The instant of the event `e` in epoch ms (a UInt64). */
export const EVENT_MS = '(toUInt64(e.ts) * 1000 + intDiv(e.ts_us, 1000))';

/** The instant of the event `e` in epoch µs (a UInt64). */
export const EVENT_US = '(toUInt64(e.ts) * 1000000 + e.ts_us)';

/** A `YYYY-MM-DD` date as a Date. */
export function dateLiteral(date: string): string {
  return `toDate(${literal(date)})`;
}

/** Windows of 2^32 ms (about 50 days) into which an offset lookup cuts a long span. */
const WINDOW_MS = 2 ** 32;

/** More changes than this are looked up by window rather than compared one by one. */
const MAX_COMPARED_CHANGES = 4;

/**
 * The zone's offset at the event's instant from its changes over [fromMs, toMs). A few changes are
 * compared in turn (multiIf). Over a long span (all history: a hundred changes) comparing every
 * change on every row cost more than the rest of a scan; there the instant's window of 2^32 ms
 * (about 50 days) is looked up (`transform`, a hash lookup): the offset at the window's start, and
 * for the windows holding a change, the change's instant and the offset after it (a second lookup
 * for windows holding two, and so on: few windows hold any).
 */
function offsetSql(changes: OffsetChange[], fromMs: number, toMs: number): string {
  if (changes.length === 1) return String(changes[0]!.offsetMs);
  if (changes.length <= MAX_COMPARED_CHANGES + 1) {
    return `multiIf(${changes
      .slice(1)
      .reverse()
      .map((c) => `${EVENT_MS} >= ${c.at}, ${c.offsetMs}`)
      .join(', ')}, ${changes[0]!.offsetMs})`;
  }
  const windows: Array<{ w: number; start: number; within: OffsetChange[] }> = [];
  let current = changes[0]!.offsetMs;
  let next = 1;
  for (let w = Math.floor(fromMs / WINDOW_MS); w <= Math.floor((toMs - 1) / WINDOW_MS); w++) {
    const within: OffsetChange[] = [];
    while (next < changes.length && Math.floor(changes[next]!.at / WINDOW_MS) === w) within.push(changes[next++]!);
    windows.push({ w, start: current, within });
    current = within.at(-1)?.offsetMs ?? current;
  }
  const window = `intDiv(${EVENT_MS}, ${WINDOW_MS})`;
  const lookup = (from: number[], to: number[], type: 'Int64' | 'UInt64', otherwise: string) =>
    `transform(${window}, CAST([${from.join(', ')}] AS Array(UInt64)), CAST([${to.join(', ')}] AS Array(${type})), ${otherwise})`;
  // Rows outside the span get offset 0: the scan's bounds drop them.
  let sql = lookup(
    windows.map((x) => x.w),
    windows.map((x) => x.start),
    'Int64',
    'toInt64(0)',
  );
  for (let k = 0; windows.some((x) => x.within.length > k); k++) {
    const holding = windows.filter((x) => x.within.length > k);
    const w = holding.map((x) => x.w);
    const after = lookup(
      w,
      holding.map((x) => x.within[k]!.at),
      'UInt64',
      'toUInt64(18446744073709551615)',
    );
    sql = `if(${EVENT_MS} >= ${after}, ${lookup(
      w,
      holding.map((x) => x.within[k]!.offsetMs),
      'Int64',
      'toInt64(0)',
    )}, ${sql})`;
  }
  return sql;
}

/**
 * Local time by integer arithmetic: the event's epoch plus the zone's offset at that instant, with
 * the offsets between DST changes over [fromMs, toMs) written into the SQL; a scan reads no row
 * before `fromMs`. `day` is a Date, `hourStart` an Int64 (epoch ms).
 */
function localTimeSql(timezone: string, fromMs: number, toMs: number): LocalTimeSql {
  const offset = offsetSql(offsetChanges(timezone, fromMs, toMs), fromMs, toMs);
  const local = `(toInt64(${EVENT_MS}) + ${offset})`;
  const day = `(toDate('1970-01-01') + intDiv(${local}, ${DAY_MS}))`;
  const hourStart = `(toInt64(${EVENT_MS}) - ${local} % 3600000)`;
  return { day, hourStart };
}

/** The local bucket start (a Date) of a local date expression. */
export function dateBucket(day: string, interval: DateInterval): string {
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return `toMonday(${day})`;
    case 'month':
      return `toStartOfMonth(${day})`;
  }
}

/** A bucket as text: `YYYY-MM-DD` for dates, the start instant in epoch ms for hours. */
export function bucketKey(local: LocalTimeSql, interval: DateInterval | 'hour'): string {
  if (interval === 'hour') return `toString(${local.hourStart})`;
  return `toString(${dateBucket(local.day, interval)})`;
}

/** An instant (epoch ms, a whole second) as a DateTime. */
const dateTime = (ms: number) => `toDateTime(${literal(Math.floor(Math.max(0, ms) / 1000))}, 'UTC')`;

/**
 * `SELECT <columns> FROM` the project's events (`e`, with FINAL) with their actors, limited to local
 * dates. A UTC pre-filter one day wider than any zone offset lets ClickHouse skip parts by `ts`.
 */
export function scanEvents(columns: ScanColumns, o: ScanOptions): string {
  const where = [`e.project_id = ${literal(o.projectId)}`];
  const until = dayNumber(addDays(o.to, 2)) * DAY_MS + (o.extraAfterMs ?? 0);
  // All-history scans take the offsets from the epoch too: ClickHouse 18.16's own zone data is wrong
  // for zones whose DST moves half an hour (Australia/Lord_Howe), where ICU is right.
  const since = Math.max(0, o.from !== undefined ? dayNumber(addDays(o.from, -1)) * DAY_MS : 0);
  const local = localTimeSql(o.timezone, since, until);
  if (o.from !== undefined) where.push(`e.ts >= ${dateTime(since)}`, `${local.day} >= ${dateLiteral(o.from)}`);
  where.push(`e.ts < ${dateTime(until + 999)}`, `${EVENT_MS} < ${literal(until)}`);
  if (o.extraAfterMs === undefined) where.push(`${local.day} <= ${dateLiteral(o.to)}`);
  where.push(...(o.where ?? []));
  const exprs = Object.entries(typeof columns === 'function' ? columns(local) : columns);
  // The identity join reads the project's links into a hash table: only scans that need actors make it.
  const from = exprs.some(([, expr]) => expr.includes(ACTOR) || expr.includes(actorOf('id'))) ? eventsWithActors(o.projectId) : 'events AS e FINAL';
  return `SELECT ${exprs.map(([alias, expr]) => `${expr} AS ${alias}`).join(', ')} FROM ${from} WHERE ${where.join(' AND ')}`;
}
