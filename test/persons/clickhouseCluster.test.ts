// Labeled events and a person on ClickHouse with 2 shards × 2 replicas, against DuckDB: a rule
// derives events over history from clicks of ids on both shards, the derived events count in a
// funnel as on DuckDB, the person's page reads the same, and the person's deletion leaves nothing
// on any node. No event is written after the rule's derivation, so the person's rows sit in each
// partition's latest quorum part, which 18.16 mutates only once the deletion's markers follow it
// (docs/scale-out.md#labeled-events-and-deletions).

import t from 'tap';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { queryHarness } from '../queries/harness.js';
import { IDS, duckdbAnswers, scenario, tracesOnNodes } from './clickhouseScenario.js';

t.test('derived events in a funnel, a person page and its deletion, on 2 shards × 2 replicas as on DuckDB', async (t) => {
  t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
  const duckdb = await duckdbAnswers(t, await queryHarness(t), { deleteAfter: true });
  const h = await queryHarness(t, { engine: 'clickhouse', topology: 'replicated' });
  t.same(await scenario(h, { deleteAfter: true }), duckdb, 'every answer as on DuckDB, before and after the deletion');
  const ids: string[] = duckdb.before.person.body.distinct_ids;
  await h.clickhouse!.settle('pp_queries');
  t.same(await tracesOnNodes(h.clickhouse!.nodes, ids), [], 'nothing of the person on any node');
});
