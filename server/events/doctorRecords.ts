// The Integration Doctor view: metadata (v2) of accepted events merged with the sanitized records
// of refused attempts that ingestion keeps, newest first, one page after an optional position.
// Neither kind carries property values or identities: only what explains an integration's health.

import type { Services } from '../http/services.js';
import { readRejectedAttempts, type RejectedAttempt, type RejectedAttemptQuery } from '../ingest/rejections.js';
import type { EventFilters } from './eventsQuery.js';
import { readEvents, withinTimeLimit } from './timeLimit.js';
import { isEventPosition } from './eventsWhere.js';
import { statementsOf } from '../engine/statements.js';

export const DOCTOR_METADATA_VERSION = 2;

export interface DoctorRecord {
  metadata_version: typeof DOCTOR_METADATA_VERSION;
  kind: 'accepted' | 'rejected';
  /** valid: stored clean; invalid: stored with warnings; rejected: not stored. */
  outcome: 'valid' | 'invalid' | 'rejected';
  received_at: string;
  ts: string | null;
  event: string | null;
  uuid: string | null;
  operation: string | null;
  source: string;
  sdk_name: string | null;
  sdk_version: string | null;
  key_id: string | null;
  warnings: string[];
  code: string | null;
  message: string | null;
  request_id: string | null;
  event_index: number | null;
}

/**
 * Order: time of receipt descending; at the same time, refused records before accepted ones;
 * then uuid (accepted) or request id and event index (refused) descending. `at` is microseconds.
 */
export type DoctorPosition = { at: string; kind: 'accepted'; uuid: string } | { at: string; kind: 'rejected'; request_id: string; event_index: number | null };

export function isDoctorPosition(value: unknown): value is DoctorPosition {
  const p = value as Record<string, unknown> | null;
  if (typeof p !== 'object' || p === null) return false;
  if (p.kind === 'accepted') return isEventPosition(p);
  return (
    p.kind === 'rejected' &&
    isEventPosition({ at: p.at, uuid: '00000000-0000-0000-0000-000000000000' }) &&
    typeof p.request_id === 'string' &&
    (p.event_index === null || Number.isInteger(p.event_index))
  );
}

interface Entry {
  at: number;
  record: DoctorRecord;
  position: DoctorPosition;
}

export async function doctorRecords(services: Services, projectId: number, filters: EventFilters, limit: number, after?: DoctorPosition): Promise<{ items: DoctorRecord[]; next?: DoctorPosition }> {
  const [accepted, rejected] = await Promise.all([acceptedEntries(services, projectId, filters, limit + 1, after), rejectedEntries(services, projectId, filters, limit + 1, after)]);
  const merged: Entry[] = [];
  let a = 0;
  let r = 0;
  while (merged.length <= limit && (a < accepted.length || r < rejected.length)) {
    const takeRejected = r < rejected.length && (a >= accepted.length || rejected[r]!.at >= accepted[a]!.at);
    merged.push(takeRejected ? rejected[r++]! : accepted[a++]!);
  }
  const page = merged.slice(0, limit);
  return { items: page.map((e) => e.record), next: merged.length > limit ? page.at(-1)?.position : undefined };
}

async function acceptedEntries(services: Services, projectId: number, filters: EventFilters, n: number, after?: DoctorPosition): Promise<Entry[]> {
  const rows = await readEvents(services, statementsOf(services.events).events.doctorAcceptedSql(projectId, filters, n, after));
  return rows.map((row) => {
    const position: DoctorPosition = { at: String(row.position_at), kind: 'accepted', uuid: String(row.uuid) };
    const record: DoctorRecord = {
      metadata_version: DOCTOR_METADATA_VERSION,
      kind: 'accepted',
      outcome: row.invalid === true || row.invalid === 1 ? 'invalid' : 'valid',
      received_at: new Date(Number(row.received_ms)).toISOString(),
      ts: new Date(Number(row.ts_ms)).toISOString(),
      event: String(row.event),
      uuid: String(row.uuid),
      operation: null,
      source: String(row.source),
      sdk_name: row.sdk_name === null ? null : String(row.sdk_name),
      sdk_version: row.sdk_version === null ? null : String(row.sdk_version),
      key_id: row.key_id === null ? null : String(row.key_id),
      warnings: JSON.parse(String(row.warnings)) as string[],
      code: null,
      message: null,
      request_id: null,
      event_index: null,
    };
    return { at: Number(position.at), record, position };
  });
}

async function rejectedEntries(services: Services, projectId: number, filters: EventFilters, n: number, after?: DoctorPosition): Promise<Entry[]> {
  const query: RejectedAttemptQuery = {
    projectId,
    from: filters.from!,
    to: filters.to!,
    event: filters.events?.[0],
    sdkName: filters.sdkName,
    source: filters.source,
    limit: n,
    // After an accepted record, every refused one at the same time came before it: an empty request
    // id sorts below all real ones, so only strictly older records follow.
    after: after && {
      received_at: isoMicros(after.at),
      request_id: after.kind === 'rejected' ? after.request_id : '',
      event_index: after.kind === 'rejected' ? after.event_index : null,
    },
  };
  const rows = await withinTimeLimit(services, (timeoutMs) => readRejectedAttempts(services, query, timeoutMs));
  return rows.map((row) => {
    const at = Date.parse(row.received_at) * 1000;
    const position: DoctorPosition = { at: String(at), kind: 'rejected', request_id: row.request_id, event_index: row.event_index };
    return { at, record: rejectedRecord(row), position };
  });
}

function rejectedRecord(row: RejectedAttempt): DoctorRecord {
  return {
    metadata_version: DOCTOR_METADATA_VERSION,
    kind: 'rejected',
    outcome: 'rejected',
    received_at: row.received_at,
    ts: null,
    event: row.event,
    uuid: null,
    operation: row.operation,
    source: row.source,
    sdk_name: row.sdk_name,
    sdk_version: row.sdk_version,
    key_id: row.key_id,
    warnings: [],
    code: row.code,
    message: row.message,
    request_id: row.request_id,
    event_index: row.event_index,
  };
}

/** RFC 3339 text of a microsecond timestamp, keeping all six fractional digits. */
export function isoMicros(micros: string): string {
  const us = BigInt(micros);
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const rest = us - ms * 1000n;
  return new Date(Number(ms)).toISOString().replace('Z', `${String(rest).padStart(3, '0')}Z`);
}
