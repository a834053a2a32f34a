// The deadline a piece of background work runs under: every read and writer turn of the event engine
// that it starts (directly or through anything it awaits) is interrupted once the deadline's signal
// aborts. The engines read it; the job runner sets it, the ingest writer steps out of it.

import { AsyncLocalStorage } from 'node:async_hooks';

const deadlines = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` so that every read and writer turn it starts is interrupted once `signal` aborts, and
 * rejects with the signal's reason: how a background job over its time budget, or cut short by the
 * shutdown, lets go of the engine.
 */
export function underDeadline<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return deadlines.run(signal, work);
}

/**
 * Runs `work` under no deadline: for what a deadlined caller merely sets going on behalf of
 * everyone (the ingest writer's loading), which must not stop when that caller's deadline passes.
 */
export function outsideDeadline<T>(work: () => T): T {
  return deadlines.exit(work);
}

/** The signal of the deadline the running work is under, if any. */
export function currentDeadline(): AbortSignal | undefined {
  return deadlines.getStore();
}
