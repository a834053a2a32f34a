// The key of a distinct id computed here and by DuckDB must agree: ingestion appends keys computed
// in JavaScript, while the migration, identity links and seeded stores compute them in SQL.

import t from 'tap';
import fc from 'fast-check';
import { DuckDBInstance, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { distinctKey, distinctKeys } from '../../server/ingest/distinctKey.js';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';

t.test('the key is md5_number_lower of the id, for any text', async (t) => {
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  t.teardown(() => conn.closeSync());
  await fc.assert(
    fc.asyncProperty(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 50 }), async (ids) => {
      const reader = await conn.runAndReadAll('SELECT md5_number_lower(unnest($1)) AS k', [listValue(ids)], [LIST(VARCHAR)]);
      const fromSql = reader.getRowObjects().map((r) => r.k);
      const keyOf = distinctKeys();
      // Holding at most three ids, it lets them go and hashes again: the same keys.
      const few = distinctKeys(3);
      return ids.every((id, i) => distinctKey(id) === fromSql[i] && keyOf(id) === fromSql[i] && few(id) === fromSql[i] && few(ids[0]!) === fromSql[0]);
    }),
    { numRuns: 50 },
  );
  t.not(distinctKey('anon-1'), distinctKey('anon-2'), 'different ids, different keys');
});

t.test('ingested events carry the key of their distinct id', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project).value;
  await ingestEvents(server, key, [
    { event: 'view', anonymous_id: 'anon-ü-1' },
    { event: 'view', anonymous_id: 'anon-2', user_id: 'user-😀' },
    { event: 'view', anonymous_id: 'anon-2' },
  ]);
  const rows = await readTable(server, `SELECT distinct_id, distinct_key = md5_number_lower(distinct_id) AS same FROM events WHERE project_id = $1 ORDER BY distinct_id`, [project.id]);
  t.same(rows, [
    { distinct_id: 'anon-2', same: true },
    { distinct_id: 'anon-ü-1', same: true },
    { distinct_id: 'user-😀', same: true },
  ]);
});
