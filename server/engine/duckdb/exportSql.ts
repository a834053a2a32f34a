// The DuckDB statement of an export (server/transfer/exportJob.ts): the project's events, every
// stored field, between two local days of its zone, written by COPY … TO straight to a file as
// NDJSON, CSV or Parquet, so memory stays flat whatever the size. Answers one row: the count.

import type { Statement } from '../engine.js';
import { STORED_FIELDS } from '../rows.js';

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
