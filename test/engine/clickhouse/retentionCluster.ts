// Retention and its actors answer the same on ClickHouse (2 shards × 2 replicas) as on DuckDB: the
// same events and identifies sent to a DuckDB server and a ClickHouse server, where every actor's
// anonymous and user ids sit on different shards (events are sharded by distinct id), then the
// same requests against both, compared whole: sizes, ratios, revenue, paid conversion, filters,
// compare, and every page of several cells' actors. Both servers share a secret, so equal positions
// sign to equal cursors. London, weekly and daily cohorts across the March DST change. The case
// runs in test/queries/sharded.test.ts, on the cluster that file starts once (in a database and
// with servers of its own).

import type { Test } from 'tap';
import type { ClickHouseCluster } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { accessTokenFor, createTenant } from '../../support/factories.js';
import { createIngestKey } from '../../support/ingest.js';
import { grantEntitlements } from '../../support/license.js';
import { ingestOk } from '../../events/eventsKit.js';
import { distinctKey } from '../../../server/ingest/distinctKey.js';

const SECRET = 'the same secret on both servers';
const DATABASE = 'pp_retention';
// Licenses are granted while the clock reads 2026-01-01 (valid a year); the answers are read on 04-08.
const LICENSED = new Date('2026-01-01T00:00:00Z');
const NOW = new Date('2026-04-08T12:00:00Z');
const SHARDS = 2n;

/** The shard of a distinct id: the Distributed table's sharding key is its key. */
const shardOf = (id: string) => distinctKey(id) % SHARDS;

/** `prefix-n` for the first n whose shard is `shard`. */
function idOnShard(prefix: string, shard: bigint): string {
  for (let n = 0; ; n++) if (shardOf(`${prefix}-${n}`) === shard) return `${prefix}-${n}`;
}

/** Each person browses anonymously, then identifies: the two ids on different shards. */
const PEOPLE = ['ann', 'ben', 'cal', 'dee'].map((name, i) => {
  const user = idOnShard(name, BigInt(i % 2));
  return { user, anon: idOnShard(`${name}-anon`, BigInt((i + 1) % 2)) };
});
const [ann, ben, cal, dee] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number], (typeof PEOPLE)[number], (typeof PEOPLE)[number]];

// London: GMT until 2026-03-29 01:00 UTC, then BST. Weeks start on Monday 03-16, 03-23, 03-30, 04-06.
const EVENTS = [
  { event: 'signup', ts: '2026-03-16T09:00:00Z', anonymous_id: ann.anon, props: { plan: 'pro' } },
  { event: 'purchase', ts: '2026-03-17T09:00:00Z', user_id: ann.user, props: { revenue: 30 } },
  { event: 'view', ts: '2026-03-24T09:00:00Z', user_id: ann.user, props: { plan: 'pro' } },
  { event: 'refund', ts: '2026-03-25T09:00:00Z', anonymous_id: ann.anon, props: { revenue: -10 } },
  { event: 'view', ts: '2026-04-07T09:00:00Z', anonymous_id: ann.anon },
  { event: 'view', ts: '2026-03-15T09:00:00Z', user_id: ben.user },
  { event: 'signup', ts: '2026-03-22T23:30:00Z', user_id: ben.user, props: { plan: 'free' } }, // Sunday 23:30 GMT
  { event: 'signup', ts: '2026-03-23T10:00:00Z', anonymous_id: ben.anon }, // a later start: ben stays in the 03-16 cohort
  { event: 'view', ts: '2026-03-30T00:30:00Z', anonymous_id: ben.anon, props: { plan: 'free' } }, // Monday 01:30 BST
  { event: 'purchase', ts: '2026-03-31T09:00:00Z', anonymous_id: ben.anon, props: { revenue: 20 } },
  { event: 'signup', ts: '2026-03-28T12:00:00Z', anonymous_id: cal.anon, props: { plan: 'pro' } },
  { event: 'view', ts: '2026-03-29T00:30:00Z', user_id: cal.user }, // 00:30 GMT Sunday
  { event: 'view', ts: '2026-04-05T23:30:00Z', user_id: cal.user, props: { plan: 'pro' } }, // Monday 00:30 BST
  { event: 'purchase', ts: '2026-03-29T23:30:00Z', anonymous_id: cal.anon, props: { revenue: 12.5 } }, // Monday 00:30 BST
  { event: 'signup', ts: '2026-03-30T10:00:00Z', user_id: dee.user },
  { event: 'view', ts: '2026-03-31T10:00:00Z', anonymous_id: dee.anon },
  { event: 'view', ts: '2026-03-31T11:00:00Z', anonymous_id: dee.anon }, // twice the same day: one return
];

