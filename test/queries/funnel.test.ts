// Funnel: a hand-checked New York example (identify, window, order, range edges, breakdown, revenue,
// totals, dropped actors with their cursor), simultaneous events, then random data with many
// simultaneous events compared with test/oracles/funnel.ts, each on DuckDB and on one ClickHouse
// node. On 2 shards × 2 replicas (an actor's ids on both shards): sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents, seedIdentity } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { funnelDroppedOracle, funnelOracle, type FunnelInput } from '../oracles/funnel.js';

const EVENTS = [
  // alice signs up anonymously, then identifies: both steps count for her (level 3).
  { event: 'signup', ts: '2026-03-02T15:00:00Z', anonymous_id: 'a-anon', props: { plan: 'pro' } },
  { event: 'activate', ts: '2026-03-02T16:00:00Z', user_id: 'alice' }, // +1 h
  { event: 'purchase', ts: '2026-03-03T15:00:00Z', user_id: 'alice', props: { revenue: 100 } }, // +23 h
  { event: 'refund', ts: '2026-03-05T15:00:00Z', user_id: 'alice', props: { revenue: -20 } },
  // bob: the first attempt activates after 72 h (outside 48 h); the second reaches step 2 in 24 h;
  // his purchase is 72 h after that signup, too late.
  { event: 'signup', ts: '2026-03-04T12:00:00Z', user_id: 'bob', props: { plan: 'pro' } },
  { event: 'signup', ts: '2026-03-06T12:00:00Z', user_id: 'bob', props: { plan: 'free' } },
  { event: 'activate', ts: '2026-03-07T12:00:00Z', user_id: 'bob' },
  { event: 'purchase', ts: '2026-03-09T12:00:00Z', user_id: 'bob', props: { revenue: 50 } },
  // carol signs up at 23:00 EDT on date_to and activates a day later, after the range: counts.
  { event: 'signup', ts: '2026-03-11T03:00:00Z', user_id: 'carol', props: { plan: 'free' } },
  { event: 'activate', ts: '2026-03-12T03:00:00Z', user_id: 'carol' },
  // dave signs up at 23:00 EST the day before date_from: not in the funnel at all.
  { event: 'signup', ts: '2026-03-01T04:00:00Z', user_id: 'dave' },
  { event: 'activate', ts: '2026-03-01T06:00:00Z', user_id: 'dave' },
  // erin activates before signing up: order matters, level 1.
  { event: 'activate', ts: '2026-03-02T10:00:00Z', user_id: 'erin' },
  { event: 'signup', ts: '2026-03-02T11:00:00Z', user_id: 'erin' },
];

const BODY = {
  date_from: '2026-03-01',
  date_to: '2026-03-10',
  window_hours: 48,
  steps: [{ event: 'signup' }, { event: 'activate', label: 'Activated' }, { event: 'purchase' }],
};

const step = (event: string, label: string, count: number, conversion: number | null, stepConversion: number | null, median: number | null, mean: number | null) => ({
  event,
  label,
  count,
  conversion_rate: conversion,
  step_conversion_rate: stepConversion,
  median_seconds_from_previous: median,
  mean_seconds_from_previous: mean,
});

