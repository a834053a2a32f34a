// Paths actors: who is behind a node or a link of the paths graph. Hand-made events in New York
// across the spring DST change (entitlement, checks, nodes, links, $other and $end, sessions,
// pages; whether they have recordings is the console test's), then random data: for nodes and links picked from the server's own graph, the actors
// listed page by page equal test/oracles/paths.ts's, and their units the graph's counts.

import t from 'tap';
import fc from 'fast-check';
import { queryHarness, type QueryHarness } from './harness.js';
import { RUNS, scenarioArb, seedScenario, several } from './scenarios.js';
import { queryArb, RULES, withPages } from './pathsArbs.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { accessTokenFor, addMember } from '../support/factories.js';
import { pathsActorsOracle, type PathsSpot } from '../oracles/paths.js';

const pv = (ts: string, path: string, who: Partial<SeedEvent>): SeedEvent => ({ event: 'pp.page_view', ts, url: `https://shop.example${path}`, ...who });

const EVENTS: SeedEvent[] = [
  // alice: anonymous until she signs up, one session a day.
  pv('2026-03-07T15:00:00Z', '/home', { anonymous_id: 'a1', session_id: 's1' }),
  pv('2026-03-07T15:01:00Z', '/pricing', { anonymous_id: 'a1', session_id: 's1' }),
  { event: 'signup', ts: '2026-03-07T15:02:00Z', user_id: 'alice', session_id: 's1' },
  pv('2026-03-08T16:00:00Z', '/home', { user_id: 'alice', session_id: 's2' }),
  { event: 'purchase', ts: '2026-03-08T16:05:00Z', user_id: 'alice', session_id: 's2' },
  // bob: 01:30 EST, just before the change; no session ids.
  pv('2026-03-08T06:30:00Z', '/home', { user_id: 'bob' }),
  pv('2026-03-08T06:50:00Z', '/pricing', { user_id: 'bob' }),
  { event: 'signup', ts: '2026-03-08T07:30:00Z', user_id: 'bob' },
  // carol: 23:00 EST on 03-06 is before the range, so her route starts at /pricing.
  pv('2026-03-07T04:00:00Z', '/home', { user_id: 'carol' }),
  pv('2026-03-07T05:30:00Z', '/pricing', { user_id: 'carol' }),
  { event: 'purchase', ts: '2026-03-07T05:31:00Z', user_id: 'carol' },
  // dan: /home, then nothing.
  pv('2026-03-09T12:00:00Z', '/home', { user_id: 'dan' }),
];

const AFTER = { date_from: '2026-03-07', date_to: '2026-03-09', selected_event: 'pp.page_view', direction: 'after', depth: 2, mode: 'actor' };

const h = await queryHarness(t);

const actorsOf = (body: { items: Array<{ actor_id: string }> }) => body.items.map((a) => a.actor_id);

