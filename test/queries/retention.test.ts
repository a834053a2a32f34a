// Retention and retention actors: a hand-checked London example with weekly cohorts across the
// March DST change (ratios, revenue, paid conversion, periods not started yet), the actor
// drill-down with its entitlements and cursor, then random data against test/oracles/retention.ts,
// on DuckDB and on ClickHouse (one node). test/engine/clickhouse/retentionCluster.ts compares the
// two on 2 shards × 2 replicas (run in sharded.test.ts).

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several, todayOf } from './scenarios.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { bucketList } from '../oracles/common.js';
import { retentionActorsOracle, retentionOracle, type RetentionInput } from '../oracles/retention.js';

// London: GMT until 2026-03-29 01:00 UTC, then BST. Weeks start on Monday 03-16, 03-23, 03-30, 04-06.
const EVENTS = [
  { event: 'signup', ts: '2026-03-16T09:00:00Z', user_id: 'ann' }, // cohort 03-16
  { event: 'purchase', ts: '2026-03-17T09:00:00Z', user_id: 'ann', props: { revenue: 30 } }, // period 0
  { event: 'view', ts: '2026-03-24T09:00:00Z', user_id: 'ann' }, // period 1
  { event: 'refund', ts: '2026-03-25T09:00:00Z', user_id: 'ann', props: { revenue: -10 } }, // period 1
  { event: 'view', ts: '2026-04-07T09:00:00Z', user_id: 'ann' }, // period 3
  { event: 'signup', ts: '2026-03-22T23:30:00Z', user_id: 'ben' }, // Sunday 23:30 GMT: cohort 03-16
  { event: 'view', ts: '2026-03-30T00:30:00Z', user_id: 'ben' }, // Monday 01:30 BST: period 2
  { event: 'purchase', ts: '2026-03-31T09:00:00Z', user_id: 'ben', props: { revenue: 20 } }, // period 2
  { event: 'signup', ts: '2026-03-28T12:00:00Z', anonymous_id: 'c-anon' }, // cal before identifying: cohort 03-23
  { event: 'view', ts: '2026-03-29T00:30:00Z', user_id: 'cal' }, // 00:30 GMT Sunday: still period 0
  { event: 'view', ts: '2026-04-05T23:30:00Z', user_id: 'cal' }, // Monday 00:30 BST: period 2
  { event: 'signup', ts: '2026-03-30T10:00:00Z', user_id: 'dee' }, // cohort 03-30
  { event: 'signup', ts: '2026-03-15T23:30:00Z', user_id: 'eve' }, // Sunday 03-15: before the range
  { event: 'signup', ts: '2026-04-01T10:00:00Z', user_id: 'eve' }, // after the range
];
const BODY = { start_event: 'signup', granularity: 'week', periods: 3, date_from: '2026-03-16', date_to: '2026-03-31' };

async function londonProject(h: QueryHarness): Promise<number> {
  const p = h.project('Europe/London');
  await seedEvents(h.server, p, EVENTS);
  await seedIdentity(h.server, p, 'c-anon', 'cal');
  return p;
}

// Licenses are granted while the clock still reads 2026-01-01, so they cover every later date.
async function actorsPages(t: Test, h: QueryHarness): Promise<void> {
  const p = await londonProject(h);
  const body = { ...BODY, return_event: 'any', cohort: '2026-03-16', period: 0, limit: 1 };

  await grantEntitlements(h.server, ['actor_drilldown']);
  const refused = await h.query(p, 'retention/actors', body);
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'entitlement_required');
  t.same(refused.body.error.details, { entitlement: 'saved_segments' });

  await grantEntitlements(h.server, ['actor_drilldown', 'saved_segments']);
  const notMonday = await h.query(p, 'retention/actors', { ...body, cohort: '2026-03-17' });
  t.equal(notMonday.status, 422);
  t.equal(notMonday.body.error.message, 'cohort 2026-03-17 is not a week cohort of 2026-03-16..2026-03-31 (week cohorts are labelled by their Monday)');

  const first = await h.query(p, 'retention/actors', body);
  t.equal(first.status, 200);
  t.strictSame(first.body.items, [{ actor_id: 'ann' }]);
  const second = await h.query(p, 'retention/actors', { ...body, cursor: first.body.next_cursor });
  t.strictSame(second.body, { cohort: '2026-03-16', period: 0, items: [{ actor_id: 'ben' }], next_cursor: null });

  const week2 = await h.query(p, 'retention/actors', { ...body, period: 2, limit: 50 });
  t.strictSame(week2.body.items, [{ actor_id: 'ben' }]);
  const calWeek2 = await h.query(p, 'retention/actors', { ...body, cohort: '2026-03-23', period: 2 });
  t.strictSame(calWeek2.body.items, [{ actor_id: 'cal' }]);

  const otherScope = await h.query(p, 'retention/actors', { ...body, period: 1, cursor: first.body.next_cursor });
  t.equal(otherScope.status, 422);
  t.equal(otherScope.body.error.details.field, 'cursor');
}

