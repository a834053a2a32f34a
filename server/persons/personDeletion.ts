// Deleting a person on request: the request resolves the person's ids, refuses them at ingest from
// then on (erasedIds.ts) and queues a job; the job deletes, in one transaction of the event store's
// writer, every event naming one of the ids with the labeled events derived from them, their
// identity links and traits, their recordings, and the project's rollup rows of the local days on
// which they had events (folded again from the remaining events; the other days' rows and other
// projects' stay), then checkpoints so the deleted rows leave the file. The data version
// moves with it, so no cached answer keeps them. The ids are kept only while the job has not
// succeeded (a failed job's until a later deletion of the same ids succeeded). The deletes
// themselves are their tables' owners' (server/ingest, server/replay).

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { kickJobs, queueJob, type Job, type JobState } from '../store/jobs.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { statementsOf } from '../engine/statements.js';
import { actorDayFolder } from '../engine/rollups/actorDayFolder.js';
import { forgetEndedRefusals, refuseIds } from '../ingest/erasedIds.js';
import { resolvePerson, type Read } from './personIds.js';
import { findPerson } from './personSummary.js';

/** The job kind. */
export const PERSON_DELETION = 'person_deletion';

export interface PersonDeletionJob {
  id: number;
  state: JobState;
  /** How many ids of the person are deleted. */
  ids: number;
  /** Events deleted (labeled events derived from theirs included); null until the job succeeded. */
  deleted_events: number | null;
  deleted_recordings: number | null;
  error: string | null;
  requested_by: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const SELECT = `SELECT j.id, j.state, d.id_count AS ids, d.deleted_events, d.deleted_recordings, j.error, d.requested_by, j.created_at, j.started_at, j.finished_at
  FROM person_deletions d JOIN jobs j ON j.id = d.job_id`;

/** Resolves the person `key` names (404 when none), refuses their ids at ingest and queues their deletion. */
export async function requestPersonDeletion(services: Services, projectId: number, key: string, userId: number): Promise<PersonDeletionJob> {
  const person = await findPerson(services, projectId, key);
  const { meta, clock } = services;
  const now = clock.now();
  const job = meta
    .transaction(() => {
      forgetEndedRefusals(meta, now);
      refuseIds(services, meta, projectId, person.ids, now);
      const jobId = queueJob(meta, PERSON_DELETION, projectId, now);
      meta
        .prepare('INSERT INTO person_deletions (job_id, project_id, requested_by, ids, id_count) VALUES (?, ?, ?, ?, ?)')
        .run(jobId, projectId, userId, JSON.stringify(person.ids), person.ids.length);
      return getPersonDeletion(meta, projectId, jobId)!;
    })
    .immediate();
  kickJobs(services);
  return job;
}

export function getPersonDeletion(meta: MetaDb, projectId: number, jobId: number): PersonDeletionJob | undefined {
  const row = meta.prepare(`${SELECT} WHERE d.project_id = ? AND d.job_id = ?`).get(projectId, jobId) as PersonDeletionJob | undefined;
  return row && presentPersonDeletion(row);
}

/** Failed deletions keep the ids they were asked about; once a later one deleted all of them, they go too. */
function forgetFailedAsks(meta: MetaDb, projectId: number, deleted: ReadonlySet<string>): void {
  const failed = meta
    .prepare("SELECT d.job_id, d.ids FROM person_deletions d JOIN jobs j ON j.id = d.job_id WHERE d.project_id = ? AND d.ids IS NOT NULL AND j.state = 'failed'")
    .all(projectId) as Array<{ job_id: number; ids: string }>;
  const forget = meta.prepare('UPDATE person_deletions SET ids = NULL WHERE job_id = ?');
  for (const row of failed) if ((JSON.parse(row.ids) as string[]).every((id) => deleted.has(id))) forget.run(row.job_id);
}

/** The job as the API shows it: the counts only once it succeeded. */
function presentPersonDeletion(row: PersonDeletionJob): PersonDeletionJob {
  const done = row.state === 'succeeded';
  return { ...row, deleted_events: done ? row.deleted_events : null, deleted_recordings: done ? row.deleted_recordings : null };
}

/**
 * The job. Waits for the acknowledged events to be loaded, then, while no rollup fold runs,
 * resolves the ids again on the writer (links or events that arrived since the request add to
 * them) and deletes everything naming them in one transaction. Safe to run again.
 */
export async function deletePerson(services: Services, job: Job): Promise<{ deleted_events: number; deleted_recordings: number }> {
  const projectId = job.project_id!;
  const row = services.meta.prepare('SELECT ids FROM person_deletions WHERE job_id = ?').get(job.id) as { ids: string | null } | undefined;
  const asked = JSON.parse(row?.ids ?? '[]') as string[];
  await ingestWriter(services).loaded();
  const counts = await actorDayFolder(services).exclusive(() =>
    services.events.useWriter(async (conn) => {
      const sql = statementsOf(services.events);
      const resolve = async (read: Read) => {
        const ids = new Set(asked);
        for (const key of asked) for (const id of (await resolvePerson(sql.persons, read, projectId, key))?.ids ?? []) ids.add(id);
        return [...ids];
      };
      return sql.jobs.deletePerson(conn, projectId, resolve, (all) => {
        if (all.length > asked.length) refuseIds(services, services.meta, projectId, all, services.clock.now());
      });
    }),
  );
  // Counted once, on the run that found them (a run again after a stop finds nothing left).
  services.meta
    .prepare('UPDATE person_deletions SET ids = NULL, deleted_events = coalesce(deleted_events, 0) + ?, deleted_recordings = coalesce(deleted_recordings, 0) + ? WHERE job_id = ?')
    .run(counts.events, counts.recordings, job.id);
  forgetFailedAsks(services.meta, projectId, new Set(counts.ids));
  const done = services.meta.prepare('SELECT deleted_events, deleted_recordings FROM person_deletions WHERE job_id = ?').get(job.id) as { deleted_events: number; deleted_recordings: number };
  services.log.info({ job_id: job.id, project_id: projectId, ...done }, 'person deleted');
  return done;
}
