// A full disk under the data folder: recognized in whatever form it reaches us (SQLite's
// SQLITE_FULL, a file write's ENOSPC or EDQUOT, DuckDB's "No space left on device") so that it is
// answered 503 `storage_full` (StorageFullError) instead of 500, and reported by the readiness check
// while it lasts.

import { existsSync, statfsSync } from 'node:fs';
import path from 'node:path';

/** Below this much free space the data folder counts as full: SQLite and DuckDB need room to write. */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;
const FULL_MESSAGE = /no space left on device|database or disk is full|disk quota exceeded|disk is full/i;

export function isStorageFull(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, cause } = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  if (typeof message === 'string' && FULL_MESSAGE.test(message)) return true;
  return cause !== undefined && cause !== err && isStorageFull(cause);
}

/** Bytes an unprivileged user may still write under `dir` (or, before it exists, where it will be). */
export function freeBytes(dir: string): number {
  let probe = dir;
  while (!existsSync(probe)) probe = path.dirname(probe);
  const st = statfsSync(probe);
  return st.bavail * st.bsize;
}
