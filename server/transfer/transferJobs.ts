// The imports and exports of a project as jobs: queued in the jobs table (server/store/jobs.ts runs
// them, those a stopped server left behind included), with their options, progress, checkpoint and
// refused lines in transfer_jobs and transfer_rejections (migrations/sqlite/0068), and when the sweep
// removed its file (0070, transferSweep.ts). What a job does
// is importJob.ts's and exportJob.ts's; HTTP is routes.ts's.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { kickJobs, queueJob, type JobState } from '../store/jobs.js';

export const IMPORT_JOB = 'import';
export const EXPORT_JOB = 'export';
export const TRANSFERS_LISTED = 50;
/** Refused lines kept per import (all are counted). */
export const REJECTIONS_KEPT = 1000;
/** Refused lines shown with a job. */
export const REJECTIONS_SHOWN = 100;

export type Direction = 'import' | 'export';
export type TransferState = JobState | 'cancelled';

export interface TransferRow {
  job_id: number;
  project_id: number;
  direction: Direction;
  requested_by: number | null;
  options: string;
  total_bytes: number;
  done_bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  rejected: number;
  checkpoint: string | null;
  cancel_requested: number;
  updated_at: string;
  /** When the sweep removed the transfer's file (transferSweep.ts); null while it is kept. */
  file_removed_at: string | null;
  state: JobState;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  result: string | null;
}

const SELECT = `SELECT t.*, j.state, j.created_at, j.started_at, j.finished_at, j.error, j.result FROM transfer_jobs t JOIN jobs j ON j.id = t.job_id`;

/** Queues an import or export of the project; answers its id. */
export function createTransfer(services: Services, projectId: number, direction: Direction, userId: number | null, options: object, totalBytes = 0): number {
  const { meta, clock } = services;
  const now = clock.now();
  const id = meta.transaction(() => {
    const jobId = queueJob(meta, direction === 'import' ? IMPORT_JOB : EXPORT_JOB, projectId, now);
    meta
      .prepare('INSERT INTO transfer_jobs (job_id, project_id, direction, requested_by, options, total_bytes, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(jobId, projectId, direction, userId, JSON.stringify(options), totalBytes, now.toISOString());
    return jobId;
  })();
  kickJobs(services);
  return id;
}

export function transferRow(meta: MetaDb, jobId: number): TransferRow | undefined {
  return meta.prepare(`${SELECT} WHERE t.job_id = ?`).get(jobId) as TransferRow | undefined;
}

/** One transfer of the project in this direction, or undefined. */
export function findTransfer(meta: MetaDb, projectId: number, direction: Direction, jobId: number): TransferRow | undefined {
  const row = transferRow(meta, jobId);
  return row && row.project_id === projectId && row.direction === direction ? row : undefined;
}

export function listTransfers(meta: MetaDb, projectId: number, direction: Direction): TransferRow[] {
  return meta.prepare(`${SELECT} WHERE t.project_id = ? AND t.direction = ? ORDER BY t.job_id DESC LIMIT ?`).all(projectId, direction, TRANSFERS_LISTED) as TransferRow[];
}

/** An unfinished import of the project with exactly these options (`ppctl import` run again after a stop). */
export function unfinishedImport(meta: MetaDb, projectId: number, options: object): TransferRow | undefined {
  return meta
    .prepare(`${SELECT} WHERE t.project_id = ? AND t.direction = 'import' AND t.options = ? AND t.cancel_requested = 0 AND j.state IN ('queued', 'running') ORDER BY t.job_id DESC LIMIT 1`)
    .get(projectId, JSON.stringify(options)) as TransferRow | undefined;
}

/** Asks the job to stop: a queued one never starts, a running one stops after its current batch. */
export function requestCancel(services: Services, jobId: number): void {
  services.meta.prepare('UPDATE transfer_jobs SET cancel_requested = 1, updated_at = ? WHERE job_id = ?').run(services.clock.now().toISOString(), jobId);
}

export function cancelRequested(meta: MetaDb, jobId: number): boolean {
  return (meta.prepare('SELECT cancel_requested FROM transfer_jobs WHERE job_id = ?').get(jobId) as { cancel_requested: number } | undefined)?.cancel_requested === 1;
}

/** The state a person sees: a job stopped at someone's request is cancelled, not failed. */
export function stateOf(row: TransferRow): TransferState {
  if (row.cancel_requested === 1 && (row.state === 'failed' || (row.state === 'succeeded' && row.result !== null && (JSON.parse(row.result) as { cancelled?: boolean }).cancelled))) return 'cancelled';
  return row.state;
}

export interface Progress {
  done_bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  rejected: number;
  checkpoint?: unknown;
}

export function saveProgress(services: Services, jobId: number, p: Progress): void {
  services.meta
    .prepare('UPDATE transfer_jobs SET done_bytes = ?, lines = ?, stored = ?, duplicates = ?, rejected = ?, checkpoint = coalesce(?, checkpoint), updated_at = ? WHERE job_id = ?')
    .run(p.done_bytes, p.lines, p.stored, p.duplicates, p.rejected, p.checkpoint === undefined ? null : JSON.stringify(p.checkpoint), services.clock.now().toISOString(), jobId);
}

export interface Rejection {
  file: string;
  line: number;
  reason: string;
}

/** Keeps refused lines up to REJECTIONS_KEPT per job. */
export function keepRejections(meta: MetaDb, jobId: number, rejections: readonly Rejection[]): void {
  if (rejections.length === 0) return;
  const kept = (meta.prepare('SELECT count(*) AS n FROM transfer_rejections WHERE job_id = ?').get(jobId) as { n: number }).n;
  const insert = meta.prepare('INSERT INTO transfer_rejections (job_id, file, line, reason) VALUES (?, ?, ?, ?)');
  meta.transaction(() => {
    for (const r of rejections.slice(0, Math.max(0, REJECTIONS_KEPT - kept))) insert.run(jobId, r.file, r.line, r.reason);
  })();
}

export function rejectionsOf(meta: MetaDb, jobId: number, limit = REJECTIONS_SHOWN): Rejection[] {
  return meta.prepare('SELECT file, line, reason FROM transfer_rejections WHERE job_id = ? ORDER BY rowid LIMIT ?').all(jobId, limit) as Rejection[];
}
