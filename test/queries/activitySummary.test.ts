// Activity summary: a hand-checked New York example on the day it falls back, then random data
// against test/oracles/activitySummary.ts, on DuckDB and on ClickHouse (one node).

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { activitySummaryOracle } from '../oracles/activitySummary.js';

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('DAU, WAU and MAU for 2026-11-01 in America/New_York', async (t) => {
    const p = h.project('America/New_York');
    await seedEvents(h.server, p, [
      { event: 'view', ts: '2026-11-01T05:30:00Z', user_id: 'u1' }, // 01:30 EDT on 11-01
      { event: 'view', ts: '2026-10-15T15:00:00Z', user_id: 'u1' },
      { event: 'view', ts: '2026-10-27T15:00:00Z', user_id: 'u2' }, // inside the 7 days
      { event: 'view', ts: '2026-10-05T15:00:00Z', user_id: 'u3' }, // inside the 30 days only
      { event: 'view', ts: '2026-10-02T15:00:00Z', user_id: 'u3' }, // before the 30 days
      { event: 'view', ts: '2026-10-20T15:00:00Z', anonymous_id: 'x' }, // u4 before identifying
      { event: 'view', ts: '2026-10-21T15:00:00Z', user_id: 'u4' },
      { event: 'view', ts: '2026-11-02T04:30:00Z', user_id: 'u5' }, // 23:30 EST on 11-01
      { event: 'view', ts: '2026-11-02T05:30:00Z', user_id: 'u6' }, // 00:30 EST on 11-02: after date_to
    ]);
    await seedIdentity(h.server, p, 'x', 'u4');
    const res = await h.query(p, 'activity-summary', { date_to: '2026-11-01' });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      date_to: '2026-11-01',
      event: 'any',
      dau: 2, // u1, u5
      wau: 3, // u1, u2, u5
      mau: 5, // u1, u2, u3, u4, u5
      dau_mau: 0.4,
      usage_frequency: 1.4, // active days 2 + 1 + 1 + 2 + 1 over 5 actors
      repeat_activity: 0.4, // u1 and u4 (one actor across x and u4)
    });
  });

  await t.test('activity summary matches the reference implementation on random data', async (t) => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxDays: 30 }), several(fc.constantFrom(...EVENT_NAMES, 'any')), async (s, names) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const event of names) {
          const input = { date_to: s.date_to, event };
          const res = await h.query(projectId, 'activity-summary', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, activitySummaryOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('activity summary agrees with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