async function londonWeeks(t: Test, h: QueryHarness): Promise<void> {
  // Wednesday 2026-04-08: period 3 of the 03-23 cohort (week of 04-13) has not started.
  h.server.clock.set('2026-04-08T12:00:00Z');
  await h.renewToken();
  const p = await londonProject(h);

  const actors = await h.query(p, 'retention', BODY);
  t.equal(actors.status, 200);
  t.strictSame(actors.body, {
    date_from: '2026-03-16',
    date_to: '2026-03-31',
    cohorts: [
      // ann and ben; ann back in week 1 and 3, ben in week 2.
      { cohort: '2026-03-16', size: 2, values: [1, 0.5, 0.5, 0.5], counts: [2, 1, 1, 1] },
      // cal (identified later); back in week 2 only.
      { cohort: '2026-03-23', size: 1, values: [1, 0, 1, null], counts: [1, 0, 1, null] },
      { cohort: '2026-03-30', size: 1, values: [1, 0, null, null], counts: [1, 0, null, null] },
    ],
    granularity: 'week',
    periods: 3,
    value: 'actors',
  });

  const revenue = await h.query(p, 'retention', { ...BODY, value: 'revenue' });
  t.strictSame(
    revenue.body.cohorts.map((c: { values: unknown }) => c.values),
    [
      [15, 10, 20, 20], // (30) / 2, (30 - 10) / 2, (30 - 10 + 20) / 2, unchanged
      [0, 0, 0, null],
      [0, 0, null, null],
    ],
  );

  const paid = await h.query(p, 'retention', { ...BODY, value: 'paid_conversion' });
  t.strictSame(
    paid.body.cohorts.map((c: { values: unknown }) => c.values),
    [
      [0.5, 0.5, 1, 1], // ann paid in week 0, ben in week 2
      [0, 0, 0, null],
      [0, 0, null, null],
    ],
  );

  // Only ann returned with a "view" in week 1, ben in week 2.
  const views = await h.query(p, 'retention', { ...BODY, return_event: 'view', date_to: '2026-03-22' });
  t.strictSame(views.body.cohorts, [{ cohort: '2026-03-16', size: 2, values: [1, 0.5, 0.5, 0.5], counts: [2, 1, 1, 1] }]);
}

const retentionQueryArb = fc.record({
  start_event: fc.constantFrom(...EVENT_NAMES),
  return_event: fc.constantFrom(...EVENT_NAMES, 'any'),
  granularity: fc.constantFrom('day' as const, 'week' as const),
  periods: fc.integer({ min: 1, max: 6 }),
  filters: filtersArb,
});

async function randomRetention(t: Test, h: QueryHarness, runs: number): Promise<void> {
  const query = fc.tuple(retentionQueryArb, fc.constantFrom('actors' as const, 'revenue' as const, 'paid_conversion' as const));
  await fc.assert(
    fc.asyncProperty(scenarioArb({ maxDays: 14 }), several(query), async (s, qs) => {
      const { projectId, events } = await seedScenario(h, s);
      for (const [q, value] of qs) {
        const input: RetentionInput = { ...q, value, date_from: s.date_from, date_to: s.date_to };
        const res = await h.query(projectId, 'retention', input);
        if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
        const diff = difference(res.body, retentionOracle(events, s.links, input, s.tz, todayOf(s)));
        if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
      }
    }),
    { numRuns: runs },
  );
  t.pass('retention agrees with the reference');
}

async function randomActors(t: Test, h: QueryHarness, runs: number): Promise<void> {
  const query = fc.tuple(retentionQueryArb, fc.nat(), fc.nat());
  await fc.assert(
    fc.asyncProperty(scenarioArb({ maxDays: 14 }), several(query), async (s, qs) => {
      const { projectId, events } = await seedScenario(h, s);
      for (const [q, cohortPick, periodPick] of qs) {
        const cohorts = bucketList(s.date_from, s.date_to, q.granularity);
        const input = { ...q, date_from: s.date_from, date_to: s.date_to, cohort: cohorts[cohortPick % cohorts.length]!, period: periodPick % (q.periods + 1) };
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await h.query(projectId, 'retention/actors', { ...input, limit: 2, cursor });
          if (page.status !== 200) throw new Error(`status ${page.status}: ${page.text}`);
          seen.push(...page.body.items.map((a: { actor_id: string }) => a.actor_id));
          cursor = page.body.next_cursor ?? undefined;
        } while (cursor);
        const expected = retentionActorsOracle(events, s.links, input, s.tz);
        if (JSON.stringify(seen) !== JSON.stringify(expected)) throw new Error(`${JSON.stringify(input)}: got ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
      }
    }),
    { numRuns: runs },
  );
  t.pass('retention actors agree with the reference');
}

async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('retention actors: entitlements, validation, pages', (t) => actorsPages(t, h));
  await t.test('weekly retention in Europe/London', (t) => londonWeeks(t, h));
  await t.test('retention matches the reference implementation on random data', (t) => randomRetention(t, h, runs));
  await t.test('retention actors match the reference implementation on random data', (t) => randomActors(t, h, runs));
}

// The ClickHouse node runs beside the suite: fewer random runs there keep the file under a minute.
onEachEngine(t, cases, { duckdb: RUNS, clickhouse: 6 });
