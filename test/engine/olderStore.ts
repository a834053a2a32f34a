// A data folder's events.duckdb in DuckDB's default (older) storage format, with pp's migrations
// applied on a bare connection, events of three projects and an identity link: what a store made
// before pp wrote the current format holds.

import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import type { EventEngine } from '../../server/engine/engine.js';

export const VERSION_SQL = "SELECT tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = current_database()";

function bare(conn: DuckDBConnection): EventEngine {
  return {
    write: async (sql: string, params: unknown[] = []) => void (await conn.run(sql, params as never)),
    read: async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjects(),
  } as unknown as EventEngine;
}

/** The store's file and the format DuckDB wrote it in (`v0.10.2+`, as it tags it). */
export async function olderStore(dataDir: string, events: number): Promise<{ file: string; version: string }> {
  const file = path.join(dataDir, 'events.duckdb');
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await migrateEvents(bare(conn));
    await conn.run(`INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, url, props)
      SELECT 1 + i % 3, uuid(), TIMESTAMPTZ '2026-11-01' + to_seconds(i), TIMESTAMPTZ '2026-11-01' + to_seconds(i), 'page_view',
             'device-' || (i % 97), 'browser', 'https://shop.example.com/p/' || (i % 13), '{"category": "c' || (i % 7) || '"}'
        FROM range(${events}) r(i)`);
    await conn.run("INSERT INTO identity_links VALUES (1, 'device-1', 'user-1', TIMESTAMPTZ '2026-11-02', 1, 2)");
    return { file, version: String((await conn.runAndReadAll(VERSION_SQL)).getRowObjects()[0]!.v) };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
