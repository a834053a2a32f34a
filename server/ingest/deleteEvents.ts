// Deleting stored events, which are otherwise only ever appended: purges of collected data. The
// caller runs it on the writer connection inside its own transaction, together with whatever must
// go with the events (derived rollup rows), and owns what follows (see server/behavior/formPurge.ts).

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';

/** Deletes every event of the project named one of `names`, all time; answers how many. */
export async function deleteEvents(conn: DuckDBConnection, projectId: number, names: readonly string[]): Promise<number> {
  const result = await conn.run(
    'DELETE FROM events WHERE project_id = $project AND event IN (SELECT unnest($names))',
    { project: projectId, names: listValue([...names]) },
    { project: INTEGER, names: LIST(VARCHAR) },
  );
  return result.rowsChanged;
}
