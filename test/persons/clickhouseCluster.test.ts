// Labeled events and a person on ClickHouse with 2 shards × 2 replicas, against DuckDB: a rule
// derives events over history from clicks of ids on both shards, the derived events count in a
// funnel as on DuckDB, and the person's page reads the same. (Deleting on replicas: see
// docs/scale-out.md; clickhouse.test.ts deletes on one node.)

import t from 'tap';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { queryHarness } from '../queries/harness.js';
import { IDS, duckdbAnswers, scenario } from './clickhouseScenario.js';

t.test('derived events in a funnel and a person page, on 2 shards × 2 replicas as on DuckDB', async (t) => {
  t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
  const duckdb = await duckdbAnswers(t, await queryHarness(t), { deleteAfter: false });
  const h = await queryHarness(t, { engine: 'clickhouse', topology: 'replicated' });
  t.same(await scenario(h, { deleteAfter: false }), duckdb, 'every answer as on DuckDB');
});
