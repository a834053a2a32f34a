// The scenario the ClickHouse person tests run on each engine: a rule derives events over history
// from clicks of ids on both shards, the derived events count in a funnel, a person's page reads
// them, and (when asked) the person is deleted and the same is asked again. On one node:
// clickhouse.test.ts; on 2 shards × 2 replicas: `personOnCluster`, run in
// test/queries/sharded.test.ts on the cluster that file starts once (in a database of its own).

import type { Test } from 'tap';
import { queryHarness, type QueryHarness } from '../queries/harness.js';
import type { ClickHouseCluster } from '../support/clickhouseCluster.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { eventually } from '../support/eventually.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';

const NOW = new Date('2026-03-10T12:00:00Z');
export const IDS = ['anon-trace-0', 'anon-trace-1', 'anon-trace-2', 'anon-trace-3', 'anon-trace-4', 'user-trace-1', 'user-trace-2'];
const LINKS: Array<[string, string]> = [
  ['anon-trace-0', 'user-trace-1'],
  ['anon-trace-1', 'user-trace-1'],
  ['anon-trace-2', 'user-trace-2'],
];
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
const BUY = [
  { tag: 'span', nth_child: 1 },
  { tag: 'button', id: 'buy', nth_child: 2 },
];
const OTHER = [{ tag: 'a', nth_child: 1 }];

/** Clicks (on the buy button and elsewhere), page views and purchases of every id, spread over the days. */
function events(): SeedEvent[] {
  return IDS.flatMap((id, i) =>
    DAYS.flatMap((day, d) => {
      const who = id.startsWith('user') ? { user_id: id } : { anonymous_id: id };
      const at = (h: number) => `${day}T${String((i * 3 + d * 5 + h) % 24).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00Z`;
      const out: SeedEvent[] = [{ event: 'pp.click', ts: at(0), ...who, url: 'https://shop.example/p/1', elements: (i + d) % 2 === 0 ? BUY : OTHER, session_id: `${id}-s${d}` }];
      if ((i + d) % 3 !== 2) out.push({ event: 'purchase', ts: at(1), ...who, props: { plan: 'pro' }, session_id: `${id}-s${d}` });
      return out;
    }),
  );
}

const FUNNEL = { date_from: '2026-03-01', date_to: '2026-03-08', window_hours: 24, steps: [{ event: 'clicked_buy' }, { event: 'purchase' }] };
export const PERSON = 'user-trace-1';

export async function scenario(h: QueryHarness, o: { deleteAfter: boolean }) {
  await grantEntitlements(h.server, ['actor_drilldown']);
  h.server.clock.set(NOW);
  await h.renewToken();
  const p = h.project('Europe/Berlin');
  await seedEvents(h.server, p, events());
  for (const [from, to] of LINKS) await seedIdentity(h.server, p, from, to);
  const rule = await h.server.request('POST', `/api/v1/projects/${p}/labeled-events`, { body: { base_event: 'pp.click', selector: 'button#buy', event_name: 'clicked_buy' }, token: h.token });
  if (rule.status !== 201) throw new Error(`rule: ${rule.status} ${rule.text}`);
  const view = await eventually(
    'the rule derived over history',
    () => h.server.request('GET', `/api/v1/projects/${p}/labeled-events/${rule.body.id}`, { token: h.token }),
    (r) => ['succeeded', 'failed'].includes(r.body.materialization?.state),
    60_000,
  );
  const settle = () => h.clickhouse?.settle(h.database!);
  const person = async () => {
    await settle();
    const res = await h.server.request('GET', `/api/v1/projects/${p}/persons/${PERSON}`, { token: h.token });
    return { status: res.status, body: res.body };
  };
  const funnel = async () => {
    const res = await h.query(p, 'funnel', FUNNEL);
    return { status: res.status, body: res.body };
  };
  const before = { materialization: view.body.materialization, funnel: await funnel(), person: await person() };
  if (!o.deleteAfter) return { before };
  const deletion = await h.server.request('DELETE', `/api/v1/projects/${p}/persons/${PERSON}`, { token: h.token });
  if (deletion.status !== 202) throw new Error(`delete: ${deletion.status} ${deletion.text}`);
  const job = await eventually(
    'the deletion to finish',
    async () => (await h.server.request('GET', `/api/v1/projects/${p}/person-deletions/${deletion.body.id}`, { token: h.token })).body,
    (j) => j.state === 'succeeded' || j.state === 'failed',
    60_000,
  );
  const after = { job: { state: job.state, deleted_events: job.deleted_events, error: job.error }, funnel: await funnel(), person: await person() };
  return { before, after };
}