t.test('paths actors over hand-made events in America/New_York', async (t) => {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, EVENTS);
  await seedIdentity(h.server, p, 'a1', 'alice');
  const at = (spot: Record<string, unknown>, extra: Record<string, unknown> = {}) => h.query(p, 'paths/actors', { ...AFTER, ...spot, ...extra });

  const refused = await at({ step: 0, item: '/home' });
  t.equal(refused.status, 403, 'the people of a graph need actor_drilldown');
  t.equal(refused.body.error.code, 'entitlement_required');
  await grantEntitlements(h.server, ['actor_drilldown']);

  // alice, bob and dan start at /home; carol at /pricing. Then /pricing (alice, bob), $end (dan).
  const graph = await h.query(p, 'paths', AFTER);
  t.strictSame(graph.body.sankey.nodes.slice(0, 2), [
    { step: 0, item: '/home', count: 3 },
    { step: 0, item: '/pricing', count: 1 },
  ]);

  const home = await at({ step: 0, item: '/home' });
  t.equal(home.status, 200, home.text);
  t.strictSame(home.body, {
    step: 0,
    item: '/home',
    next_item: null,
    units: 3,
    total: 3,
    items: [
      { actor_id: 'alice', recorded: false },
      { actor_id: 'bob', recorded: false },
      { actor_id: 'dan', recorded: false },
    ],
    next_cursor: null,
  });
  t.strictSame(actorsOf((await at({ step: 1, item: '$end' })).body), ['dan'], 'the units whose route stopped');
  t.strictSame(actorsOf((await at({ step: 1, item: 'purchase' })).body), ['carol']);
  // A link: /home at 0 to /pricing at 1.
  const link = await at({ step: 0, item: '/home', next_item: '/pricing' });
  t.strictSame({ units: link.body.units, actors: actorsOf(link.body) }, { units: 2, actors: ['alice', 'bob'] });
  t.strictSame(actorsOf((await at({ step: 0, item: '/pricing', next_item: '/pricing' })).body), [], 'no such link: nobody');
  t.strictSame(actorsOf((await at({ step: 2, item: 'nothing' })).body), [], 'no such node: nobody');

  // top_n 1 folds carol's /pricing at step 0 into $other.
  t.strictSame(actorsOf((await at({ step: 0, item: '$other' }, { top_n: 1 })).body), ['carol']);

  // Pages of one, by actor id; a cursor is bound to its node.
  const first = await at({ step: 0, item: '/home' }, { limit: 1 });
  t.strictSame(actorsOf(first.body), ['alice']);
  t.equal(first.body.total, 3);
  const second = await at({ step: 0, item: '/home' }, { limit: 1, cursor: first.body.next_cursor });
  t.strictSame(actorsOf(second.body), ['bob']);
  const third = await at({ step: 0, item: '/home' }, { limit: 1, cursor: second.body.next_cursor });
  t.strictSame({ actors: actorsOf(third.body), next: third.body.next_cursor }, { actors: ['dan'], next: null });
  const elsewhere = await at({ step: 1, item: '/pricing' }, { limit: 1, cursor: first.body.next_cursor });
  t.equal(elsewhere.status, 422);
  t.equal(elsewhere.body.error.details.field, 'cursor');

  // Before signup: a node of negative step; sessions count alice once per session, list her once.
  const before = { ...AFTER, selected_event: 'signup', direction: 'before' };
  t.strictSame(actorsOf((await h.query(p, 'paths/actors', { ...before, step: -1, item: '/pricing' })).body), ['alice', 'bob']);
  t.strictSame(actorsOf((await h.query(p, 'paths/actors', { ...before, step: -2, item: '/home', next_item: '/pricing' })).body), ['alice', 'bob']);
  const sessions = await h.query(p, 'paths/actors', { ...AFTER, mode: 'session', step: 0, item: '/home' });
  t.strictSame({ units: sessions.body.units, total: sessions.body.total, actors: actorsOf(sessions.body) }, { units: 4, total: 3, actors: ['alice', 'bob', 'dan'] });

  // A breakdown is the paths answer's; the people are the whole graph's.
  t.strictSame(actorsOf((await at({ step: 0, item: '/home' }, { breakdown: { property: 'path' } })).body), ['alice', 'bob', 'dan']);

  // A viewer may list them too.
  const viewer = await accessTokenFor(h.server, await addMember(h.server, h.tenant.org, 'viewer'), h.tenant.org);
  t.equal((await h.query(p, 'paths/actors', { ...AFTER, step: 0, item: '/home' }, viewer)).status, 200);
});

t.test('paths actors: the checks', async (t) => {
  await grantEntitlements(h.server, ['actor_drilldown']);
  const p = h.project('UTC');
  const cases: Array<[Record<string, unknown>, number, string | undefined]> = [
    [{ step: 3, item: '/home' }, 422, "step 3 is outside the graph's steps 0..2"],
    [{ step: -1, item: '/home' }, 422, "step -1 is outside the graph's steps 0..2"],
    [{ step: 2, item: '/home', next_item: 'x' }, 422, "next_item names a link from step 2, the graph's last step"],
    [{ step: 0, direction: 'before', item: '/home' }, 200, undefined],
    [{ step: 0 }, 422, undefined],
    [{ step: 0, item: '' }, 422, undefined],
    [{ step: 0, item: '/home', limit: 0 }, 422, undefined],
    [{ step: 0, item: '/home', cursor: 'nonsense' }, 422, undefined],
  ];
  for (const [spot, status, message] of cases) {
    const res = await h.query(p, 'paths/actors', { ...AFTER, ...spot });
    t.equal(res.status, status, JSON.stringify(spot));
    if (message) t.equal(res.body.error.message, message);
  }
  const anonymous = await h.server.request('POST', `/api/v1/projects/${p}/queries/paths/actors`, { body: { ...AFTER, step: 0, item: '/home' } });
  t.equal(anonymous.status, 401);
  t.equal((await h.query(2147483000, 'paths/actors', { ...AFTER, step: 0, item: '/home' })).status, 404);
});

