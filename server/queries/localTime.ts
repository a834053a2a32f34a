// Instants seen in a project's time zone (through the runtime's ICU data): today's local date and
// hour buckets with their RFC 3339 labels. DuckDB does the same conversion for stored events.

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
