// The import and export jobs as the API answers them.

import type { Services } from '../http/services.js';
import type { ImportOptions } from './importJob.js';
import type { ExportOptions } from './exportJob.js';
import { downloadLink } from './exportLink.js';
import { rejectionsOf, stateOf, type Rejection, type TransferRow, type TransferState } from './transferJobs.js';
import { exportExpired, exportExpiry } from './transferSweep.js';

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
  /** When the uploaded file was removed (as the import succeeded, or by the sweep after it was cancelled or failed); null while kept. */
  file_removed_at: string | null;
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
    file_removed_at: row.file_removed_at,
  };
}

/** An export whose file is past its keeping is `expired`. */
export type ExportState = TransferState | 'expired';

export interface ExportJobView {
  id: number;
  state: ExportState;
  format: string;
  from: string | null;
  to: string | null;
  events: number | null;
  bytes: number | null;
  download_url: string | null;
  expires_at: string | null;
  /** When the file stops being kept (then the export is expired); null unless it succeeded. */
  file_expires_at: string | null;
  /** When the sweep removed the file; null while it is kept. */
  file_removed_at: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function presentExport(services: Services, row: TransferRow): ExportJobView {
  const options = JSON.parse(row.options) as ExportOptions;
  const ran = stateOf(row);
  const state: ExportState = ran === 'succeeded' && exportExpired(services, row) ? 'expired' : ran;
  const link = state === 'succeeded' ? downloadLink(services, row.project_id, row.job_id) : undefined;
  const fileExpiry = exportExpiry(row);
  return {
    id: row.job_id,
    state,
    format: options.format,
    from: options.from,
    to: options.to,
    events: ran === 'succeeded' ? row.stored : null,
    bytes: ran === 'succeeded' ? row.total_bytes : null,
    download_url: link?.url ?? null,
    expires_at: link?.expires_at ?? null,
    file_expires_at: fileExpiry?.toISOString() ?? null,
    file_removed_at: row.file_removed_at,
    error: state === 'failed' ? row.error : null,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}
