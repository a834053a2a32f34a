// A person on ClickHouse (one node) against DuckDB: their page with the labeled events derived
// from their clicks, their deletion job, the same answers after it on both engines (a funnel of the
// derived events included), and no table of the node holding any of their ids afterwards; and
// the admin figures there.

import t from 'tap';
import { queryHarness } from '../queries/harness.js';
import { adminCommand } from '../../server/admin/adminCommands.js';
import { duckdbAnswers, scenario, tracesOnNodes } from './clickhouseScenario.js';

t.test('a person deleted on ClickHouse leaves nothing, and every answer is as on DuckDB', async (t) => {
  const duckdb = await duckdbAnswers(t, await queryHarness(t), { deleteAfter: true });
  const h = await queryHarness(t, { engine: 'clickhouse' });
  t.same(await scenario(h, { deleteAfter: true }), duckdb, 'every answer as on DuckDB, before and after the deletion');
  const ids: string[] = duckdb.before.person.body.distinct_ids;
  t.ok(ids.includes('anon-trace-0') && ids.includes('anon-trace-1'), `the person's ids: ${ids.join(', ')}`);
  t.same(await tracesOnNodes(h.clickhouse!.nodes, ids), [], 'nothing of the person on the node');
  const others = await h.clickhouse!.nodes[0]!.query("SELECT count() FROM pp_queries.events WHERE distinct_id = 'user-trace-2' FORMAT TSV");
  t.ok(Number(others) > 0, 'the other people keep their events');

  // The admin figures: the events held, and no rollup trailing them (ClickHouse keeps none).
  const stats = (await adminCommand('data.stats')!(h.server.running.services, {})) as { events: number; rollup: { behind_events: number; property_keys: string[] } };
  t.equal(stats.events, Number(await h.clickhouse!.nodes[0]!.query('SELECT count() FROM pp_queries.events FINAL FORMAT TSV')));
  t.same(stats.rollup, { behind_events: 0, property_keys: [] });
});
