// The bulk path for imported history (server/transfer/): rows already checked and normalized are
// appended with the writer's Appender in one transaction per batch, between the group commits of
// live ingestion. Unlike live ingestion, whose re-sends come within a window of receipt, an import
// is deduplicated by (project, uuid) against everything the project has stored, whenever. The live
// writer's in-memory filter is not told about imported rows (millions of them would push out the
// recent pairs it exists for): a live event repeating an imported uuid is judged by its window.

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Services } from '../services.js';
import { distinctKeys } from './distinctKey.js';
import { ingestWriter } from './groupWriter.js';
import type { EventRow } from './normalizeEvent.js';
import { TableAppender } from './tableAppender.js';

export interface StoredImport {
  stored: number;
  duplicates: number;
}

/** The uuids among these that the project has stored already. */
async function storedUuids(conn: DuckDBConnection, projectId: number, uuids: string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const reader = await conn.runAndReadAll(
    'SELECT uuid::VARCHAR AS uuid FROM events WHERE project_id = $1 AND uuid IN (SELECT unnest($2::VARCHAR[])::UUID)',
    [projectId, listValue(uuids)],
    [INTEGER, LIST(VARCHAR)],
  );
  return new Set(reader.getRowObjects().map((r) => String(r.uuid)));
}

/**
 * Stores the rows of one project that it does not hold yet (by uuid, the first of repeated ones in
 * `rows`), in one transaction; answers how many were stored and how many were duplicates.
 */
export function storeImported(services: Services, projectId: number, rows: EventRow[]): Promise<StoredImport> {
  if (rows.length === 0) return Promise.resolve({ stored: 0, duplicates: 0 });
  const writer = ingestWriter(services);
  return writer.exclusive(async (conn) => {
    const seen = await storedUuids(conn, projectId, [...new Set(rows.map((r) => r.uuid))]);
    const fresh: EventRow[] = [];
    const keyOf = distinctKeys();
    for (const row of rows) {
      if (seen.has(row.uuid)) continue;
      seen.add(row.uuid);
      row.distinct_key = keyOf(row.distinct_id);
      fresh.push(row);
    }
    if (fresh.length > 0) {
      const appender = await TableAppender.open(conn, 'events');
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const row of fresh) appender.append(row);
        await appender.flush();
        appender.close();
        await conn.run('COMMIT');
      } catch (err) {
        try {
          appender.discard();
        } catch {
          // closed already
        }
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        services.events.changed([projectId]);
      }
    }
    return { stored: fresh.length, duplicates: rows.length - fresh.length };
  }, { changes: 'reported' });
}