/**
 * Rows of every table of `database` held on each node (Distributed tables, which hold none, left
 * out) holding one of `ids` or one of their sessions: `node table: id` for each.
 */
export async function tracesOnNodes(nodes: Array<{ url: string; query(sql: string): Promise<string> }>, ids: string[], database = 'pp_queries'): Promise<string[]> {
  const needles = [...ids, ...ids.map((id) => `${id}-s`)];
  const traces: string[] = [];
  for (const node of nodes) {
    const tables = (await node.query(`SELECT name FROM system.tables WHERE database = '${database}' AND engine NOT LIKE 'Distributed%' FORMAT TSV`)).trim().split('\n');
    for (const table of tables) {
      const rows = await node.query(`SELECT * FROM ${database}.\`${table}\` FORMAT JSONEachRow`);
      for (const n of needles) if (rows.includes(`"${n}`)) traces.push(`${node.url} ${table}: ${n}`);
    }
  }
  return traces;
}

/** The DuckDB answers, checked to be what the scenario means to compare. */
export async function duckdbAnswers(t: Test, h: QueryHarness, o: { deleteAfter: boolean }) {
  const duckdb = await scenario(h, o);
  t.equal(duckdb.before.funnel.status, 200);
  t.ok(duckdb.before.funnel.body.steps[0].count > 0, 'some actors clicked the buy button');
  t.equal(duckdb.before.person.status, 200);
  t.ok(duckdb.before.person.body.labeled_events > 0, 'the person has labeled events');
  if (duckdb.after) {
    t.equal(duckdb.after.person.status, 404, 'the person is gone on DuckDB');
    t.ok(duckdb.after.job.deleted_events > 0);
  }
  return duckdb;
}

/**
 * Labeled events and a person on 2 shards × 2 replicas, against DuckDB: a rule derives events over
 * history from clicks of ids on both shards, the derived events count in a funnel as on DuckDB, the
 * person's page reads the same, and the person's deletion leaves nothing on any node. No event is
 * written after the rule's derivation, so the person's rows sit in each partition's latest quorum
 * part, which 18.16 mutates only once the deletion's markers follow it
 * (docs/scale-out.md#labeled-events-and-deletions). On the cluster `cluster` gives, with servers
 * and a database of the case's own: the deletion's mutations rewrite what the database holds, and
 * the scenario sets its servers' clock.
 */
export function personOnCluster(t: Test, cluster: () => Promise<ClickHouseCluster>): void {
  t.test('persons: derived events in a funnel, a person page and its deletion, as on DuckDB', async (t) => {
    t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
    const duckdb = await duckdbAnswers(t, await queryHarness(t), { deleteAfter: true });
    const h = await queryHarness(t, { engine: 'clickhouse', cluster: await cluster(), database: 'pp_persons' });
    t.same(await scenario(h, { deleteAfter: true }), duckdb, 'every answer as on DuckDB, before and after the deletion');
    const ids: string[] = duckdb.before.person.body.distinct_ids;
    await h.clickhouse!.settle(h.database!);
    t.same(await tracesOnNodes(h.clickhouse!.nodes, ids, h.database), [], 'nothing of the person on any node');
  });
}
