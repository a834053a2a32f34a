// The storage format new events files (and the files the store attaches, such as a backup's
// snapshot) are written in, and the copy that moves a stopped store into it. DuckDB writes the
// format of v0.10.2 unless told otherwise, which keeps out the compression added since (DICT_FSST
// for text and JSON): a fifth of a new store's bytes on tracker traffic (docs/BENCHMARKS.md, "Where
// the stored bytes go"). A file of an older format is opened and written in its own format: copying
// it at open would hold a 10M store's start for longer than an upgrade waits for the server's
// health, so the copy is an operator's command (`ppctl events compact`) run with pp stopped.

import { chmodSync, chownSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { syncPath } from '../../ground/syncPath.js';

/** Every pp release so far reads it: all of them run DuckDB 1.5. */
export const STORAGE_VERSION = 'v1.5.0';

/** What a copy is called until it replaces the file. */
export const compactFile = (file: string) => `${file}.compact`;

export interface CompactedStore {
  /** The format the file was in (`v1.0.0+`, as DuckDB tags it), and is in now. */
  versionBefore: string;
  versionAfter: string;
  bytesBefore: number;
  bytesAfter: number;
}

const VERSION_SQL = "SELECT database_name AS db, tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = current_database()";

/**
 * Copies the events file `file` (nothing else may have it open) into a fresh file of
 * STORAGE_VERSION's format: every table in row order with its keys and macros, and none of the
 * free blocks deletions and the rollups' compactions leave behind. The copy replaces the file by a
 * rename only once it is complete and the original's write-ahead log is checkpointed away, with the
 * original's owner and mode, so a stop at any point leaves one whole store. Rowids stay those of
 * the original unless deleted rows left gaps; the rollup folder then sees its folded point moved and
 * folds again.
 */
export async function compactStore(file: string, settings: Record<string, string>): Promise<CompactedStore> {
  const fresh = compactFile(file);
  // A copy a stop interrupted: the original is still whole, so it is made again.
  rmSync(fresh, { force: true });
  rmSync(`${fresh}.wal`, { force: true });
  const instance = await DuckDBInstance.create(file, settings);
  let versionBefore: string;
  try {
    const conn = await instance.connect();
    try {
      const row = (await conn.runAndReadAll(VERSION_SQL)).getRowObjects()[0]!;
      versionBefore = row.v === null ? '' : String(row.v);
      await conn.run('FORCE CHECKPOINT');
      await conn.run(`ATTACH '${fresh.replaceAll("'", "''")}' AS pp_compact (STORAGE_VERSION '${STORAGE_VERSION}')`);
      await conn.run(`COPY FROM DATABASE "${String(row.db).replaceAll('"', '""')}" TO pp_compact`);
      await conn.run('DETACH pp_compact');
    } catch (err) {
      await conn.run('DETACH DATABASE IF EXISTS pp_compact').catch(() => undefined);
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
    throw new Error(`the copy of ${file} was left with a write-ahead log; the store is kept as it was`);
  }
  const original = statSync(file);
  chownSync(fresh, original.uid, original.gid);
  chmodSync(fresh, original.mode & 0o7777);
  syncPath(fresh);
  const bytesAfter = statSync(fresh).size;
  renameSync(fresh, file);
  syncPath(path.dirname(file));
  return { versionBefore, versionAfter: `${STORAGE_VERSION}+`, bytesBefore: original.size, bytesAfter };
}