async function funnelCases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('funnel over hand-made events in America/New_York', async (t) => {
    const p = h.project('America/New_York');
    await seedEvents(h.server, p, EVENTS);
    await seedIdentity(h.server, p, 'a-anon', 'alice');

    const res = await h.query(p, 'funnel', { ...BODY, breakdown: { property: 'props.plan', limit: 2 }, value: 'revenue' });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      date_from: '2026-03-01',
      date_to: '2026-03-10',
      steps: [
        step('signup', 'signup', 4, 1, 1, null, null), // alice, bob, carol, erin
        // alice 3600 s, bob 86400 s, carol 86400 s: median 86400, mean 58800.
        step('activate', 'Activated', 3, 0.75, 0.75, 86400, 58800),
        step('purchase', 'purchase', 1, 0.25, 1 / 3, 82800, 82800), // alice only, 23 h after activating
      ],
      breakdown: [
        // Each actor in the segment of their best attempt's signup: bob's second one was "free".
        {
          name: 'free',
          value: 'free',
          steps: [step('signup', 'signup', 2, 1, 1, null, null), step('activate', 'Activated', 2, 1, 1, 86400, 86400), step('purchase', 'purchase', 0, 0, 0, null, null)],
        },
        { name: 'pro', value: 'pro', steps: [step('signup', 'signup', 1, 1, 1, null, null), step('activate', 'Activated', 1, 1, 1, 3600, 3600), step('purchase', 'purchase', 1, 1, 1, 82800, 82800)] },
        // erin has no plan; with limit 2 she folds into $other.
        {
          name: '$other',
          value: null,
          steps: [step('signup', 'signup', 1, 1, 1, null, null), step('activate', 'Activated', 0, 0, 0, null, null), step('purchase', 'purchase', 0, 0, null, null, null)],
        },
      ],
      revenue: {
        converting_actors: 1,
        revenue_per_converting_actor: 80, // alice: 100 - 20 in the range
        transitions: [
          { from_step: 1, to_step: 2, dropped: 1, estimated_monthly_loss: 240 }, // 1 × 80 × 30 / 10 days
          { from_step: 2, to_step: 3, dropped: 2, estimated_monthly_loss: 480 },
        ],
      },
    });

    const totals = await h.query(p, 'funnel', { ...BODY, count_by: 'totals' });
    t.equal(totals.status, 200);
    // Attempts: alice 1 (level 3), bob 2 (levels 1 and 2), carol 1 (2), erin 1 (1).
    t.same(
      totals.body.steps.map((s: { count: number }) => s.count),
      [5, 3, 1],
    );

    const compared = await h.query(p, 'funnel', { ...BODY, compare: { period: 'previous' } });
    t.equal(compared.status, 200);
    t.equal(compared.body.compare.date_from, '2026-02-19');
    t.equal(compared.body.compare.date_to, '2026-02-28');
    // dave's 23:00 EST signup on 02-28 is the previous period's only attempt; he activated 2 h later.
    t.same(
      compared.body.compare.steps.map((s: { count: number }) => s.count),
      [1, 1, 0],
    );
  });

  await t.test('dropped actors: entitlement, pages, cursor bound to the query', async (t) => {
    const p = h.project('America/New_York');
    await seedEvents(h.server, p, EVENTS);
    await seedIdentity(h.server, p, 'a-anon', 'alice');
    const body = { ...BODY, dropped_at_step: 2, dropped_limit: 1 };

    const refused = await h.query(p, 'funnel', body);
    t.equal(refused.status, 403);
    t.equal(refused.body.error.code, 'entitlement_required');
    t.same(refused.body.error.details, { entitlement: 'actor_drilldown' });

    await grantEntitlements(h.server, ['actor_drilldown']);
    // bob and carol stopped at step 2, one per page.
    const first = await h.query(p, 'funnel', body);
    t.equal(first.status, 200);
    t.same(first.body.dropped.actors, [{ actor_id: 'bob' }]);
    t.equal(first.body.dropped.step, 2);
    t.type(first.body.dropped.next_cursor, 'string');
    const second = await h.query(p, 'funnel', { ...body, dropped_cursor: first.body.dropped.next_cursor });
    t.same(second.body.dropped.actors, [{ actor_id: 'carol' }]);
    t.equal(second.body.dropped.next_cursor, null);

    // The same cursor with another step, window or project is refused.
    for (const [label, other, project] of [
      ['another step', { ...body, dropped_at_step: 1 }, p],
      ['another window', { ...body, window_hours: 72 }, p],
      ['another project', body, h.project('America/New_York')],
    ] as const) {
      const res = await h.query(project, 'funnel', { ...other, dropped_cursor: first.body.dropped.next_cursor });
      t.equal(res.status, 422, label);
      t.equal(res.body.error.message, 'dropped_cursor does not belong to this query; start again without it', label);
    }
    const tampered = await h.query(p, 'funnel', { ...body, dropped_cursor: `${first.body.dropped.next_cursor}x` });
    t.equal(tampered.status, 422);
  });

  await t.test('simultaneous events: the next step may be at the same instant, each step its own event', async (t) => {
    const p = h.project('UTC');
    const at = (second: number) => new Date(Date.parse('2026-05-01T10:00:00Z') + second * 1000).toISOString();
    // Uuids chosen against the funnel order: whatever a uuid sort would say, content decides.
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    await seedEvents(h.server, p, [
      // u1 views once: [view, view] needs a second view.
      { event: 'view', ts: at(0), user_id: 'u1' },
      // u2 views twice in the same millisecond: the second completes [view, view] with 0 s between.
      { event: 'view', ts: at(0), user_id: 'u2', uuid: uuid(2) },
      { event: 'view', ts: at(0), user_id: 'u2', uuid: uuid(1) },
      // u3 puts in the cart and buys in the same second, the purchase with the lower uuid.
      { event: 'cart', ts: at(5), user_id: 'u3', uuid: uuid(9) },
      { event: 'purchase', ts: at(5), user_id: 'u3', uuid: uuid(3) },
    ]);
    const twice = await h.query(p, 'funnel', { date_from: '2026-05-01', date_to: '2026-05-01', steps: [{ event: 'view' }, { event: 'view' }] });
    t.same(
      twice.body.steps.map((s: { count: number }) => s.count),
      [2, 1],
    );
    t.equal(twice.body.steps[1].median_seconds_from_previous, 0);
    const bought = await h.query(p, 'funnel', { date_from: '2026-05-01', date_to: '2026-05-01', steps: [{ event: 'cart' }, { event: 'purchase' }] });
    t.same(
      bought.body.steps.map((s: { count: number }) => s.count),
      [1, 1],
    );
    // [any, purchase]: u3's cart serves step 1 and the simultaneous purchase step 2.
    const anyThenBuy = await h.query(p, 'funnel', { date_from: '2026-05-01', date_to: '2026-05-01', steps: [{ event: 'any' }, { event: 'purchase' }] });
    t.same(
      anyThenBuy.body.steps.map((s: { count: number }) => s.count),
      [3, 1],
    );
  });

  await t.test("ClickHouse's windowFunnel case: three steps at one instant between two others reach level 5", async (t) => {
    const p = h.project('UTC');
    const at = (second: number) => new Date(Date.parse('2026-05-01T10:00:00Z') + second * 1000).toISOString();
    // Events 1000@0, 1001@1, 1002@1, 1003@1, 1004@2, loaded in reverse so storage order says nothing.
    const events = [0, 1, 1, 1, 2].map((second, i) => ({ event: `e${1000 + i}`, ts: at(second), user_id: 'ch' })).reverse();
    await seedEvents(h.server, p, events);
    const res = await h.query(p, 'funnel', { date_from: '2026-05-01', date_to: '2026-05-01', window_hours: 1, steps: [0, 1, 2, 3, 4].map((i) => ({ event: `e${1000 + i}` })) });
    t.same(
      res.body.steps.map((s: { count: number }) => s.count),
      [1, 1, 1, 1, 1],
    );
    t.same(
      res.body.steps.map((s: { median_seconds_from_previous: number | null }) => s.median_seconds_from_previous),
      [null, 1, 0, 0, 1],
    );
  });

  await t.test('funnel matches the reference implementation on random data', async (t) => {
    await grantEntitlements(h.server, ['actor_drilldown']);
    const stepArb = fc.record({ event: fc.constantFrom(...EVENT_NAMES, 'any'), filters: filtersArb });
    const queryArb = fc.record({
      steps: fc.array(stepArb, { minLength: 2, maxLength: 4 }),
      window_hours: fc.constantFrom(1, 24, 72, 336),
      count_by: fc.constantFrom('actors' as const, 'totals' as const),
      breakdown: fc.option(fc.record({ property: fc.constantFrom('props.plan', 'path', 'props.n'), limit: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
      revenue: fc.boolean(),
      dropStep: fc.integer({ min: 1, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxDays: 10, ties: true }), several(queryArb), async (s, qs) => {
        const { projectId, events } = await seedScenario(h, s);
        for (const q of qs) {
          const input: FunnelInput = {
            date_from: s.date_from,
            date_to: s.date_to,
            window_hours: q.window_hours,
            steps: q.steps,
            count_by: q.count_by,
            breakdown: q.breakdown,
            value: q.revenue && q.count_by === 'actors' ? 'revenue' : 'actors',
          };
          const res = await h.query(projectId, 'funnel', input);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, funnelOracle(events, s.links, input, s.tz));
          if (diff) throw new Error(`${JSON.stringify(input)}: ${diff}`);
          if (q.count_by !== 'actors') continue;
          // Page through the dropped actors two at a time.
          const k = Math.min(q.dropStep, q.steps.length - 1);
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await h.query(projectId, 'funnel', { ...input, dropped_at_step: k, dropped_limit: 2, dropped_cursor: cursor });
            if (page.status !== 200) throw new Error(`status ${page.status}: ${page.text}`);
            seen.push(...page.body.dropped.actors.map((a: { actor_id: string }) => a.actor_id));
            cursor = page.body.dropped.next_cursor ?? undefined;
          } while (cursor);
          const expected = funnelDroppedOracle(events, s.links, input, s.tz, k);
          if (JSON.stringify(seen) !== JSON.stringify(expected)) throw new Error(`dropped at ${k}: got ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('funnel agrees with the reference');
  });
}

// Fewer runs on ClickHouse than elsewhere: each run's events make many statements there.
onEachEngine(t, funnelCases, { duckdb: RUNS, clickhouse: 3 });
