// Turns an import record into the row that is stored, or the reason it is refused. Events from
// other products are checked and normalized as live ones are (server/ingest), with source `import`;
// rows pp exported keep every stored field. The import rule for times (docs/migrating.md): any
// time from 1970-01-02 to 2999-12-30 is kept, however old; a time more than an hour after the
// row's receipt is refused, unless the row itself says it was stored marked so. An event without a
// uuid gets one derived from its content, so a file imported twice stores it once.

import { createHash } from 'node:crypto';
import { checkEvent, type TrackEvent } from '../ingest/eventSchema.js';
import { elementColumns } from '../ingest/elementColumns.js';
import { jsonText } from '../ingest/jsonText.js';
import { FUTURE_TOLERANCE_MS, normalizeEvent, parseRevenue, pathOf, type EventRow } from '../ingest/normalizeEvent.js';
import type { KeptParams } from '../ingest/urlQuery.js';
import { EVENT_SOURCES } from '../events/eventsQuery.js';
import { idOf, isObject, timeOf, type ImportRecord, type StoredRecord } from './importRecord.js';

export interface RowContext {
  projectId: number;
  /** When the import began: the receipt time of rows that do not carry their own. */
  importedAt: Date;
  keptParams: KeptParams;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A name-based uuid (version 5 layout over SHA-256) of the seed: the same seed, the same uuid. */
export function derivedUuid(seed: string): string {
  const b = createHash('sha256').update(seed, 'utf8').digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export type RowResult = { row: EventRow } | { reason: string };

function tooFarAhead(ts: Date, receivedAt: Date): boolean {
  return ts.getTime() - receivedAt.getTime() > FUTURE_TOLERANCE_MS;
}

const FUTURE = 'the time is more than an hour after the event was received';

/** An event from another product, as a live event of the project would be stored. */
export function foreignRow(ev: TrackEvent, seed: () => string, ctx: RowContext): RowResult {
  const checked = checkEvent(ev.uuid === undefined ? { ...ev, uuid: derivedUuid(seed()) } : ev);
  if ('defect' in checked) return { reason: checked.defect.message };
  const row = normalizeEvent(checked.event, { projectId: ctx.projectId, receivedAt: ctx.importedAt, source: 'unknown', sdk: null, keyId: '', keptParams: ctx.keptParams }, checked.text);
  if (tooFarAhead(row.ts, row.received_at)) return { reason: FUTURE };
  // The row is this import's own: set in place rather than copied.
  row.source = 'import' as EventRow['source'];
  row.key_id = null;
  row.props_value = null;
  return { row };
}

const optionalText = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A row as pp exported it: every field kept (the project is the import's). */
export function storedRow(r: StoredRecord, ctx: RowContext): RowResult {
  if (typeof r.event !== 'string' || r.event === '') return { reason: 'event is required' };
  const tsText = timeOf(r.ts);
  if (!tsText) return { reason: r.ts === undefined || r.ts === null ? 'ts is required' : 'ts is not a time' };
  const receivedText = r.received_at === undefined || r.received_at === null ? ctx.importedAt.toISOString() : timeOf(r.received_at);
  if (!receivedText) return { reason: 'received_at is not a time' };
  if (r.uuid !== undefined && r.uuid !== null && (typeof r.uuid !== 'string' || !UUID.test(r.uuid))) return { reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' };
  const anonymous = idOf(r.anonymous_id) ?? null;
  const user = idOf(r.user_id) ?? null;
  const distinct = idOf(r.distinct_id) ?? user ?? anonymous;
  if (!distinct) return { reason: 'distinct_id, user_id or anonymous_id is required' };
  if (r.props !== undefined && r.props !== null && !isObject(r.props)) return { reason: 'props must be a JSON object' };
  if (r.elements !== undefined && r.elements !== null && !Array.isArray(r.elements)) return { reason: 'elements must be a JSON list' };
  const source = r.source === undefined || r.source === null ? 'import' : r.source;
  if (typeof source !== 'string' || !(EVENT_SOURCES as readonly string[]).includes(source)) return { reason: `source must be one of ${EVENT_SOURCES.join(', ')}` };
  const reasons = r.invalid_reasons === undefined || r.invalid_reasons === null ? [] : r.invalid_reasons;
  if (!Array.isArray(reasons) || reasons.some((x) => typeof x !== 'string')) return { reason: 'invalid_reasons must be a list of strings' };
  if (r.invalid !== undefined && r.invalid !== null && typeof r.invalid !== 'boolean') return { reason: 'invalid must be true or false' };
  if (r.revenue !== undefined && r.revenue !== null && (typeof r.revenue !== 'number' || !Number.isFinite(r.revenue))) return { reason: 'revenue must be a number' };
  if (r.rule_id !== undefined && r.rule_id !== null && !Number.isSafeInteger(r.rule_id)) return { reason: 'rule_id must be a whole number' };
  if (r.source_uuid !== undefined && r.source_uuid !== null && (typeof r.source_uuid !== 'string' || !UUID.test(r.source_uuid))) return { reason: 'source_uuid must be a UUID' };

  const uuid = typeof r.uuid === 'string' ? r.uuid.toLowerCase() : derivedUuid(`pp\n${JSON.stringify([r.event, tsText, distinct, r.props ?? null])}`);
  const check: TrackEvent = {
    event: r.event,
    uuid,
    ts: tsText,
    // The check wants an id; a row may hold only its distinct id.
    ...(anonymous || user ? { anonymous_id: anonymous, user_id: user } : { anonymous_id: distinct }),
    session_id: idOf(r.session_id) ?? null,
    url: optionalText(r.url),
    referrer: optionalText(r.referrer),
    props: (r.props as Record<string, unknown> | null | undefined) ?? null,
    elements: (r.elements as Array<Record<string, unknown>> | null | undefined) ?? null,
  };
  const checked = checkEvent(check);
  if ('defect' in checked) return { reason: checked.defect.message };
  const ts = new Date(tsText);
  const receivedAt = new Date(receivedText);
  if (tooFarAhead(ts, receivedAt) && !reasons.includes('ts_in_future')) return { reason: FUTURE };
  const props = check.props ?? null;
  const url = check.url ?? null;
  const revenue = r.revenue === undefined ? parseRevenue(props?.revenue).revenue : (r.revenue as number | null);
  return {
    row: {
      project_id: ctx.projectId,
      uuid,
      ts,
      received_at: receivedAt,
      event: r.event,
      distinct_id: distinct,
      anonymous_id: anonymous,
      user_id: user,
      session_id: check.session_id ?? null,
      source: source as EventRow['source'],
      sdk_name: optionalText(r.sdk_name),
      sdk_version: optionalText(r.sdk_version),
      key_id: optionalText(r.key_id),
      release: optionalText(r.release),
      url,
      path: r.path === undefined ? pathOf(url) : optionalText(r.path),
      referrer: check.referrer ?? null,
      props: props ? jsonText(props, checked.text.props ?? undefined) : null,
      revenue,
      elements: check.elements ? jsonText(check.elements, checked.text.elements ?? undefined) : null,
      invalid: r.invalid === true,
      invalid_reasons: reasons.length > 0 ? (reasons as string[]) : null,
      ...(r.rule_id !== undefined && r.rule_id !== null ? { rule_id: r.rule_id as number } : {}),
      ...(typeof r.source_uuid === 'string' ? { source_uuid: r.source_uuid.toLowerCase() } : {}),
      props_value: null,
      ...elementColumns(r.event, check.elements),
    },
  };
}

/** The row of an event or stored record. */
export function rowOf(record: Extract<ImportRecord, { kind: 'event' | 'stored' }>, ctx: RowContext): RowResult {
  return record.kind === 'event' ? foreignRow(record.event, record.seed, ctx) : storedRow(record.record, ctx);
}
