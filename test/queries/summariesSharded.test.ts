// The activity and revenue summaries on ClickHouse with 2 shards × 2 replicas answer as on DuckDB
// for actors whose distinct ids sit on different shards (events are sharded by distinct id, so an
// actor's days and sums meet only after the shards' rows do).

import t from 'tap';
import { queryHarness, type QueryHarness } from './harness.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';

const IDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'u1', 'u2', 'u3'];
const LINKS: Array<[string, string]> = [
  ['a0', 'u1'],
  ['a1', 'u1'],
  ['a2', 'u2'],
  ['a3', 'u3'],
  ['u3', 'u1'],
];
const DAYS = ['2026-03-05', '2026-03-07', '2026-03-08', '2026-03-09'];

const EVENTS = IDS.flatMap((id, i) =>
  DAYS.filter((_, d) => (i + d) % 4 !== 3).map((day, d) => ({
    event: (i + d) % 3 === 0 ? 'purchase' : 'view',
    // Some events at 01:00-04:59 UTC: the evening before in New York.
    ts: `${day}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00Z`,
    ...(id.startsWith('u') ? { user_id: id } : { anonymous_id: id }),
    props: { plan: ['free', 'pro'][i % 2], ...((i + d) % 3 === 0 ? { revenue: (i % 2 === 0 ? 1 : -1) * (i + d * 0.25) } : {}) },
  })),
);

const QUERIES: Array<[string, object]> = [
  ['activity-summary', { date_to: '2026-03-09', event: 'any' }],
  ['activity-summary', { date_to: '2026-03-08', event: 'view' }],
  ['revenue-summary', { date_from: '2026-03-05', date_to: '2026-03-09' }],
  ['revenue-summary', { date_from: '2026-03-07', date_to: '2026-03-08', filters: [{ field: 'props.plan', op: 'eq', value: 'free' }] }],
];

/** A project holding the events and links. */
async function seeded(h: QueryHarness): Promise<number> {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, EVENTS);
  for (const [from, to] of LINKS) await seedIdentity(h.server, p, from, to);
  return p;
}

async function answers(h: QueryHarness, p: number): Promise<unknown[]> {
  const out = [];
  for (const [path, body] of QUERIES) {
    // Not from the answer cache: a retry below runs the statements again.
    const res = await h.server.request('POST', `/api/v1/projects/${p}/queries/${path}`, { body, token: h.token, headers: { 'cache-control': 'no-cache' } });
    out.push({ path, status: res.status, body: res.body });
  }
  return out;
}

t.test('the summaries on 2 shards × 2 replicas answer as on DuckDB for actors spread over shards', async (t) => {
  t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
  const reference = await queryHarness(t);
  const duckdb = (await answers(reference, await seeded(reference))) as Array<{ status: number; body: { mau?: number } }>;
  t.ok(
    duckdb.every((a) => a.status === 200),
    'DuckDB answers every query',
  );
  t.ok((duckdb[0]!.body.mau ?? 0) >= 3, 'actors are counted');
  const h = await queryHarness(t, { engine: 'clickhouse', topology: 'replicated' });
  const p = await seeded(h);
  // Every node holds the identity links, copied to the others after the INSERT: a shard may read
  // its copy a moment before a new link reaches it. The answers must agree once they have.
  let clickhouse = await answers(h, p);
  for (let tries = 0; tries < 10 && JSON.stringify(clickhouse) !== JSON.stringify(duckdb); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    clickhouse = await answers(h, p);
  }
  t.same(clickhouse, duckdb, 'every answer as on DuckDB');
});
