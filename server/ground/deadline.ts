// The deadline the running work is under: a background job over its time budget, or cut short by
// the shutdown, aborts its signal, and an engine interrupts every statement started under it
// (directly or through anything the work awaits). Kept here, below the stores and the engines, so
// the job runner and each engine meet without importing each other.

import { AsyncLocalStorage } from 'node:async_hooks';

const deadlines = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` so that every statement it starts is interrupted once `signal` aborts. */
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

/** The signal of the deadline the calling work is under, if any. */
export function currentDeadline(): AbortSignal | undefined {
  return deadlines.getStore();
}
