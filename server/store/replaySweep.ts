// Queueing the sweep that deletes recordings (replay/replayRetention.ts runs it): every hour, at start,
// and at once when a project is deleted (accounts/), so it sits below both.

import { queueOnce, type JobServices } from './jobs.js';

export const REPLAY_SWEEP = 'replay.sweep';

/** Queues a sweep unless one is already waiting, and wakes the job runner. */
export function queueSweep(services: JobServices): void {
  queueOnce(services, REPLAY_SWEEP);
}
