// Lifecycle: a hand-checked London example across the October DST change, then random data (day
// and week buckets) against test/oracles/lifecycle.ts, on DuckDB and on ClickHouse (one node). On
// 2 shards × 2 replicas: sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { lifecycleOracle, type LifecycleInput } from '../oracles/lifecycle.js';

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('daily lifecycle in Europe/London', async (t) => {
    // London leaves BST on 2026-10-25 at 01:00 UTC.
    const p = h.project('Europe/London');
    await seedEvents(h.server, p, [
      { event: 'view', ts: '2026-10-20T10:00:00Z', user_id: 'ann' }, // ann's first event
      { event: 'view', ts: '2026-10-23T10:00:00Z', user_id: 'ann' },
      { event: 'view', ts: '2026-10-24T10:00:00Z', user_id: 'ann' },
      { event: 'view', ts: '2026-10-26T10:00:00Z', user_id: 'ann' },
      { event: 'view', ts: '2026-10-24T22:30:00Z', user_id: 'ben' }, // 23:30 BST on 10-24: ben's first
      { event: 'view', ts: '2026-10-25T23:30:00Z', user_id: 'ben' }, // 23:30 GMT on 10-25
      { event: 'view', ts: '2026-10-22T10:00:00Z', anonymous_id: 'c-anon' }, // cal before identifying
      { event: 'view', ts: '2026-10-26T00:30:00Z', user_id: 'cal' },
      { event: 'view', ts: '2026-10-23T10:00:00Z', user_id: 'dee' },
      { event: 'view', ts: '2026-10-28T10:00:00Z', user_id: 'eve' }, // after date_to
    ]);
    await seedIdentity(h.server, p, 'c-anon', 'cal');
    const res = await h.query(p, 'lifecycle', { date_from: '2026-10-24', date_to: '2026-10-27' });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      date_from: '2026-10-24',
      date_to: '2026-10-27',
      interval: 'day',
      buckets: [
        // ben new; ann also active on 10-23 (returning); dee active only on 10-23 (dormant).
        { bucket: '2026-10-24', new: 1, returning: 1, resurrecting: 0, dormant: -1 },
        // ben again (returning); ann absent (dormant).
        { bucket: '2026-10-25', new: 0, returning: 1, resurrecting: 0, dormant: -1 },
        // ann back, and cal (first seen 10-22 as c-anon) back: both resurrecting; ben dormant.
        { bucket: '2026-10-26', new: 0, returning: 0, resurrecting: 2, dormant: -1 },
        // nobody; ann and cal dormant.
        { bucket: '2026-10-27', new: 0, returning: 0, resurrecting: 0, dormant: -2 },
      ],
    });
  });

  await t.test('lifecycle matches the reference implementation on random data', async (t) => {
    const queryArb = fc.record({ interval: fc.constantFrom('day' as const, 'week' as const), filters: filtersArb });
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxDays: 21 }), several(queryArb), async (s, qs) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const q of qs) {
          const input: LifecycleInput = { ...q, date_from: s.date_from, date_to: s.date_to };
          const res = await h.query(projectId, 'lifecycle', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, lifecycleOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('lifecycle agrees with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
