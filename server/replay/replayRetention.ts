// Deleting recordings: those past their project's replay_retention_days (a sweep job queued every
// hour and at start), every recording of a deleted project (the same sweep, queued at once), and a
// person's recordings when the person is deleted (server/persons). A recording goes as a whole: a session is deleted once its last
// activity is older than the cutoff. Deletes run as exclusive turns of the ingest writer, the one
// connection that writes the event store.

import type { Services } from '../http/services.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { queueSweep } from '../store/replaySweep.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';
import type { Statement } from '../engine/engine.js';
import { retentionDays } from './replaySettings.js';

const SWEEP_EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** A sweep now and every hour while the server runs (a worker, workers.ts); stopped at shutdown. */
export function startReplaySweeps(services: Services): void {
  queueSweep(services);
  const timer = setInterval(() => {
    try {
      queueSweep(services);
    } catch (err) {
      services.log.error({ err }, 'queueing the recordings sweep failed');
    }
  }, SWEEP_EVERY_MS);
  timer.unref();
  services.onShutdown(() => clearInterval(timer));
}

/** The job: per project with recordings, deletes those past retention (all of them for a deleted project). */
export async function sweepRecordings(services: Services): Promise<{ deleted_chunks: number }> {
  const now = services.clock.now().getTime();
  const projects = await readEvents(services, statementsOf(services.events).replay.recordedProjectsSql());
  let deleted = 0;
  for (const { project_id } of projects) {
    const id = Number(project_id);
    const live = services.meta.prepare('SELECT 1 FROM projects WHERE id = ? AND deleted_at IS NULL').get(id);
    deleted += live ? await deleteOlderThan(services, id, new Date(now - retentionDays(services.meta, id) * DAY_MS)) : await deleteProjectRecordings(services, id);
  }
  if (deleted > 0) services.log.info({ deleted_chunks: deleted }, 'recordings deleted');
  return { deleted_chunks: deleted };
}

function deleteOlderThan(services: Services, projectId: number, cutoff: Date): Promise<number> {
  return deleteChunks(services, statementsOf(services.events).replay.deleteRecordingsBeforeSql(projectId, cutoff));
}

function deleteProjectRecordings(services: Services, projectId: number): Promise<number> {
  return deleteChunks(services, statementsOf(services.events).replay.deleteProjectRecordingsSql(projectId));
}

async function deleteChunks(services: Services, statement: Statement): Promise<number> {
  return ingestWriter(services).exclusive((conn) => statementsOf(services.events).replay.deleteChunks(conn, statement), { changes: 'reported' });
}
