// Runs one export: the project's events (every stored field, between two local days of the
// project's zone) written to a file as NDJSON, CSV or Parquet, so memory stays flat whatever the
// size. DuckDB writes the file itself with COPY … TO, in stored order; an engine that answers pages
// (ClickHouse) has them written by DuckDB's same statement, in the order of event time and uuid,
// the progress saved after each page and a cancellation heard between two (exportPages.ts). The
// file waits in the data folder's exports/ for its signed download link (exportLink.ts).

import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../http/services.js';
import type { Job } from '../store/jobs.js';
import { getProject } from '../accounts/projects.js';
import { cancelRequested, transferRow } from './transferJobs.js';
import { statementsOf } from '../engine/statements.js';
import { writePagedExport } from './exportPages.js';

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

class ExportCancelledError extends Error {
  constructor() {
    super('the export was cancelled');
  }
}

export async function runExport(services: Services, job: Job): Promise<unknown> {
  const t = transferRow(services.meta, job.id);
  if (!t) throw new Error(`export ${job.id} has no details`);
  if (t.cancel_requested === 1) return { cancelled: true };
  const options = JSON.parse(t.options) as ExportOptions;
  const project = getProject(services.meta, t.project_id);
  if (!project) throw new Error('the project was deleted');
  mkdirSync(exportDir(services), { recursive: true, mode: 0o700 });
  const file = exportFile(services, job.id, options.format);
  rmSync(file, { force: true });
  const plan = statementsOf(services.events).transfer.exportPlan({ projectId: project.id, timezone: project.timezone, from: options.from, to: options.to, format: options.format, file });
  let events: number;
  if (plan.kind === 'copy') {
    const [row] = await services.events.read(plan.statement.sql, plan.statement.params);
    events = Number(Object.values(row ?? {})[0] ?? 0);
  } else {
    const progress = services.meta.prepare('UPDATE transfer_jobs SET stored = ?, lines = ?, updated_at = ? WHERE job_id = ?');
    try {
      events = await writePagedExport(plan, {
        projectId: project.id,
        format: options.format,
        file,
        read: (statement) => services.events.read(statement.sql, statement.params, { timeoutMs: services.config.query_timeout_ms }),
        progress: (rows) => {
          progress.run(rows, rows, services.clock.now().toISOString(), job.id);
          if (cancelRequested(services.meta, job.id)) throw new ExportCancelledError();
        },
      });
    } catch (err) {
      rmSync(file, { force: true });
      throw err;
    }
  }
  const bytes = statSync(file).size;
  services.meta
    .prepare('UPDATE transfer_jobs SET stored = ?, lines = ?, done_bytes = ?, total_bytes = ?, updated_at = ? WHERE job_id = ?')
    .run(events, events, bytes, bytes, services.clock.now().toISOString(), job.id);
  return { events, bytes };
}
