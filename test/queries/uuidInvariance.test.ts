// Answers depend on what events say, never on their random uuids: the same events loaded twice,
// once with uuids in one order and once in the reverse order, give the same funnel (counts, times,
// breakdown, dropped actors), the same retention and the same paths. The events are made simultaneous on purpose,
// since the uuid is what a careless query would order simultaneous events by.

import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { difference, queryHarness, type QueryHarness } from './harness.js';
import { EVENT_NAMES, filtersArb, RUNS, scenarioArb, seedScenario, several, type Scenario } from './scenarios.js';
import { grantEntitlements } from '../support/license.js';

const h = await queryHarness(t);
await grantEntitlements(h.server, ['actor_drilldown']);

/** The scenario twice, the second copy's uuids in the reverse order of the first's. */
async function seedTwice(h: QueryHarness, s: Scenario): Promise<[number, number]> {
  const uuids = s.events.map(() => randomUUID()).sort();
  const reversed = [...uuids].reverse();
  const a = await seedScenario(h, { ...s, events: s.events.map((e, i) => ({ ...e, uuid: uuids[i]! })) });
  const b = await seedScenario(h, { ...s, events: s.events.map((e, i) => ({ ...e, uuid: reversed[i]! })) });
  return [a.projectId, b.projectId];
}

async function sameAnswer(projects: [number, number], path: string, body: unknown): Promise<void> {
  const [a, b] = await Promise.all(projects.map((p) => h.query(p, path, body)));
  if (a!.status !== 200) throw new Error(`${path} status ${a!.status}: ${a!.text}`);
  const diff = difference(b!.body, a!.body);
  if (diff) throw new Error(`${path} ${JSON.stringify(body)} changed with the uuids: ${diff}`);
}

const funnelArb = fc.record({
  steps: fc.array(fc.record({ event: fc.constantFrom(...EVENT_NAMES, 'any'), filters: filtersArb }), { minLength: 2, maxLength: 4 }),
  window_hours: fc.constantFrom(1, 24, 336),
  count_by: fc.constantFrom('actors' as const, 'totals' as const),
  breakdown: fc.option(fc.record({ property: fc.constantFrom('props.plan', 'path', 'props.n'), limit: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
});

const retentionArb = fc.record({
  start_event: fc.constantFrom(...EVENT_NAMES),
  return_event: fc.constantFrom(...EVENT_NAMES, 'any'),
  granularity: fc.constantFrom('day' as const, 'week' as const),
  periods: fc.integer({ min: 1, max: 4 }),
});

const pathsArb = fc.record({
  selected_event: fc.constantFrom(...EVENT_NAMES),
  direction: fc.constantFrom('before' as const, 'after' as const),
  depth: fc.integer({ min: 1, max: 4 }),
  mode: fc.constantFrom('actor' as const, 'session' as const),
  breakdown: fc.option(fc.record({ property: fc.constantFrom('props.plan', 'props.n'), limit: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
});

t.test('permuting uuids changes no funnel, retention or paths', async (t) => {
  await fc.assert(
    fc.asyncProperty(scenarioArb({ maxDays: 7, ties: true }), several(fc.tuple(funnelArb, retentionArb, pathsArb)), async (s, qs) => {
      const projects = await seedTwice(h, s);
      const range = { date_from: s.date_from, date_to: s.date_to };
      for (const [funnel, retention, paths] of qs) {
        await sameAnswer(projects, 'paths', { ...range, ...paths });
        await sameAnswer(projects, 'funnel', { ...range, ...funnel });
        if (funnel.count_by === 'actors') {
          for (let step = 1; step < funnel.steps.length; step++) {
            await sameAnswer(projects, 'funnel', { ...range, ...funnel, dropped_at_step: step, dropped_limit: 1000 });
          }
        }
        await sameAnswer(projects, 'retention', { ...range, ...retention });
      }
    }),
    { numRuns: RUNS },
  );
  t.pass('no answer depends on the uuids');
});
