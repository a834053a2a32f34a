// Stickiness: a hand-checked London example across the March DST change, then random data against
// test/oracles/stickiness.ts, on DuckDB and on ClickHouse (one node). On 2 shards × 2 replicas:
// sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents } from '../support/seedEvents.js';
import { stickinessOracle, type StickinessInput } from '../oracles/stickiness.js';

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('distinct local days per actor in Europe/London', async (t) => {
    // London enters BST on 2026-03-29 at 01:00 UTC.
    const p = h.project('Europe/London');
    await seedEvents(h.server, p, [
      { event: 'view', ts: '2026-03-28T23:30:00Z', user_id: 'u1' }, // 23:30 GMT on 03-28
      { event: 'view', ts: '2026-03-29T23:30:00Z', user_id: 'u1' }, // 00:30 BST on 03-30
      { event: 'view', ts: '2026-03-29T00:30:00Z', user_id: 'u2' }, // 00:30 GMT on 03-29
      { event: 'view', ts: '2026-03-29T22:00:00Z', user_id: 'u2' }, // 23:00 BST, same day
      { event: 'signup', ts: '2026-03-29T12:00:00Z', user_id: 'u3' }, // not a view
      { event: 'view', ts: '2026-03-27T23:59:00Z', user_id: 'u4' }, // before the range
      { event: 'view', ts: '2026-03-28T12:00:00Z', user_id: 'u4' },
      { event: 'view', ts: '2026-03-29T12:00:00Z', user_id: 'u4' },
      { event: 'view', ts: '2026-03-30T12:00:00Z', user_id: 'u4' },
    ]);
    const res = await h.query(p, 'stickiness', { date_from: '2026-03-28', date_to: '2026-03-30', event: 'view' });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      date_from: '2026-03-28',
      date_to: '2026-03-30',
      event: 'view',
      distribution: [
        { days: 1, actors: 1 }, // u2
        { days: 2, actors: 1 }, // u1: 03-28 and 03-30
        { days: 3, actors: 1 }, // u4
      ],
    });
    // With any event, u3 joins the one-day actors.
    const any = await h.query(p, 'stickiness', { date_from: '2026-03-28', date_to: '2026-03-30' });
    t.strictSame(any.body.distribution[0], { days: 1, actors: 2 });
  });

  await t.test('stickiness matches the reference implementation on random data', async (t) => {
    const queryArb = fc.record({ event: fc.constantFrom(...EVENT_NAMES, 'any'), filters: filtersArb });
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxDays: 10 }), several(queryArb), async (s, qs) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const q of qs) {
          const input: StickinessInput = { ...q, date_from: s.date_from, date_to: s.date_to };
          const res = await h.query(projectId, 'stickiness', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, stickinessOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('stickiness agrees with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
