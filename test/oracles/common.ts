// Plain building blocks for the reference implementations: local dates through Intl, calendar
// arithmetic, actor resolution by following identity links, and filter matching. Written to be
// obviously right, not fast; nothing here is shared with the server's implementation.

import type { StoredEvent } from '../support/seedEvents.js';

export type OracleEvent = StoredEvent;

export interface Filter {
  field: string;
  op: string;
  value?: unknown;
}

// --- time zones ------------------------------------------------------------------------------

export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

export function wallClock(ms: number, tz: string): Wall {
  if (!formats.has(tz)) {
    const options = { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' } as const;
    formats.set(tz, new Intl.DateTimeFormat('en-GB', options));
  }
  const parts = formats.get(tz)!.formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

const two = (n: number) => String(n).padStart(2, '0');

export function localDateOf(ms: number, tz: string): string {
  const w = wallClock(ms, tz);
  return `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)}`;
}

/** The instant the local hour holding `ms` began, and its label with the offset then in force. */
export function localHour(ms: number, tz: string): { start: number; label: string } {
  const w = wallClock(ms, tz);
  const start = ms - (ms % 1000) - (w.minute * 60 + w.second) * 1000;
  const offsetMin = (Date.UTC(w.year, w.month - 1, w.day, w.hour, 0, 0) - start) / 60000;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const label = `${localDateOf(ms, tz)}T${two(w.hour)}:00:00${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  return { start, label };
}

// --- calendar --------------------------------------------------------------------------------

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function datesFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The Monday on or before a date. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

export function monthOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function bucketOf(date: string, interval: string): string {
  if (interval === 'week') return mondayOf(date);
  if (interval === 'month') return monthOf(date);
  return date;
}

export function nextMonth(first: string): string {
  const [y, m] = first.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${two(m + 1)}-01`;
}

/** Bucket starts covering from..to, the first possibly before `from`. */
export function bucketList(from: string, to: string, interval: string): string[] {
  const out: string[] = [];
  let b = bucketOf(from, interval);
  while (b <= to) {
    out.push(b);
    b = interval === 'month' ? nextMonth(b) : addDays(b, interval === 'week' ? 7 : 1);
  }
  return out;
}

export function daysInRange(from: string, to: string): number {
  return datesFrom(from, to).length;
}

// --- actors ----------------------------------------------------------------------------------

/**
 * Identity links as made, in order: [distinct id, the id it was linked to]. An event's actor is
 * found by following links until an id with no link (the chain a → b → c gives c).
 */
export function actorResolver(links: Array<[string, string]>): (distinctId: string) => string {
  const next = new Map<string, string>();
  for (const [from, to] of links) if (from !== to) next.set(from, to);
  return (id) => {
    const seen = new Set<string>();
    let cur = id;
    while (next.has(cur) && !seen.has(cur)) {
      seen.add(cur);
      cur = next.get(cur)!;
    }
    return cur;
  };
}

// --- ordering --------------------------------------------------------------------------------

/** Byte order of UTF-8 strings: how the database orders text. */
export function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Events in time order, simultaneous ones by uuid. */
export function byTime(a: OracleEvent, b: OracleEvent): number {
  return a.ts.getTime() - b.ts.getTime() || compareText(a.uuid, b.uuid);
}

// --- properties and filters ------------------------------------------------------------------

/** The text of a field on an event, or null when absent. */
export function fieldValue(e: OracleEvent, field: string): string | null {
  if (field.startsWith('props.')) {
    const v = e.props[field.slice(6)];
    if (v === undefined || v === null) return null;
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  const v = (e as unknown as Record<string, unknown>)[field];
  return v === undefined || v === null ? null : String(v);
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function matchesFilter(e: OracleEvent, f: Filter): boolean {
  const v = fieldValue(e, f.field);
  switch (f.op) {
    case 'eq':
      return v !== null && v === asText(f.value);
    case 'neq':
      return v === null || v !== asText(f.value);
    case 'in':
      return v !== null && (f.value as unknown[]).map(asText).includes(v);
    case 'not_in':
      return v === null || !(f.value as unknown[]).map(asText).includes(v);
    case 'contains':
      return v?.includes(f.value as string) === true;
    case 'not_contains':
      return v === null || !v.includes(f.value as string);
    case 'starts_with':
      return v?.startsWith(f.value as string) === true;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const raw = e.props[f.field.slice(6)];
      if (typeof raw !== 'number') return false;
      const x = f.value as number;
      return f.op === 'gt' ? raw > x : f.op === 'gte' ? raw >= x : f.op === 'lt' ? raw < x : raw <= x;
    }
    case 'exists':
      return v !== null;
    case 'not_exists':
      return v === null;
    default:
      throw new Error(`unknown op ${f.op}`);
  }
}

export function matchesAll(e: OracleEvent, filters: Filter[] | undefined): boolean {
  return (filters ?? []).every((f) => matchesFilter(e, f));
}

export function isEvent(e: OracleEvent, name: string): boolean {
  return name === 'any' || e.event === name;
}

export function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Ranks group values by a score (higher first), ties by value in byte order, absent values last. */
export function rankValues(scores: Map<string | null, number | null>): Array<string | null> {
  return [...scores.keys()].sort((a, b) => {
    const sa = scores.get(a) ?? null;
    const sb = scores.get(b) ?? null;
    if (sa !== sb) {
      if (sa === null) return 1;
      if (sb === null) return -1;
      return sb - sa;
    }
    if (a === null) return 1;
    if (b === null) return -1;
    return compareText(a, b);
  });
}