// --- random data ---------------------------------------------------------------------------------

interface Graph {
  sankey: { nodes: Array<{ step: number; item: string; count: number }>; links: Array<{ source: number; target: number; value: number }> };
}

/** A node or a link of the graph, picked by `pick`, with the units the graph counts there. */
function spotOf(g: Graph, pick: number): (PathsSpot & { count: number }) | undefined {
  const { nodes, links } = g.sankey;
  const spots = [
    ...nodes.map((n) => ({ step: n.step, item: n.item, count: n.count })),
    ...links.map((l) => ({ step: nodes[l.source]!.step, item: nodes[l.source]!.item, next_item: nodes[l.target]!.item, count: l.value })),
  ];
  return spots.length === 0 ? undefined : spots[pick % spots.length];
}

/** Random scenarios: the people of a node or link paged through, compared with the reference. */
async function agreeWithReference(h: QueryHarness, runs: number): Promise<void> {
  await grantEntitlements(h.server, ['actor_drilldown']);
  await fc.assert(
    fc.asyncProperty(scenarioArb({ maxDays: 6, ties: true }).chain(withPages), fc.subarray(RULES), several(fc.tuple(queryArb, fc.nat())), async (s, rules, qs) => {
      const { projectId, events } = await seedScenario(h, s);
      const set = await h.server.request('PUT', `/api/v1/projects/${projectId}/path-cleaning`, { token: h.token, body: { rules } });
      if (set.status !== 200) throw new Error(`rules: ${set.status} ${set.text}`);
      for (const [q, pick] of qs) {
        const body = { date_from: s.date_from, date_to: s.date_to, ...q };
        const graph = await h.query(projectId, 'paths', { ...body, breakdown: undefined });
        if (graph.status !== 200) throw new Error(`status ${graph.status}: ${graph.text}`);
        const spot = spotOf(graph.body, pick);
        if (!spot) continue;
        const { count, ...asked } = spot;
        const seen: string[] = [];
        let cursor: string | undefined;
        let units = -1;
        do {
          const page = await h.query(projectId, 'paths/actors', { ...body, ...asked, limit: 2, cursor });
          if (page.status !== 200) throw new Error(`status ${page.status}: ${page.text}`);
          seen.push(...actorsOf(page.body));
          units = page.body.units;
          cursor = page.body.next_cursor ?? undefined;
        } while (cursor);
        const expected = pathsActorsOracle(events, s.links, body, s.tz, rules, asked);
        const where = `${JSON.stringify({ ...body, ...asked })} rules ${JSON.stringify(rules)} in ${s.tz}`;
        if (JSON.stringify(seen) !== JSON.stringify(expected.actors)) throw new Error(`${where}: got ${JSON.stringify(seen)}, expected ${JSON.stringify(expected.actors)}`);
        if (units !== count || expected.units !== count) throw new Error(`${where}: units ${units}, reference ${expected.units}, graph ${count}`);
      }
    }),
    { numRuns: runs },
  );
}

t.test('random events: the actors of a node or link agree with the reference', async (t) => {
  await agreeWithReference(h, RUNS);
  t.pass('the actors agree with the reference');
});

t.test('ClickHouse, one node: the actors of a node or link agree with the reference', async (t) => {
  await agreeWithReference(await queryHarness(t, { engine: 'clickhouse' }), 6);
  t.pass('the actors agree with the reference');
});
