// The data folder must exist and be writable, with everything pp keeps in it, before a store opens:
// otherwise SQLite says only "unable to open database file". The message names the folder (or the
// file), says why (a read-only file system, or the user running pp lacks the right) and the fix.

import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../ground/config.js';

/** What pp writes in the data folder; each that exists must be writable too. */
const KEPT = ['meta.sqlite', 'meta.sqlite-wal', 'meta.sqlite-shm', 'events.duckdb', 'events.duckdb.wal', 'secret.key', 'ingest-journal', 'events.tmp'];

export function prepareDataDir(dir: string): void {
  const folder = path.resolve(dir);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ConfigError(`the data folder ${folder} cannot be created: ${why(err, nearestExisting(folder))}`);
  }
  for (const target of [folder, ...KEPT.map((f) => path.join(folder, f)).filter((f) => existsSync(f))]) {
    try {
      accessSync(target, constants.R_OK | constants.W_OK);
    } catch (err) {
      const what = target === folder ? `the data folder ${folder}` : `${target} in the data folder`;
      throw new ConfigError(`${what} cannot be written: ${why(err, target)}`);
    }
  }
}

function why(err: unknown, target: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  const other = 'or choose another data folder with --data-dir (PP_DATA_DIR)';
  if (code === 'EROFS') return `it is on a read-only file system; mount it read-write ${other}`;
  if (code === 'EACCES' || code === 'EPERM') {
    const { username, uid } = os.userInfo();
    return `the user running pp (${username}, uid ${uid}) lacks the permission; give it the folder (chown -R ${username} ${target}) ${other}`;
  }
  return `${(err as Error).message}; ${other.slice(3)}`;
}

/** The closest ancestor that exists: the one whose permissions stop a mkdir. */
function nearestExisting(folder: string): string {
  let dir = folder;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}
