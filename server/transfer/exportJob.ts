// Runs one export: DuckDB writes the project's events (every stored field, between two local days
// of the project's zone, in stored order) straight to a file with COPY … TO, as NDJSON, CSV or
// Parquet, so memory stays flat whatever the size. The file waits in the data folder's exports/
// for its signed download link (exportLink.ts).

import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../services.js';
import type { Job } from '../store/jobs.js';
import { getProject } from '../accounts/projects.js';
import { transferRow } from './transferJobs.js';

export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  format: ExportFormat;
  /** Local days of the project's zone, both included; absent: from the first, through the last. */
  from: string | null;
  to: string | null;
}

const EXTENSIONS: Record<ExportFormat, string> = { ndjson: 'ndjson', csv: 'csv', parquet: 'parquet' };
export const CONTENT_TYPES: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' };

export function exportDir(services: Services): string {
  return path.join(services.config.data_dir, 'exports');
}

export function exportFile(services: Services, jobId: number, format: ExportFormat): string {
  return path.join(exportDir(services), `export-${jobId}.${EXTENSIONS[format]}`);
}

/** A SQL string literal. Only values built here go through it: a path of ours, a checked date or zone. */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ISO_MS = "'%Y-%m-%dT%H:%M:%S.%gZ'";

/** The stored fields as the export writes them (docs/migrating.md has the table). */
function selectList(format: ExportFormat): string {
  const time = (c: string) => (format === 'parquet' ? c : `strftime(${c}, ${ISO_MS}) AS ${c}`);
  const reasons = format === 'csv' ? 'to_json(coalesce(invalid_reasons, []::VARCHAR[]))::VARCHAR' : 'coalesce(invalid_reasons, []::VARCHAR[])';
  return [
    'uuid::VARCHAR AS uuid', time('ts'), time('received_at'), 'event', 'distinct_id', 'anonymous_id', 'user_id', 'session_id', 'source', 'sdk_name',
    'sdk_version', 'key_id', 'release', 'url', 'path', 'referrer', 'props', 'revenue', 'elements', 'invalid', `${reasons} AS invalid_reasons`, 'rule_id',
    'source_uuid::VARCHAR AS source_uuid',
  ].join(', ');
}

const COPY_OPTIONS: Record<ExportFormat, string> = { ndjson: 'FORMAT json', csv: 'FORMAT csv, HEADER true', parquet: 'FORMAT parquet, COMPRESSION zstd' };

export async function runExport(services: Services, job: Job): Promise<unknown> {
  const t = transferRow(services.meta, job.id);
  if (!t) throw new Error(`export ${job.id} has no details`);
  if (t.cancel_requested === 1) return { cancelled: true };
  const options = JSON.parse(t.options) as ExportOptions;
  const project = getProject(services.meta, t.project_id);
  if (!project) throw new Error('the project was deleted');
  const where = [`project_id = ${Number(project.id)}`];
  const zone = literal(project.timezone);
  if (options.from) where.push(`ts >= timezone(${zone}, ${literal(options.from)}::TIMESTAMP)`);
  if (options.to) where.push(`ts < timezone(${zone}, ${literal(options.to)}::TIMESTAMP + INTERVAL 1 DAY)`);
  mkdirSync(exportDir(services), { recursive: true, mode: 0o700 });
  const file = exportFile(services, job.id, options.format);
  rmSync(file, { force: true });
  const [row] = await services.events.read(
    `COPY (SELECT ${selectList(options.format)} FROM events WHERE ${where.join(' AND ')}) TO ${literal(file)} (${COPY_OPTIONS[options.format]})`,
  );
  const events = Number(Object.values(row ?? {})[0] ?? 0);
  const bytes = statSync(file).size;
  services.meta.prepare('UPDATE transfer_jobs SET stored = ?, lines = ?, done_bytes = ?, total_bytes = ?, updated_at = ? WHERE job_id = ?')
    .run(events, events, bytes, bytes, services.clock.now().toISOString(), job.id);
  return { events, bytes };
}