const RANGE = { date_from: '2026-03-16', date_to: '2026-03-31' };
const WEEKS = { ...RANGE, start_event: 'signup', return_event: 'any', granularity: 'week', periods: 3 };
const DAYS = { ...RANGE, start_event: 'signup', return_event: 'view', granularity: 'day', periods: 10 };
const PRO = [{ field: 'props.plan', op: 'eq', value: 'pro' }];

const RETENTION = [
  WEEKS,
  { ...WEEKS, value: 'revenue' },
  { ...WEEKS, value: 'paid_conversion' },
  { ...WEEKS, return_event: 'view', filters: PRO },
  { ...WEEKS, compare: { period: 'previous' } },
  DAYS,
  { ...DAYS, value: 'revenue' },
  { ...DAYS, start_event: 'any', return_event: 'purchase', value: 'paid_conversion' },
];

/** Cells of the weekly and daily tables, read a page of one actor at a time. */
const CELLS = [
  { ...WEEKS, cohort: '2026-03-16', period: 0 },
  { ...WEEKS, cohort: '2026-03-16', period: 1 },
  { ...WEEKS, cohort: '2026-03-16', period: 2 },
  { ...WEEKS, cohort: '2026-03-23', period: 2 },
  { ...WEEKS, cohort: '2026-03-30', period: 0 },
  { ...WEEKS, return_event: 'view', filters: PRO, cohort: '2026-03-23', period: 2 },
  { ...DAYS, cohort: '2026-03-30', period: 1 },
  { ...DAYS, cohort: '2026-03-16', period: 8 },
];

/** The events and identifies of the world sent to `server`; `stored` runs once they are stored (and, on a cluster, on every node). */
async function world(server: TestServer, stored?: () => Promise<void>): Promise<{ answers: () => Promise<unknown[]> }> {
  server.clock.set(LICENSED);
  const tenant = await createTenant(server, { timezone: 'Europe/London' });
  const key = createIngestKey(server, tenant.project);
  await grantEntitlements(server, ['actor_drilldown', 'saved_segments']);
  server.clock.set(NOW);
  await ingestOk(server, key, EVENTS);
  for (const p of PEOPLE) {
    const linked = await server.request('POST', '/v1/identify', { token: key.value, body: { anonymous_id: p.anon, user_id: p.user } });
    if (linked.status !== 202) throw new Error(`identify: ${linked.status} ${linked.text}`);
  }
  await stored?.();
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  const path = (p: string) => `/api/v1/projects/${tenant.project.id}/queries/${p}`;
  return {
    async answers() {
      const out: unknown[] = [];
      for (const body of RETENTION) {
        const res = await server.request('POST', path('retention'), { body, token });
        out.push({ body, status: res.status, answer: res.body });
      }
      for (const cell of CELLS) {
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const res = await server.request('POST', path('retention/actors'), { body: { ...cell, limit: 1, cursor }, token });
          out.push({ cell, page, status: res.status, answer: res.body });
          if (res.status !== 200 || res.body.next_cursor === null) break;
          cursor = res.body.next_cursor;
        }
      }
      return out;
    },
  };
}

/** The case, on the cluster `cluster` gives. */
export function retentionOnCluster(t: Test, cluster: () => Promise<ClickHouseCluster>): void {
  t.test('retention and its actors answer as on DuckDB', async (t) => {
    for (const p of PEOPLE) t.not(shardOf(p.anon), shardOf(p.user), `${p.anon} and ${p.user} sit on different shards`);

    const reference = await startTestServer(t, { now: LICENSED, settings: { secret: SECRET } });
    const duckdb = await (await world(reference)).answers();
    const ok = duckdb as Array<{ status: number; answer: { cohorts?: Array<{ size: number }>; items?: unknown[] } }>;
    t.ok(
      ok.every((a) => a.status === 200),
      'DuckDB answers every request',
    );
    t.same(
      ok[0]!.answer.cohorts!.map((c) => c.size),
      [2, 1, 1],
      'the weekly cohorts hold every person once, each with both ids',
    );
    t.ok(ok.filter((a) => (a.answer.items?.length ?? 0) > 0).length >= 8, 'the cells list actors');

    const ch = await cluster();
    const server = await startTestServer(t, {
      now: LICENSED,
      settings: { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.cluster': ch.cluster!, 'clickhouse.database': DATABASE },
    });
    // A link is on two nodes when identify answers and reaches the others by replication: the
    // answers are compared once every node holds every link.
    const synced = async () => {
      for (const node of ch.nodes) await node.query(`SYSTEM SYNC REPLICA ${DATABASE}.identity_links`);
    };
    t.same(await (await world(server, synced)).answers(), duckdb, 'every answer and page on ClickHouse as on DuckDB');
  });
}
