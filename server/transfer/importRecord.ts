// What one record of an import file stands for, whatever its format: an event in the shape /v1/track
// takes (PostHog, Amplitude), to be normalized like a live one; a stored row as pp exports it
// (pp's NDJSON, CSV), kept field for field; identity work; nothing (with why); or a refusal.

import type { TrackEvent } from '../ingest/eventSchema.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Traits {
  userId: string;
  set?: Json;
  setOnce?: Json;
}

/** The fields of a stored event as pp's export writes them (docs/migrating.md). */
export interface StoredRecord {
  uuid?: unknown;
  ts?: unknown;
  received_at?: unknown;
  event?: unknown;
  distinct_id?: unknown;
  anonymous_id?: unknown;
  user_id?: unknown;
  session_id?: unknown;
  source?: unknown;
  sdk_name?: unknown;
  sdk_version?: unknown;
  key_id?: unknown;
  release?: unknown;
  url?: unknown;
  path?: unknown;
  referrer?: unknown;
  props?: unknown;
  revenue?: unknown;
  elements?: unknown;
  invalid?: unknown;
  invalid_reasons?: unknown;
  rule_id?: unknown;
  source_uuid?: unknown;
}

export type ImportRecord =
  | {
      kind: 'event';
      event: TrackEvent;
      /** Hashed into the uuid of an event that has none, so importing it again finds it (made only then). */
      seed: () => string;
      traits?: Traits;
      /** An anonymous id seen with the user id it belongs to. */
      link?: { from: string; to: string };
    }
  | { kind: 'stored'; record: StoredRecord }
  | { kind: 'link'; from: string; to: string; traits?: Traits }
  | { kind: 'skip' }
  | { kind: 'refuse'; reason: string };

/**
 * A time as RFC 3339 in UTC, or undefined. Exports often write `2024-01-15 10:23:45.123456` with no
 * zone, meaning UTC (PostHog's ClickHouse columns, Amplitude's event_time): read so, never in the
 * server's zone. Epoch numbers are seconds below 1e11, else milliseconds.
 */
export function timeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const ms = value < 1e11 ? value * 1000 : value;
    return ms < 8.64e15 ? new Date(Math.round(ms)).toISOString() : undefined;
  }
  if (typeof value !== 'string' || value.length > 64) return undefined;
  // Already canonical (pp's own export): read as is.
  if (value.length === 24 && value.charCodeAt(10) === 0x54 && value.endsWith('Z')) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return value;
  }
  const plain = plainTime(value);
  if (plain !== undefined) {
    if (plain.length === 24 && inRange(plain)) return plain;
    const ms = Date.parse(plain);
    return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
  }
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (!m) return undefined;
  const fraction = m[3] ? `.${m[3].slice(0, 3).padEnd(3, '0')}` : '';
  const zone = !m[4] || m[4].toUpperCase() === 'Z' ? 'Z' : m[4].includes(':') ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
  const ms = Date.parse(`${m[1]}T${m[2]}${fraction}${zone}`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * `YYYY-MM-DD HH:MM:SS[.f…][Z]` (a space or a T; PostHog's and Amplitude's usual form) as the RFC
 * 3339 text the pattern below makes of it, read by index; undefined for any other form.
 */
function plainTime(v: string): string | undefined {
  const n = v.length;
  if (n < 19) return undefined;
  for (let i = 0; i < 19; i++) {
    const c = v.charCodeAt(i);
    const ok = i === 4 || i === 7 ? c === 0x2d : i === 10 ? c === 0x20 || c === 0x54 : i === 13 || i === 16 ? c === 0x3a : isDigit(c);
    if (!ok) return undefined;
  }
  const end = v.charCodeAt(n - 1) === 0x5a ? n - 1 : n;
  let fraction = '';
  if (end > 19) {
    if (v.charCodeAt(19) !== 0x2e || end === 20) return undefined;
    for (let i = 20; i < end; i++) if (!isDigit(v.charCodeAt(i))) return undefined;
    fraction = `.${v.slice(20, Math.min(end, 23)).padEnd(3, '0')}`;
  }
  return `${v.slice(0, 10)}T${v.slice(11, 19)}${fraction}Z`;
}

const number = (v: string, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + v.charCodeAt(i) - 0x30;
  return n;
};

/**
 * Whether canonical text of digits (`YYYY-MM-DDTHH:MM:SS.fffZ`) names a real instant: then it is
 * its own RFC 3339 form, with no need to read and write it as a date (which would roll
 * 2024-02-30 or 24:00 over to the next day).
 */
function inRange(v: string): boolean {
  const year = number(v, 0, 4);
  const month = number(v, 5, 7);
  const day = number(v, 8, 10);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days && number(v, 11, 13) < 24 && number(v, 14, 16) < 60 && number(v, 17, 19) < 60;
}

/** A JSON object given as an object or as JSON text (PostHog writes properties as text in CSV and Parquet). */
export function objectOf(value: unknown): Json | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Text, or a whole number as its decimal string; anything else is absent. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
