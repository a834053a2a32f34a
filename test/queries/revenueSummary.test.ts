// Revenue summary: a hand-checked Sydney example with refunds and a merged identity, then random
// data against test/oracles/revenueSummary.ts, on DuckDB and on ClickHouse (one node).

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { revenueSummaryOracle } from '../oracles/revenueSummary.js';

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('revenue, refunds, ARPU and ARPPU in Australia/Sydney', async (t) => {
    const p = h.project('Australia/Sydney');
    await seedEvents(h.server, p, [
      { event: 'purchase', ts: '2026-04-04T01:00:00Z', user_id: 'u1', props: { revenue: 100 } },
      { event: 'refund', ts: '2026-04-05T01:00:00Z', user_id: 'u1', props: { revenue: -30 } },
      { event: 'purchase', ts: '2026-04-04T02:00:00Z', anonymous_id: 'a', props: { revenue: 50 } }, // u1 before identifying
      { event: 'refund', ts: '2026-04-04T03:00:00Z', user_id: 'u2', props: { revenue: -10 } }, // a refund only
      { event: 'view', ts: '2026-04-05T03:00:00Z', user_id: 'u3' }, // active, no revenue
      { event: 'purchase', ts: '2026-04-04T05:00:00Z', user_id: 'u5', props: { revenue: 10 } }, // u5 nets to zero: not paying
      { event: 'refund', ts: '2026-04-05T05:00:00Z', user_id: 'u5', props: { revenue: -10 } },
      { event: 'purchase', ts: '2026-04-03T12:30:00Z', user_id: 'u4', props: { revenue: 20 } }, // 23:30 AEDT on 04-03
    ]);
    await seedIdentity(h.server, p, 'a', 'u1');
    const res = await h.query(p, 'revenue-summary', { date_from: '2026-04-04', date_to: '2026-04-05' });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      date_from: '2026-04-04',
      date_to: '2026-04-05',
      currency: 'USD', // the default of a new project
      revenue: 110, // 100 - 30 + 50 - 10 + 10 - 10
      paying_actors: 1, // u1 (120); u2's total is negative, u5's zero
      active_actors: 4, // u1, u2, u3, u5
      arpu: 27.5, // 110 / 4
      arppu: 120,
      refunds: -50,
      refund_count: 3,
    });
  });

  await t.test('revenue summary matches the reference implementation on random data', async (t) => {
    await fc.assert(
      fc.asyncProperty(scenarioArb(), several(filtersArb), async (s, filterSets) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const filters of filterSets) {
          const input = { date_from: s.date_from, date_to: s.date_to, filters };
          const res = await h.query(projectId, 'revenue-summary', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, revenueSummaryOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('revenue summary agrees with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
