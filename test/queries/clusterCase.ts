// The deterministic case each insight's test runs on ClickHouse with 2 shards × 2 replicas: events
// of distinct ids on both shards (sharded by distinct_key), linked to actors whose other ids sit on
// the other shard, seeded into a DuckDB server and a ClickHouse cluster; the answers must be equal.

import type { Test } from 'tap';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { queryHarness, type QueryHarness } from './harness.js';

const IDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'u1', 'u2', 'u3'];

/** Links made in this order: a chain (u3 → u1) included. */
const LINKS: Array<[string, string]> = [
  ['a0', 'u1'],
  ['a1', 'u1'],
  ['a2', 'u2'],
  ['a3', 'u2'],
  ['a4', 'u3'],
  ['u3', 'u1'],
];

/** Every id active on some of `days`, at hours spread over the day. */
export function spreadEvents(days: string[]): SeedEvent[] {
  return IDS.flatMap((id, i) =>
    days
      .filter((_, d) => (i + d) % 4 !== 3)
      .map((day, d) => ({
        event: (i + d) % 3 === 0 ? 'purchase' : 'view',
        ts: `${day}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00Z`,
        ...(id.startsWith('u') ? { user_id: id } : { anonymous_id: id }),
        props: { plan: ['free', 'pro', 'team'][(i + d) % 3], n: i % 4, ...((i + d) % 3 === 0 ? { revenue: i + d * 0.5 } : {}) },
        url: `https://shop.example/p/${i % 3}`,
      })),
  );
}

/**
 * Seeds `events` and the links into a DuckDB server and into ClickHouse on 2 shards × 2 replicas,
 * asks each `requests` (path and body) and checks the answers are equal and all 200. `prepare`
 * runs on each server first (to grant entitlements, say).
 */
export async function sameOnCluster(t: Test, timezone: string, events: SeedEvent[], requests: Array<[string, unknown]>, prepare?: (h: QueryHarness) => Promise<void>): Promise<void> {
  t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
  const answers = async (h: QueryHarness) => {
    await prepare?.(h);
    const p = h.project(timezone);
    await seedEvents(h.server, p, events);
    for (const [from, to] of LINKS) await seedIdentity(h.server, p, from, to);
    const out = [];
    for (const [path, body] of requests) {
      const res = await h.query(p, path, body);
      out.push({ path, status: res.status, body: res.body });
    }
    return out;
  };
  const duckdb = await answers(await queryHarness(t));
  t.ok(
    duckdb.every((a) => a.status === 200),
    'DuckDB answers every request',
  );
  t.same(await answers(await queryHarness(t, { engine: 'clickhouse', topology: 'replicated' })), duckdb, 'every answer as on DuckDB');
}
