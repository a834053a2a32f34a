// The import and export jobs as the API answers them.

import type { Services } from '../http/services.js';
import type { ImportOptions } from './importJob.js';
import type { ExportOptions } from './exportJob.js';
import { downloadLink } from './exportLink.js';
import { rejectionsOf, stateOf, type Rejection, type TransferRow, type TransferState } from './transferJobs.js';

export interface ImportJobView {
  id: number;
  state: TransferState;
  format: string;
  files: string[];
  total_bytes: number;
  done_bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  rejected: number;
  rejections: Rejection[];
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export function presentImport(services: Services, row: TransferRow): ImportJobView {
  const options = JSON.parse(row.options) as ImportOptions;
  const state = stateOf(row);
  return {
    id: row.job_id,
    state,
    format: options.format,
    files: options.files.map((f) => f.name),
    total_bytes: row.total_bytes,
    done_bytes: row.done_bytes,
    lines: row.lines,
    stored: row.stored,
    duplicates: row.duplicates,
    rejected: row.rejected,
    rejections: rejectionsOf(services.meta, row.job_id),
    error: state === 'failed' ? row.error : null,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    updated_at: row.updated_at,
  };
}

export interface ExportJobView {
  id: number;
  state: TransferState;
  format: string;
  from: string | null;
  to: string | null;
  events: number | null;
  bytes: number | null;
  download_url: string | null;
  expires_at: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function presentExport(services: Services, row: TransferRow): ExportJobView {
  const options = JSON.parse(row.options) as ExportOptions;
  const state = stateOf(row);
  const link = state === 'succeeded' ? downloadLink(services, row.project_id, row.job_id) : undefined;
  return {
    id: row.job_id,
    state,
    format: options.format,
    from: options.from,
    to: options.to,
    events: state === 'succeeded' ? row.stored : null,
    bytes: state === 'succeeded' ? row.total_bytes : null,
    download_url: link?.url ?? null,
    expires_at: link?.expires_at ?? null,
    error: state === 'failed' ? row.error : null,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}
