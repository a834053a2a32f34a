// The storage format of the events file. DuckDB writes a file in the format of v0.10.2 unless told
// otherwise, which keeps out the compression added since (DICT_FSST for text and JSON): a third of
// the store's bytes on tracker traffic (docs/BENCHMARKS.md, "Where the stored bytes go"). A new
// file is made in STORAGE_VERSION; an existing one in an older format is copied once, at open, into
// a fresh file of that format, which then replaces it.

import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** The format new files are written in, and older ones are copied into. */
export const STORAGE_VERSION = 'v1.5.0';

/** What a copy of an older file is called until it replaces that file. */
export const upgradeFile = (file: string) => `${file}.upgrade`;

/** A version tag as DuckDB reports it (`v1.0.0+`) as numbers to compare, oldest lowest. */
function versionParts(tag: string): number[] {
  return (/^v(\d+)\.(\d+)\.(\d+)/.exec(tag) ?? []).slice(1).map(Number);
}

export function olderThan(tag: string, version: string): boolean {
  const [a, b] = [versionParts(tag), versionParts(version)];
  if (a.length === 0) return true;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** The storage version of the file an instance opened, as DuckDB tags it (`v1.0.0+`). */
async function fileVersion(instance: DuckDBInstance): Promise<{ database: string; version: string }> {
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll("SELECT database_name AS db, tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = current_database()");
    const row = reader.getRowObjects()[0]!;
    return { database: String(row.db), version: row.v === null ? '' : String(row.v) };
  } finally {
    conn.closeSync();
  }
}

function fsyncPath(target: string): void {
  const fd = openSync(target, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies `file` into STORAGE_VERSION's format when it is older, before anything else opens it:
 * every table in its row order (rowids, which the rollup folder relies on, stay those of the
 * original unless deleted rows left gaps, which the folder then notices), with its constraints and
 * macros, and no free blocks. The copy replaces the file by a rename only once it is complete and
 * the original's write-ahead log is checkpointed away, so a crash at any point leaves one whole
 * store: the original, or the copy. Answers whether the file was copied.
 */
export async function upgradeStorage(file: string, settings: Record<string, string>): Promise<boolean> {
  if (!existsSync(file)) return false;
  const fresh = upgradeFile(file);
  // A copy a crash interrupted: the original is still whole, so it is made again.
  rmSync(fresh, { force: true });
  rmSync(`${fresh}.wal`, { force: true });
  const instance = await DuckDBInstance.create(file, settings);
  try {
    const { database, version } = await fileVersion(instance);
    if (!olderThan(version, STORAGE_VERSION)) return false;
    const conn = await instance.connect();
    try {
      await conn.run('FORCE CHECKPOINT');
      await conn.run(`ATTACH '${fresh.replaceAll("'", "''")}' AS pp_upgrade (STORAGE_VERSION '${STORAGE_VERSION}')`);
      await conn.run(`COPY FROM DATABASE "${database.replaceAll('"', '""')}" TO pp_upgrade`);
      await conn.run('DETACH pp_upgrade');
    } catch (err) {
      await conn.run('DETACH DATABASE IF EXISTS pp_upgrade').catch(() => undefined);
      rmSync(fresh, { force: true });
      throw err;
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  if (existsSync(`${file}.wal`) || existsSync(`${fresh}.wal`)) {
    rmSync(fresh, { force: true });
    throw new Error(`the copy of ${file} into storage ${STORAGE_VERSION} was left with a write-ahead log; the store is kept as it was`);
  }
  fsyncPath(fresh);
  renameSync(fresh, file);
  fsyncPath(path.dirname(file));
  return true;
}
