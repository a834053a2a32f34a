// The DuckDB statement of an export (server/transfer/exportJob.ts): the project's events, every
// stored field, between two local days of its zone, written by COPY … TO straight to a file as
// NDJSON, CSV or Parquet, so memory stays flat whatever the size. Answers one row: the count.
// An engine that cannot write files answers its export as pages of rows instead (`PagedExport`,
// engine/clickhouse/exportSql.ts), which the export job writes through this same statement.

import type { Statement } from '../engine.js';
import { STORED_FIELDS, type StoredEvent } from '../rows.js';

export type ExportFormat = 'ndjson' | 'csv' | 'parquet';

/** A SQL string literal. Only values checked before come through it: a path of ours, a date, a zone. */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ISO_MS = "'%Y-%m-%dT%H:%M:%S.%gZ'";

/** The stored fields as the export writes them (docs/migrating.md has the table). */
function selectList(format: ExportFormat): string {
  const time = (c: string) => (format === 'parquet' ? c : `strftime(${c}, ${ISO_MS}) AS ${c}`);
  const reasons = format === 'csv' ? 'to_json(coalesce(invalid_reasons, []::VARCHAR[]))::VARCHAR' : 'coalesce(invalid_reasons, []::VARCHAR[])';
  const written: Partial<Record<(typeof STORED_FIELDS)[number], string>> = {
    uuid: 'uuid::VARCHAR AS uuid',
    ts: time('ts'),
    received_at: time('received_at'),
    invalid_reasons: `${reasons} AS invalid_reasons`,
    source_uuid: 'source_uuid::VARCHAR AS source_uuid',
  };
  return STORED_FIELDS.map((f) => written[f] ?? f).join(', ');
}

const COPY_OPTIONS: Record<ExportFormat, string> = { ndjson: 'FORMAT json', csv: 'FORMAT csv, HEADER true', parquet: 'FORMAT parquet, COMPRESSION zstd' };

export interface ExportSelection {
  projectId: number;
  timezone: string;
  /** Local days of the zone, both included; null: from the first, through the last. */
  from: string | null;
  to: string | null;
  format: ExportFormat;
  /** The file written. */
  file: string;
}

export function exportEventsSql(s: ExportSelection): Statement {
  const where = [`project_id = ${Number(s.projectId)}`];
  const zone = literal(s.timezone);
  if (s.from) where.push(`ts >= timezone(${zone}, ${literal(s.from)}::TIMESTAMP)`);
  if (s.to) where.push(`ts < timezone(${zone}, ${literal(s.to)}::TIMESTAMP + INTERVAL 1 DAY)`);
  return { sql: `COPY (SELECT ${selectList(s.format)} FROM events WHERE ${where.join(' AND ')}) TO ${literal(s.file)} (${COPY_OPTIONS[s.format]})`, params: [] };
}

/** A range of an export's pages: event times in epoch seconds, `from` included, `to` excluded. */
export interface ExportWindow {
  from: number;
  to: number;
}

/** Where a page of an export ends: the last row's instant (µs since the epoch, as text) and uuid. */
export interface ExportCursor {
  us: string;
  uuid: string;
}

/**
 * An export read as pages, in the order of (event time, uuid): `countsSql` answers how many rows
 * (copies not yet merged included) each bucket of `seconds` within a window holds (`bucket`, its
 * first second, and `n`), from which the job makes windows of at most a page; `pageSql` answers
 * up to `limit` rows of a window after `after`, every stored field as `PagedExportRow`.
 */
export interface PagedExport {
  kind: 'pages';
  /** The selection's event times: the first second that may hold one, and the second after the last. */
  window: ExportWindow;
  countsSql(window: ExportWindow, seconds: number): Statement;
  pageSql(window: ExportWindow, after: ExportCursor | null, limit: number): Statement;
}

/** The fields a page holds as `events` stores them. */
type AsStored =
  | 'event'
  | 'distinct_id'
  | 'anonymous_id'
  | 'user_id'
  | 'session_id'
  | 'source'
  | 'sdk_name'
  | 'sdk_version'
  | 'release'
  | 'url'
  | 'path'
  | 'referrer'
  | 'props'
  | 'revenue'
  | 'elements';

/** A row of a page: the stored fields as stored, instants in µs and 64-bit integers as text, the flag as 0 or 1. */
export interface PagedExportRow extends Pick<StoredEvent, AsStored> {
  uuid_text: string;
  ts_micros: string;
  received_micros: string;
  key_text: string | null;
  invalid: number;
  invalid_reasons: string[];
  rule_text: string | null;
  source_text: string | null;
}

/** How an engine's export is written: one statement that writes the file itself, or pages the job writes. */
export type ExportPlan = { kind: 'copy'; statement: Statement } | PagedExport;

/** DuckDB writes the file itself. */
export function exportPlan(s: ExportSelection): ExportPlan {
  return { kind: 'copy', statement: exportEventsSql(s) };
}
