// Correlations: a hand-checked example (observation windows of converters and of the others, the
// strict "before", managed events, ranking and the statistics), the refusals, then random data
// compared with test/oracles/correlations.ts, on DuckDB and on ClickHouse (one node). On 2
// shards × 2 replicas: sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { correlationsOracle } from '../oracles/correlations.js';
import { benjaminiHochberg, twoSidedP } from '../../server/queries/stats.js';

const at = (time: string) => `2026-04-02T${time}:00Z`;
const ev = (event: string, time: string, user: string): SeedEvent => ({ event, ts: at(time), user_id: user });

const EVENTS: SeedEvent[] = [
  // Converters: 10, 30 and 0 minutes from their first event to their first purchase (median 10).
  ev('view', '10:00', 'a1'),
  ev('pricing', '10:05', 'a1'),
  ev('purchase', '10:10', 'a1'),
  ev('docs', '10:11', 'a1'),
  ev('view', '09:00', 'a2'),
  ev('purchase', '09:30', 'a2'),
  ev('purchase', '09:40', 'a2'),
  ev('purchase', '14:00', 'a5'),
  ev('view', '14:01', 'a5'),
  // Others, watched for 10 minutes from their first event: a3's pricing at 12:20 is not seen.
  ev('view', '12:00', 'a3'),
  ev('pricing', '12:20', 'a3'),
  ev('docs', '08:00', 'a4'),
  ev('pp.click', '08:05', 'a4'),
  ev('view', '08:10', 'a4'),
];
const BODY = { date_from: '2026-04-01', date_to: '2026-04-03', target_event: 'purchase', min_n: 1 };

const queryArb = fc.record({
  target_event: fc.constantFrom(...EVENT_NAMES),
  min_n: fc.integer({ min: 1, max: 3 }),
  limit: fc.integer({ min: 1, max: 5 }),
  exclude_managed: fc.boolean(),
  filters: fc.option(filtersArb, { nil: undefined }),
});

t.test('statistics helpers', async (t) => {
  t.ok(Math.abs(twoSidedP(1.959963984540054) - 0.05) < 1e-12);
  t.ok(Math.abs(twoSidedP(10) - 1.5239706048321e-23) < 1e-33);
  // Sorted 0.01, 0.03, 0.04, 0.5 give 0.04, 0.06, 0.0533, 0.5; made monotone from the largest down.
  t.strictSame(benjaminiHochberg([0.01, 0.04, 0.03, 0.5]), [0.04, (0.04 * 4) / 3, (0.04 * 4) / 3, 0.5]);
});

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('correlations over hand-made events', async (t) => {
    const p = h.project('UTC');
    await seedEvents(h.server, p, EVENTS);
    const res = await h.query(p, 'correlations', BODY);
    t.equal(res.status, 200, res.text);
    const b = res.body;
    t.match(b, { actors: 5, converters: 3, conversion_rate: 0.6, observation_seconds: 600, candidates_tested: 3, skewed: false });
    t.match(b.warning, /associations, not causes/);
    t.strictSame(
      b.candidates.map((c: { event: string }) => c.event),
      ['pricing', 'view', 'docs'],
      'by lift',
    );
    const [pricing, view, docs] = b.candidates;
    // pricing: a1 only (a3's came after her 10 minutes). 1 of 1 converted against 0.6 overall.
    t.match(pricing, { actors: 1, converted_did: 1, converted_did_not: 2, not_converted_did: 0, not_converted_did_not: 2, conversion_with: 1, conversion_without: 0.5 });
    t.equal(pricing.lift, 1 / 0.6);
    t.equal(pricing.odds_ratio, (2 * 3) / (3 * 1), 'one added to each cell');
    // view: a1, a2 (converted) and a3 (not); a5 viewed after converting, a4 after her 10 minutes.
    t.match(view, { actors: 3, converted_did: 2, not_converted_did: 1, conversion_with: 2 / 3 });
    t.equal(view.lift, 2 / 3 / 0.6);
    // docs: a4 only (a1's came after her purchase).
    t.match(docs, { actors: 1, converted_did: 0, lift: 0 });
    const se = Math.sqrt(1 / 2 + 1 / 3 + 1 / 1 + 1 / 3);
    t.ok(Math.abs(pricing.odds_ratio_low - Math.exp(Math.log(2) - 1.959963984540054 * se)) < 1e-12, 'the Wald interval of the log odds ratio');
    t.ok(Math.abs(pricing.p_value - twoSidedP(Math.log(2) / se)) < 1e-15);
    t.strictSame(
      b.candidates.map((c: { q_value: number }) => c.q_value),
      benjaminiHochberg(b.candidates.map((c: { p_value: number }) => c.p_value)),
    );

    const managed = await h.query(p, 'correlations', { ...BODY, exclude_managed: false });
    t.strictSame(
      managed.body.candidates.map((c: { event: string }) => c.event),
      ['pricing', 'view', 'docs', 'pp.click'],
      'autocapture only on request; ties by name',
    );
    const strict = await h.query(p, 'correlations', { ...BODY, min_n: 2 });
    t.strictSame(
      strict.body.candidates.map((c: { event: string }) => c.event),
      ['view'],
    );
    const none = await h.query(p, 'correlations', { ...BODY, target_event: 'never' });
    t.match(none.body, { converters: 0, conversion_rate: 0, observation_seconds: null, skewed: true });
    t.ok(
      none.body.candidates.every((c: { lift: number | null }) => c.lift === null),
      'no lift without converters',
    );
  });

  await t.test('refusals', async (t) => {
    const p = h.project('UTC');
    const missing = await h.query(p, 'correlations', { date_from: '2026-04-01', date_to: '2026-04-03' });
    t.equal(missing.status, 422);
    t.equal(missing.body.error.message, 'invalid request body: target_event is required');
    t.equal((await h.query(p, 'correlations', { ...BODY, min_n: 0 })).status, 422);
    t.equal((await h.query(p, 'correlations', { ...BODY, date_from: '2026-04-04' })).status, 422);
  });

  await t.test('random events agree with the reference correlations', async (t) => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxDays: 10, ties: true }), several(queryArb), async (s, qs) => {
        // Some events become autocapture, which exclude_managed leaves out.
        const events = s.events.map((e, i) => (i % 5 === 0 ? { ...e, event: 'pp.page_view' } : e));
        const { projectId, events: stored } = await seedScenario(h, { ...s, events });
        for (const q of qs) {
          const body = JSON.parse(JSON.stringify({ date_from: s.date_from, date_to: s.date_to, ...q }));
          const res = await h.query(projectId, 'correlations', body);
          if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
          const diff = difference(res.body, correlationsOracle(stored, s.links, body, s.tz));
          if (diff) throw new Error(`${JSON.stringify(body)} in ${s.tz}: ${diff}`);
        }
      }),
      { numRuns: runs },
    );
    t.pass('correlations agree with the reference');
  });
}

onEachEngine(t, cases, { duckdb: RUNS });
