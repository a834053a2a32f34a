// The bulk path for imported history (server/transfer/): rows already checked and normalized are
// appended by the engine's appender, those whose uuid the project holds already left out, in one
// transaction per batch, between the group commits of live ingestion. Unlike live ingestion, whose re-sends come within a
// window of receipt, an import is deduplicated by (project, uuid) against everything the project
// has stored, whenever. The live writer's in-memory filter is not told about imported rows
// (millions of them would push out the recent pairs it exists for): a live event repeating an
// imported uuid is judged by its window.

import type { Services } from '../http/services.js';
import { distinctKeys } from './distinctKey.js';
import { ingestWriter } from './groupWriter.js';
import type { EventRow } from './normalizeEvent.js';

export interface StoredImport {
  stored: number;
  duplicates: number;
}

/**
 * Stores the rows of one project that it does not hold yet (by uuid, the first of repeated ones in
 * `rows`), in their order, in one transaction; answers how many were stored and how many were
 * duplicates. `keyOf`: the distinct keys of the import's earlier batches, kept so that an id seen
 * in every batch is hashed once.
 */
export function storeImported(services: Services, projectId: number, rows: EventRow[], keyOf = distinctKeys()): Promise<StoredImport> {
  if (rows.length === 0) return Promise.resolve({ stored: 0, duplicates: 0 });
  return ingestWriter(services).exclusive(
    async (conn) => {
      const seen = new Set<string>();
      const unique: EventRow[] = [];
      for (const row of rows) {
        if (seen.has(row.uuid)) continue;
        seen.add(row.uuid);
        row.distinct_key = keyOf(row.distinct_id);
        unique.push(row);
      }
      const appender = services.events.appender;
      const held = await appender.heldUuids(conn, projectId, [...seen]);
      const fresh = held.size === 0 ? unique : unique.filter((row) => !held.has(row.uuid));
      if (fresh.length > 0) await services.events.changedAfter([projectId], () => appender.append(conn, { events: fresh, rejections: [] }));
      const stored = fresh.length;
      return { stored, duplicates: rows.length - stored };
    },
    { changes: 'reported' },
  );
}
