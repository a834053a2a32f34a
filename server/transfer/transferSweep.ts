// Removing the files of imports and exports once nobody can use them: an export's file
// EXPORT_KEPT_MS after the export finished (it then answers as `expired`, and its download 410),
// the uploaded file of an import that was cancelled or failed (one that succeeded removes its own),
// and uploads no import names (a server stopped between the upload and the import) once they are
// UPLOAD_GRACE_MS old. A sweep job queued at start and every hour (a worker, workers.ts); the
// transfer's record keeps when its file went (`file_removed_at`). Files of a queued or running job
// stay, whatever their age.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../http/services.js';
import { queueOnce } from '../store/jobs.js';
import { exportDir, exportFile, type ExportOptions } from './exportJob.js';
import { stagingFiles } from './exportPages.js';
import { uploadDir, type ImportOptions } from './importJob.js';
import { stateOf, transferRow, type TransferRow } from './transferJobs.js';

export const TRANSFER_SWEEP = 'transfer.sweep';
const DAY_MS = 86_400_000;
/** How long an export's file stays for download after the export finished. */
export const EXPORT_KEPT_MS = 7 * DAY_MS;
/** How old an upload no import names may get (one still arriving, or about to be named) before it goes. */
export const UPLOAD_GRACE_MS = DAY_MS;
const SWEEP_EVERY_MS = 60 * 60_000;

/** When the export's file stops being kept: EXPORT_KEPT_MS after it finished; null unless it succeeded. */
export function exportExpiry(row: TransferRow): Date | null {
  if (stateOf(row) !== 'succeeded' || !row.finished_at) return null;
  return new Date(Date.parse(row.finished_at) + EXPORT_KEPT_MS);
}

/** Whether the export succeeded and its file is past its keeping (whether or not a sweep removed it yet). */
export function exportExpired(services: Services, row: TransferRow): boolean {
  const expiry = exportExpiry(row);
  return expiry !== null && (row.file_removed_at !== null || expiry.getTime() <= services.clock.now().getTime());
}

/** Queues a sweep unless one is already waiting, and wakes the job runner. */
export function queueTransferSweep(services: Services): void {
  queueOnce(services, TRANSFER_SWEEP);
}

/** A sweep now and every hour while the server runs; stopped at shutdown. */
export function startTransferSweeps(services: Services): void {
  queueTransferSweep(services);
  const timer = setInterval(() => {
    try {
      queueTransferSweep(services);
    } catch (err) {
      services.log.error({ err }, 'queueing the transfer sweep failed');
    }
  }, SWEEP_EVERY_MS);
  timer.unref();
  services.onShutdown(() => clearInterval(timer));
}

const live = (row: TransferRow) => row.state === 'queued' || row.state === 'running';

/** The uploaded files an import names (a local file ppctl named is never the sweep's). */
function uploadsOf(services: Services, row: TransferRow): string[] {
  return (JSON.parse(row.options) as ImportOptions).files.map((f) => f.path).filter((p) => path.dirname(p) === uploadDir(services));
}

function remove(file: string): boolean {
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

/** The job: removes what is past keeping and records it on each transfer; answers how many files went. */
export async function sweepTransfers(services: Services): Promise<{ exports: number; uploads: number }> {
  const { meta } = services;
  const now = services.clock.now();
  const removed = { exports: 0, uploads: 0 };
  const mark = meta.prepare('UPDATE transfer_jobs SET file_removed_at = ? WHERE job_id = ?');
  const rows = meta.prepare('SELECT job_id FROM transfer_jobs WHERE file_removed_at IS NULL').all() as Array<{ job_id: number }>;
  const named = new Set<string>();
  for (const { job_id } of rows) {
    const row = transferRow(meta, job_id);
    if (!row) continue;
    const succeeded = stateOf(row) === 'succeeded';
    if (row.direction === 'export') {
      if (live(row) || (succeeded && !exportExpired(services, row))) continue;
      // Past keeping, or the leftovers of an export that failed or was cancelled.
      const file = exportFile(services, row.job_id, (JSON.parse(row.options) as ExportOptions).format);
      // A staging database is left behind only by a server stopped while it wrote the export.
      for (const staging of stagingFiles(file)) remove(staging);
      const gone = remove(file);
      if (gone) removed.exports += 1;
      if (gone || succeeded) mark.run(now.toISOString(), row.job_id);
    } else {
      // An import that succeeded removed its upload itself, and said so.
      const uploads = uploadsOf(services, row);
      for (const f of uploads) named.add(f);
      if (live(row) || uploads.length === 0) continue;
      let gone = 0;
      for (const f of uploads) if (remove(f)) gone += 1;
      removed.uploads += gone;
      if (gone > 0 || !succeeded) mark.run(now.toISOString(), row.job_id);
    }
  }
  removed.exports += sweepStrayExports(services);
  removed.uploads += sweepStrayUploads(services, named, now);
  if (removed.exports + removed.uploads > 0) services.log.info(removed, 'transfer files removed');
  return removed;
}

const EXPORT_NAME = /^export-(\d{1,15})\.[a-z]{1,10}(?:\.staging(?:\.wal)?)?$/;
const UPLOAD_NAME = /^upload-(\d{1,15})-[0-9a-f]{1,64}$/;

function filesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Files of exports whose record is gone (a deleted project's); looked up one by one, so a new export's file stays. */
function sweepStrayExports(services: Services): number {
  let n = 0;
  for (const name of filesOf(exportDir(services))) {
    const id = EXPORT_NAME.exec(name)?.[1];
    if (id !== undefined && !transferRow(services.meta, Number(id)) && remove(path.join(exportDir(services), name))) n += 1;
  }
  return n;
}

/**
 * Uploads no import names, once past the grace (their name holds when they were received): an
 * upload is named by its import at once, so one past the grace was left by a stop in between.
 */
function sweepStrayUploads(services: Services, named: ReadonlySet<string>, now: Date): number {
  const dir = uploadDir(services);
  let n = 0;
  for (const name of filesOf(dir)) {
    const received = UPLOAD_NAME.exec(name)?.[1];
    const file = path.join(dir, name);
    if (received === undefined || named.has(file) || Number(received) + UPLOAD_GRACE_MS > now.getTime()) continue;
    if (remove(file)) n += 1;
  }
  return n;
}
