// Segmentation: hour buckets across New York's repeated hour, daily revenue metrics and a grouped
// series across Sydney's DST end, then random data against test/oracles/segmentation.ts, on DuckDB
// and on ClickHouse (one node). On 2 shards × 2 replicas: sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents } from '../support/seedEvents.js';
import { segmentationOracle, type SegmentationInput } from '../oracles/segmentation.js';
import { addDays } from '../oracles/common.js';

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('hour buckets on the day New York falls back', async (t) => {
    const p = h.project('America/New_York');
    await seedEvents(h.server, p, [
      { event: 'view', ts: '2026-11-01T03:59:00Z', user_id: 'u1' }, // 23:59 EDT on 10-31: outside
      { event: 'view', ts: '2026-11-01T04:10:00Z', user_id: 'u1' }, // 00:10 EDT
      { event: 'view', ts: '2026-11-01T05:30:00Z', user_id: 'u1' }, // 01:30 EDT
      { event: 'view', ts: '2026-11-01T06:30:00Z', user_id: 'u2' }, // 01:30 EST, the repeated hour
      { event: 'view', ts: '2026-11-01T06:45:00Z', user_id: 'u2' }, // 01:45 EST
      { event: 'view', ts: '2026-11-02T04:59:00Z', user_id: 'u3' }, // 23:59 EST
      { event: 'view', ts: '2026-11-02T05:00:00Z', user_id: 'u3' }, // 00:00 EST on 11-02: outside
    ]);
    const res = await h.query(p, 'segmentation', { metric: 'events', event: 'any', interval: 'hour', date_from: '2026-11-01', date_to: '2026-11-01' });
    t.equal(res.status, 200);
    const points = res.body.series[0].points as Array<{ bucket: string; value: number }>;
    t.equal(points.length, 25, 'a 25-hour day');
    t.strictSame(points.slice(0, 4), [
      { bucket: '2026-11-01T00:00:00-04:00', value: 1 },
      { bucket: '2026-11-01T01:00:00-04:00', value: 1 },
      { bucket: '2026-11-01T01:00:00-05:00', value: 2 },
      { bucket: '2026-11-01T02:00:00-05:00', value: 0 },
    ]);
    t.strictSame(points.at(-1), { bucket: '2026-11-01T23:00:00-05:00', value: 1 });
    t.equal(
      points.reduce((n, x) => n + x.value, 0),
      5,
    );
  });

  await t.test('daily revenue metrics and grouped uniques in Australia/Sydney', async (t) => {
    // Sydney leaves daylight time on 2026-04-05 at 03:00 AEDT (16:00 UTC on 04-04).
    const p = h.project('Australia/Sydney');
    await seedEvents(h.server, p, [
      { event: 'purchase', ts: '2026-04-02T12:30:00Z', user_id: 'u5', props: { revenue: 99 } }, // 04-02 23:30: outside
      { event: 'purchase', ts: '2026-04-02T13:30:00Z', user_id: 'u1', props: { plan: 'pro', revenue: 10 } }, // 04-03 00:30
      { event: 'purchase', ts: '2026-04-03T12:00:00Z', user_id: 'u2', props: { plan: 'pro', revenue: 30 } }, // 04-03 23:00
      { event: 'view', ts: '2026-04-04T01:00:00Z', user_id: 'u4', props: { plan: 'pro' } }, // not a purchase
      { event: 'purchase', ts: '2026-04-04T14:30:00Z', user_id: 'u1', props: { plan: 'free', revenue: -5 } }, // 04-05 01:30 AEDT
      { event: 'purchase', ts: '2026-04-05T13:30:00Z', user_id: 'u3', props: { plan: 'free', revenue: 7 } }, // 04-05 23:30 AEST
      { event: 'purchase', ts: '2026-04-05T14:30:00Z', user_id: 'u3' }, // 04-06 00:30, no revenue
    ]);
    const body = { event: 'purchase', date_from: '2026-04-03', date_to: '2026-04-06' };
    const values = async (extra: object) => {
      const res = await h.query(p, 'segmentation', { ...body, ...extra });
      t.equal(res.status, 200);
      return res.body.series.map((s: { name: string; points: Array<{ value: unknown }> }) => [s.name, s.points.map((x) => x.value)]);
    };
    t.strictSame(await values({ metric: 'events' }), [['total', [2, 0, 2, 1]]]);
    t.strictSame(await values({ metric: 'revenue' }), [['total', [40, 0, 2, 0]]]); // 10 + 30; -5 + 7
    t.strictSame(await values({ metric: 'revenue_avg' }), [['total', [20, null, 1, null]]]); // 04-06's purchase has no revenue
    // Over the range pro and free both have two actors; free wins the tie by name, the rest fold.
    t.strictSame(await values({ metric: 'uniques', group_by: { property: 'props.plan', limit: 1 } }), [
      ['free', [0, 0, 2, 0]], // u1 and u3 on 04-05
      ['$other', [2, 0, 0, 1]], // u1, u2 (pro) on 04-03; u3 (no plan) on 04-06
    ]);
    const compared = await h.query(p, 'segmentation', { ...body, metric: 'events', compare: { period: 'previous' } });
    t.strictSame(compared.body.compare, {
      date_from: '2026-03-30',
      date_to: '2026-04-02',
      series: [{ name: 'total', value: null, points: ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02'].map((bucket, i) => ({ bucket, value: i === 3 ? 1 : 0 })) }],
    });
  });

  await t.test('segmentation matches the reference implementation on random data', async (t) => {
    const queryArb = fc.record({
      metric: fc.constantFrom('events' as const, 'uniques' as const, 'revenue' as const, 'revenue_avg' as const),
      event: fc.constantFrom(...EVENT_NAMES, 'any'),
      filters: filtersArb,
      group_by: fc.option(fc.record({ property: fc.constantFrom('props.plan', 'path', 'props.n'), limit: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
      interval: fc.constantFrom('hour' as const, 'day' as const, 'week' as const, 'month' as const),
    });
    await fc.assert(
      fc.asyncProperty(scenarioArb(), several(queryArb), async (s, qs) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const q of qs) {
          // Hour buckets over a month would be slow to compare; keep their ranges to three days.
          const date_to = q.interval === 'hour' && s.date_to > s.date_from ? [s.date_to, addDays(s.date_from, 2)].sort()[0]! : s.date_to;
          const input: SegmentationInput = { ...q, date_from: s.date_from, date_to };
          const res = await h.query(projectId, 'segmentation', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, segmentationOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('segmentation agrees with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
