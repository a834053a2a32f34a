// Instants seen in a project's time zone (through the runtime's ICU data): today's local date and
// hour buckets with their RFC 3339 labels, and the zone's UTC offsets over a span, from which the
// query SQL computes local dates of stored events with integer arithmetic.

import { addDays, dayNumber } from './dates.js';

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

function localParts(ms: number, tz: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out as unknown as LocalParts;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local calendar date of an instant. */
export function localDate(instant: Date | number, tz: string): string {
  const p = localParts(typeof instant === 'number' ? instant : instant.getTime(), tz);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** `2026-11-01T01:00:00-04:00`: the local wall time of an hour start with its offset. */
export function hourLabel(startMs: number, tz: string): string {
  const p = localParts(startMs, tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const off = Math.round((wall - Math.floor(startMs / 1000) * 1000) / 60_000);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * Every local hour of the inclusive date range as the instant it starts, oldest first. A repeated
 * hour at a DST change is two hours (two instants); a skipped one does not exist.
 */
export function hourBuckets(from: string, to: string, tz: string): number[] {
  // Scan quarter-hours over a window wide enough for any UTC offset; every local hour lasts at
  // least 30 minutes, so each is seen.
  const first = dayNumber(from) * 86_400_000 - 86_400_000;
  const last = dayNumber(addDays(to, 1)) * 86_400_000 + 86_400_000;
  const starts = new Set<number>();
  for (let ms = first; ms < last; ms += QUARTER_HOUR_MS) {
    const p = localParts(ms, tz);
    const day = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
    if (day < from || day > to) continue;
    starts.add(ms - (p.minute * 60 + p.second) * 1000);
  }
  return [...starts].sort((a, b) => a - b);
}

/** Day starts kept per process (a zone's rules only change with the runtime). */
const DAY_STARTS_LIMIT = 4096;
const dayStarts = new Map<string, number>();

/** The first instant (epoch ms) of a local date: its first hour's start, wherever DST moves midnight. */
export function dayStartMs(date: string, tz: string): number {
  const key = `${tz}\u0000${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = hourBuckets(date, date, tz)[0]!;
    if (dayStarts.size >= DAY_STARTS_LIMIT) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return start;
}

/** The zone's offset from UTC at an instant in ms (local wall time minus UTC), to the second. */
export function zoneOffsetMs(tz: string, ms: number): number {
  const p = localParts(ms, tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** An offset that holds from `at` (epoch ms) until the next change. */
export interface OffsetChange {
  at: number;
  offsetMs: number;
}

const SAMPLE_MS = 6 * 3_600_000;
const YEAR_CHANGES_LIMIT = 256;
const yearChanges = new Map<string, OffsetChange[]>();

/**
 * The zone's offset at the start of a UTC year and every change within it. Sampled every six hours
 * (no zone's offsets change and change back that quickly) and narrowed to the second; kept for
 * the life of the process, as zone rules only change with the runtime.
 */
function changesInYear(tz: string, year: number): OffsetChange[] {
  const key = `${tz}\u0000${year}`;
  let changes = yearChanges.get(key);
  if (changes) return changes;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  changes = [{ at: start, offsetMs: zoneOffsetMs(tz, start) }];
  for (let t = start; t < end; t += SAMPLE_MS) {
    const before = changes.at(-1)!.offsetMs;
    const next = Math.min(t + SAMPLE_MS, end);
    if (zoneOffsetMs(tz, next) === before) continue;
    let lo = t;
    let hi = next;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (zoneOffsetMs(tz, mid) === before) lo = mid;
      else hi = mid;
    }
    changes.push({ at: hi, offsetMs: zoneOffsetMs(tz, hi) });
  }
  if (yearChanges.size >= YEAR_CHANGES_LIMIT) yearChanges.clear();
  yearChanges.set(key, changes);
  return changes;
}

/**
 * The zone's offsets over [fromMs, toMs): the offset at `fromMs` (as a change at `fromMs`), then
 * each change before `toMs`, oldest first.
 */
export function offsetChanges(tz: string, fromMs: number, toMs: number): OffsetChange[] {
  const out: OffsetChange[] = [{ at: fromMs, offsetMs: zoneOffsetMs(tz, fromMs) }];
  const first = new Date(fromMs).getUTCFullYear();
  const last = new Date(toMs).getUTCFullYear();
  for (let year = first; year <= last; year++) {
    for (const c of changesInYear(tz, year)) {
      if (c.at <= fromMs || c.at >= toMs || c.offsetMs === out.at(-1)!.offsetMs) continue;
      out.push(c);
    }
  }
  return out;
}
