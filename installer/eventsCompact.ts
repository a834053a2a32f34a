// `ppctl events compact`: rewrites a stopped installation's DuckDB event store into a fresh file of
// the current storage format, without the free blocks that deletions and the rollups' compactions
// leave behind (server/engine/duckdb/storageVersion.ts does the copy). Needs as much free disk as
// the store takes, beside it, until the copy replaces it.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../server/ground/config.js';
import { compactStore, type CompactedStore } from '../server/engine/duckdb/storageVersion.js';
import { storeSettings } from '../server/engine/duckdb/duckDbEngine.js';
import { freeBytes, mib } from './diskSpace.js';
import { InstallerError } from './installation.js';
import { runningServerStatus } from './runningServer.js';

export type CompactReport = CompactedStore & { ms: number };

export async function compactEvents(config: Config): Promise<CompactReport> {
  if (config.events.engine === 'clickhouse') throw new InstallerError(`the events of ${config.data_dir} are on ClickHouse (events.engine clickhouse): there is no DuckDB store to compact`);
  const file = path.join(config.data_dir, 'events.duckdb');
  if (!existsSync(file)) throw new InstallerError(`${config.data_dir} holds no DuckDB event store (events.duckdb)`);
  const running = await runningServerStatus(config);
  if (running) throw new InstallerError(`pp ${running.version} is running on ${config.data_dir} (pid ${running.pid}); stop it first: nothing else may have the event store open`);
  const needed = statSync(file).size;
  const free = freeBytes(config.data_dir);
  if (free < needed) throw new InstallerError(`the copy needs ${mib(needed)} free beside the store in ${config.data_dir}; ${mib(free)} are`);
  const started = Date.now();
  const done = await compactStore(file, storeSettings({ memoryLimitMb: config.events.memory_limit_mb, tempDirectory: path.join(config.data_dir, 'events.tmp') }));
  return { ...done, ms: Date.now() - started };
}

/** The report as an operator reads it. */
export function compactLines(r: CompactReport): string[] {
  const format = r.versionBefore === r.versionAfter ? `storage format ${r.versionAfter}` : `storage format ${r.versionBefore || 'untagged'} → ${r.versionAfter}`;
  return [`events.duckdb: ${mib(r.bytesBefore)} → ${mib(r.bytesAfter)} in ${(r.ms / 1000).toFixed(1)} s (${format})`];
}
