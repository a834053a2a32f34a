// Purging a project's form-interaction data: a request queues a job (at most one per project is
// queued or running), and the job deletes every pp.form_* event of the project, all time, with the
// rollup rows folded from them. HTTP is in purgeRoutes.ts; the jobs table and its runner are
// server/store's, the delete server/ingest's, the rollups server/queries'.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { kickJobs, queueJob, type Job, type JobState } from '../store/jobs.js';
import { statementsOf } from '../engine/statements.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { actorDayFolder } from '../engine/rollups/actorDayFolder.js';

export const FORM_EVENTS = ['pp.form_start', 'pp.form_submit', 'pp.form_abandon'] as const;
/** The job kind; the jobs table's unique index for one active purge per project names it too. */
export const FORM_PURGE = 'form_purge';
export const FORM_PURGES_LISTED = 50;

export interface FormPurgeJob {
  id: number;
  state: JobState;
  /** How many events the purge deleted; null until it succeeded. */
  deleted_events: number | null;
  error: string | null;
  requested_by: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const SELECT = `SELECT j.id, j.state, f.deleted_events, j.error, f.requested_by, j.created_at, j.started_at, j.finished_at
  FROM form_purge_jobs f JOIN jobs j ON j.id = f.job_id`;

/** Queues a purge of the project's form events, or answers the one already queued or running. */
export function requestFormPurge(services: Services, projectId: number, userId: number): { job: FormPurgeJob; created: boolean } {
  const { meta, clock } = services;
  const outcome = meta
    .transaction(() => {
      const active = meta.prepare(`${SELECT} WHERE f.project_id = ? AND j.state IN ('queued', 'running')`).get(projectId) as FormPurgeJob | undefined;
      if (active) return { job: presentFormPurge(active), created: false };
      const id = queueJob(meta, FORM_PURGE, projectId, clock.now());
      meta.prepare('INSERT INTO form_purge_jobs (job_id, project_id, requested_by) VALUES (?, ?, ?)').run(id, projectId, userId);
      return { job: getFormPurge(meta, projectId, id)!, created: true };
    })
    .immediate();
  if (outcome.created) kickJobs(services);
  return outcome;
}

/** The project's latest purges, newest first. */
export function listFormPurges(meta: MetaDb, projectId: number): FormPurgeJob[] {
  const rows = meta.prepare(`${SELECT} WHERE f.project_id = ? ORDER BY j.id DESC LIMIT ?`).all(projectId, FORM_PURGES_LISTED) as FormPurgeJob[];
  return rows.map(presentFormPurge);
}

export function getFormPurge(meta: MetaDb, projectId: number, jobId: number): FormPurgeJob | undefined {
  const row = meta.prepare(`${SELECT} WHERE f.project_id = ? AND f.job_id = ?`).get(projectId, jobId) as FormPurgeJob | undefined;
  return row && presentFormPurge(row);
}

/**
 * The job: waits for the events already acknowledged to be loaded, then, while no rollup fold
 * runs (on DuckDB; ClickHouse deletes by mutations it waits for, engine/clickhouse/deleteEvents.ts), deletes the project's form events and its rollup rows in one transaction of the writer
 * (so ingestion and the data version of cached answers move around it, not through it), and
 * checkpoints at once so that DuckDB compacts the deleted rows now, while the folder, which then
 * checks its point, still holds off. Safe to run again: a second run deletes what is left.
 */
export async function purgeFormEvents(services: Services, job: Job): Promise<{ deleted_events: number }> {
  const projectId = job.project_id!;
  await ingestWriter(services).loaded();
  // Counted before the checkpoint, which may fail after the events are gone.
  const counted = (n: number) => services.meta.prepare('UPDATE form_purge_jobs SET deleted_events = coalesce(deleted_events, 0) + ? WHERE job_id = ?').run(n, job.id);
  const purge = () => services.events.useWriter((conn) => statementsOf(services.events).jobs.purgeEvents(conn, projectId, FORM_EVENTS, counted));
  // ClickHouse keeps no rollups of events: no fold to hold off.
  const deleted = await (services.events.kind === 'duckdb' ? actorDayFolder(services).exclusive(purge) : purge());
  const row = services.meta.prepare('SELECT deleted_events FROM form_purge_jobs WHERE job_id = ?').get(job.id) as { deleted_events: number } | undefined;
  services.log.info({ job_id: job.id, project_id: projectId, deleted }, 'form events purged');
  return { deleted_events: row?.deleted_events ?? deleted };
}

/** The job as the API shows it: the count only once the purge succeeded. */
export function presentFormPurge(row: FormPurgeJob): FormPurgeJob {
  return { ...row, deleted_events: row.state === 'succeeded' ? row.deleted_events : null };
}
