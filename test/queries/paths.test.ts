// Paths: a hand-checked New York example across the spring DST change (collapsed repeats, URL
// cleaning, the range's edge, min_count folding, sessions split by inactivity, start and end
// items), the path-cleaning routes and their revision, then random data compared with
// test/oracles/paths.ts.

import t from 'tap';
import fc from 'fast-check';
import { difference, queryHarness, type QueryHarness } from './harness.js';
import { RUNS, scenarioArb, seedScenario, several, type Scenario } from './scenarios.js';
import { queryArb, RULES, USERS_ID, withPages } from './pathsArbs.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { accessTokenFor, addMember } from '../support/factories.js';
import { pathsOracle } from '../oracles/paths.js';
import { RouteTree } from '../../server/queries/paths/routeTree.js';
import { unitOrder } from '../../server/queries/paths/routes.js';
import { compareText } from '../../server/engine/sql.js';

const SITE = 'https://Shop.Example';
const pv = (ts: string, path: string, who: Partial<SeedEvent>): SeedEvent => ({ event: 'pp.page_view', ts, url: `${SITE}${path}`, ...who });

const EVENTS: SeedEvent[] = [
  // alice: anonymous until she signs up; one session a day.
  pv('2026-03-07T15:00:00Z', '/home/', { anonymous_id: 'a1', session_id: 's1' }),
  pv('2026-03-07T15:01:00Z', '/pricing?plan=pro', { anonymous_id: 'a1', session_id: 's1' }),
  pv('2026-03-07T15:01:30Z', '/pricing#faq', { anonymous_id: 'a1', session_id: 's1' }), // a repeat: collapses
  { event: 'signup', ts: '2026-03-07T15:02:00Z', user_id: 'alice', session_id: 's1' },
  pv('2026-03-07T15:03:00Z', '/users/42', { user_id: 'alice', session_id: 's1' }),
  pv('2026-03-08T16:00:00Z', '/home', { user_id: 'alice', session_id: 's2' }),
  { event: 'purchase', ts: '2026-03-08T16:05:00Z', user_id: 'alice', session_id: 's2' },
  // bob: server-side and tracker events without session ids, 01:30 EST just before the change.
  pv('2026-03-08T06:30:00Z', '/home', { user_id: 'bob' }),
  pv('2026-03-08T06:50:00Z', '/pricing', { user_id: 'bob' }),
  { event: 'signup', ts: '2026-03-08T07:30:00Z', user_id: 'bob' }, // 40 minutes later: a new session
  pv('2026-03-08T07:31:00Z', '/users/7', { user_id: 'bob' }),
  // carol: her first page view is 23:00 EST on 03-06, before the range.
  pv('2026-03-07T04:00:00Z', '/home', { user_id: 'carol' }),
  pv('2026-03-07T05:30:00Z', '/pricing', { user_id: 'carol' }),
  { event: 'purchase', ts: '2026-03-07T05:31:00Z', user_id: 'carol' },
];

const RANGE = { date_from: '2026-03-07', date_to: '2026-03-09' };
const AFTER = { ...RANGE, selected_event: 'pp.page_view', direction: 'after', depth: 3, mode: 'actor' };

const h = await queryHarness(t);
const duck = h;
const node = (step: number, item: string, count: number) => ({ step, item, count });
const link = (source: number, target: number, value: number) => ({ source, target, value });

t.test('paths over hand-made events in America/New_York', async (t) => {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, EVENTS);
  await seedIdentity(h.server, p, 'a1', 'alice');

  const raw = await h.query(p, 'paths', AFTER);
  t.equal(raw.status, 200, raw.text);
  // One unit each (alice's and bob's routes differ by their user page): in the order of their items.
  t.strictSame(
    raw.body.routes.map((r: { items: string[] }) => r.items),
    [
      ['/home', '/pricing', 'signup', '/users/42'],
      ['/home', '/pricing', 'signup', '/users/7'],
      ['/pricing', 'purchase'],
    ],
  );

  const set = await h.server.request('PUT', `/api/v1/projects/${p}/path-cleaning`, { token: h.token, body: { rules: [USERS_ID] } });
  t.equal(set.status, 200, set.text);
  t.equal(set.body.revision, 1);
  const res = await h.query(p, 'paths', AFTER);
  t.equal(res.status, 200);
  t.equal(res.headers.get('x-pp-cache'), 'miss', 'the new revision is a new cache key');
  t.strictSame(res.body, {
    ...RANGE,
    direction: 'after',
    counted: 'actors',
    units: 3,
    routes: [
      { items: ['/home', '/pricing', 'signup', '/users/:id'], count: 2, share: 2 / 3 },
      { items: ['/pricing', 'purchase'], count: 1, share: 1 / 3 },
    ],
    sankey: {
      nodes: [node(0, '/home', 2), node(0, '/pricing', 1), node(1, '/pricing', 2), node(1, 'purchase', 1), node(2, 'signup', 2), node(2, '$end', 1), node(3, '/users/:id', 2)],
      links: [link(0, 2, 2), link(1, 3, 1), link(2, 4, 2), link(3, 5, 1), link(4, 6, 2)],
    },
  });

  // A link of one unit below min_count 2 folds into $other; the route is not listed.
  const thin = await h.query(p, 'paths', { ...AFTER, min_count: 2 });
  t.strictSame(thin.body.routes, [{ items: ['/home', '/pricing', 'signup', '/users/:id'], count: 2, share: 2 / 3 }]);
  t.strictSame(thin.body.sankey.nodes, [node(0, '/home', 2), node(0, '/pricing', 1), node(1, '/pricing', 2), node(1, '$other', 1), node(2, 'signup', 2), node(2, '$end', 1), node(3, '/users/:id', 2)]);

  // top_n 1: one named item per step, the rest in $other.
  const narrow = await h.query(p, 'paths', { ...AFTER, top_n: 1 });
  t.strictSame(
    narrow.body.sankey.nodes.filter((n: { step: number }) => n.step <= 1),
    [node(0, '/home', 2), node(0, '$other', 1), node(1, '/pricing', 2), node(1, '$other', 1)],
  );

  // Before signup, from the last /pricing: both routes start there.
  const before = await h.query(p, 'paths', { ...RANGE, selected_event: 'signup', direction: 'before', depth: 2, mode: 'actor', start_event: '/pricing' });
  t.equal(before.status, 200, before.text);
  t.strictSame(before.body.routes, [{ items: ['/pricing', 'signup'], count: 2, share: 1 }]);
  // Routes that begin early (here at their start item) show where they began as $end.
  t.strictSame(before.body.sankey, { nodes: [node(-2, '$end', 2), node(-1, '/pricing', 2), node(0, 'signup', 2)], links: [link(0, 1, 2), link(1, 2, 2)] });

  // After a page path, cut at the first end item; excluded items are not there at all.
  const cut = await h.query(p, 'paths', { ...AFTER, selected_event: '/home', end_event: 'signup', exclude_events: ['/pricing'] });
  t.strictSame(
    cut.body.routes.map((r: { items: string[] }) => r.items),
    [['/home', 'signup']],
  );

  // Sessions need actor_drilldown; bob's signup 40 minutes after his last page view starts a new one.
  const session = { ...RANGE, selected_event: 'signup', direction: 'after', depth: 2, mode: 'session' };
  t.equal((await h.query(p, 'paths', session)).status, 403);
  await grantEntitlements(h.server, ['actor_drilldown']);
  const sessions = await h.query(p, 'paths', session);
  t.equal(sessions.status, 200);
  t.equal(sessions.body.counted, 'sessions');
  t.strictSame(sessions.body.routes, [{ items: ['signup', '/users/:id'], count: 2, share: 1 }]);
  t.strictSame(sessions.body.sankey.nodes, [node(0, 'signup', 2), node(1, '/users/:id', 2), node(2, '$end', 2)]);
  const asActors = await h.query(p, 'paths', { ...session, mode: 'actor' });
  t.strictSame(
    asActors.body.routes.map((r: { items: string[] }) => r.items),
    [
      ['signup', '/users/:id'],
      ['signup', '/users/:id', '/home'],
    ],
    'alice goes on the next day',
  );
});

t.test('excluded events still keep a session alive, and can take the anchor away', async (t) => {
  await grantEntitlements(h.server, ['actor_drilldown']);
  const p = h.project('UTC');
  await seedEvents(h.server, p, [
    pv('2026-05-04T10:00:00Z', '/a', { user_id: 'dave' }),
    { event: 'ping', ts: '2026-05-04T10:25:00Z', user_id: 'dave' },
    { event: 'signup', ts: '2026-05-04T10:50:00Z', user_id: 'dave' },
  ]);
  const body = { date_from: '2026-05-04', date_to: '2026-05-04', selected_event: 'signup', direction: 'before', depth: 3, mode: 'session', exclude_events: ['ping'] };
  const res = await h.query(p, 'paths', body);
  t.strictSame(res.body.routes, [{ items: ['/a', 'signup'], count: 1, share: 1 }], 'the ping bridges 50 minutes');
  const gone = await h.query(p, 'paths', { ...body, selected_event: '/a', direction: 'after', exclude_events: ['pp.page_view'] });
  t.strictSame({ units: gone.body.units, routes: gone.body.routes, sankey: gone.body.sankey }, { units: 0, routes: [], sankey: { nodes: [], links: [] } });
});

t.test('a page view of a URL without a path has none: its item is pp.page_view', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, [
    { event: 'pp.page_view', ts: '2026-05-04T10:00:00Z', url: 'app:start', user_id: 'erin' },
    { event: 'signup', ts: '2026-05-04T10:01:00Z', user_id: 'erin' },
    pv('2026-05-04T10:02:00Z', '/start', { user_id: 'erin' }),
  ]);
  const body = { date_from: '2026-05-04', date_to: '2026-05-04', selected_event: 'pp.page_view', direction: 'after', depth: 2, mode: 'actor' };
  t.strictSame((await h.query(p, 'paths', body)).body.routes, [{ items: ['pp.page_view', 'signup', '/start'], count: 1, share: 1 }]);
  t.equal((await h.query(p, 'paths', { ...body, selected_event: 'start' })).body.units, 0, 'no item is named start');
});

t.test('path-cleaning rules: roles, checks, the test call and the revision', async (t) => {
  const p = h.project('UTC');
  const base = `/api/v1/projects/${p}/path-cleaning`;
  t.strictSame((await h.server.request('GET', base, { token: h.token })).body, { rules: [], revision: 0, updated_at: null });

  const viewer = await accessTokenFor(h.server, await addMember(h.server, h.tenant.org, 'viewer'), h.tenant.org);
  const analyst = await accessTokenFor(h.server, await addMember(h.server, h.tenant.org, 'analyst'), h.tenant.org);
  for (const token of [viewer, analyst]) {
    const res = await h.server.request('PUT', base, { token, body: { rules: [USERS_ID] } });
    t.equal(res.status, 403);
  }
  const badJs = await h.server.request('PUT', base, { token: h.token, body: { rules: [USERS_ID, { pattern: '/a(', alias: 'x' }] } });
  t.equal(badJs.status, 422);
  t.equal(badJs.body.error.details.field, 'rules[1].pattern');
  const badRe2 = await h.server.request('PUT', base, { token: h.token, body: { rules: [{ pattern: '/a(?=b)', alias: 'x' }] } });
  t.equal(badRe2.status, 422, 'lookahead is not RE2');
  t.match(badRe2.body.error.message, /^rules\[0\] is not accepted by the query engine/);
  t.equal((await h.server.request('PUT', base, { token: h.token, body: { rules: Array(51).fill(USERS_ID) } })).status, 422);

  const saved = await h.server.request('PUT', base, { token: h.token, body: { rules: [USERS_ID, { pattern: '^/docs/(\\w+)/.*$', alias: '/docs/\\1' }] } });
  t.equal(saved.status, 200);
  t.equal(saved.body.revision, 1);
  const again = await h.server.request('PUT', base, { token: h.token, body: { rules: saved.body.rules } });
  t.equal(again.body.revision, 2, 'every change moves the revision');
  t.strictSame((await h.server.request('GET', base, { token: viewer })).body, again.body);

  const trace = await h.server.request('POST', `${base}/test`, { token: viewer, body: { url: 'https://Docs.Example.com/docs/api/v2/keys/?tab=1#top' } });
  t.equal(trace.status, 200, trace.text);
  t.strictSame(trace.body, {
    url: 'https://Docs.Example.com/docs/api/v2/keys/?tab=1#top',
    path: '/docs/api/v2/keys/',
    cleaned: '/docs/api',
    steps: [
      { ...USERS_ID, matched: false, result: '/docs/api/v2/keys' },
      { pattern: '^/docs/(\\w+)/.*$', alias: '/docs/\\1', matched: true, result: '/docs/api' },
    ],
  });
  const proposed = await h.server.request('POST', `${base}/test`, { token: viewer, body: { url: '/users/12/', rules: [USERS_ID] } });
  t.equal(proposed.body.cleaned, '/users/:id');
  const noPath = await h.server.request('POST', `${base}/test`, { token: viewer, body: { url: 'pricing page' } });
  t.strictSame(noPath.body, { url: 'pricing page', path: null, cleaned: null, steps: [] });
  const other = await h.server.request('GET', '/api/v1/projects/2147483000/path-cleaning', { token: h.token });
  t.equal(other.status, 404);
});

t.test('routes and items order as UTF-8 bytes, as the database orders text', async (t) => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', '/', 'é', '\uffef', '😀', '𝄞'), maxLength: 6 });
  fc.assert(
    fc.property(text, text, (a, b) => Math.sign(compareText(a, b)) === Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))),
    { numRuns: 2000 },
  );
  t.pass('the same order as the bytes');
});

// --- random data ---------------------------------------------------------------------------------

/** Random scenarios, answered by the server and by the reference. */
const agreeWithReference = (scenarios: fc.Arbitrary<Scenario>, runs: number, h: QueryHarness = duck) =>
  fc.assert(
    fc.asyncProperty(scenarios.chain(withPages), fc.subarray(RULES), several(queryArb), async (s, rules, qs) => {
      const { projectId, events } = await seedScenario(h, s);
      const set = await h.server.request('PUT', `/api/v1/projects/${projectId}/path-cleaning`, { token: h.token, body: { rules } });
      if (set.status !== 200) throw new Error(`rules: ${set.status} ${set.text}`);
      for (const q of qs) {
        const body = { date_from: s.date_from, date_to: s.date_to, ...q };
        const res = await h.query(projectId, 'paths', body);
        if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
        const diff = difference(res.body, pathsOracle(events, s.links, body, s.tz, rules));
        if (diff) throw new Error(`${JSON.stringify(body)} rules ${JSON.stringify(rules)} in ${s.tz}: ${diff}`);
      }
    }),
    { numRuns: runs },
  );

t.test('random events agree with the reference paths', async (t) => {
  await grantEntitlements(h.server, ['actor_drilldown']);
  await agreeWithReference(scenarioArb({ maxDays: 6, ties: true }), RUNS);
  t.pass('paths agree with the reference');
});

t.test('actors with many events agree with the reference paths', async (t) => {
  await grantEntitlements(h.server, ['actor_drilldown']);
  await agreeWithReference(scenarioArb({ minEvents: 250, maxEvents: 400, maxDays: 2, ties: true }), 8);
  t.pass('paths agree with the reference');
});

t.test("a unit's rows are put in order however many and however mixed they come", async (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ t: fc.integer({ min: 0, max: 40 }), code: fc.integer({ min: 1, max: 6 }) }), { maxLength: 300, size: 'max' }),
      fc.uint8Array({ minLength: 7, maxLength: 7, max: 3 }),
      fc.boolean(),
      (rows, role, presorted) => {
        if (presorted) rows.sort((a, b) => a.t - b.t);
        const order = unitOrder(
          Float64Array.from(rows, (r) => r.t),
          Int32Array.from(rows, (r) => r.code),
          role,
        );
        const key = (i: number) => `${String(rows[i]!.t).padStart(3)} ${role[rows[i]!.code]} ${rows[i]!.code}`;
        const got = [...order].map(key);
        return got.every((k, i) => i === 0 || got[i - 1]! <= k) && new Set(order).size === rows.length;
      },
    ),
    { numRuns: 300 },
  );
  t.pass('in order, each row once');
});

t.test('routes counted in the tree keep one node each, through every time it grows', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), { minLength: 1, maxLength: 600 }), (routes) => {
      const tree = new RouteTree();
      const nodeOf = (r: number[]) => tree.nodeOf(Int32Array.from([0, ...r, 0]), 1, r.length + 1);
      const nodes = routes.map(nodeOf);
      const byRoute = new Map<string, number>();
      for (const [i, r] of routes.entries()) {
        const known = byRoute.get(r.join(','));
        if (known !== undefined && known !== nodes[i]) return false;
        byRoute.set(r.join(','), nodes[i]!);
      }
      // Distinct routes, distinct nodes; each node names its route; asked again, the same node.
      return new Set(byRoute.values()).size === byRoute.size && routes.every((r, i) => tree.codesOf(nodes[i]!).join(',') === r.join(',') && nodeOf(r) === nodes[i]);
    }),
    { numRuns: 200 },
  );
  t.pass('one node per route');
});

// --- ClickHouse ----------------------------------------------------------------------------------

t.test('ClickHouse, one node: random events agree with the reference paths', async (t) => {
  const ch = await queryHarness(t, { engine: 'clickhouse' });
  await grantEntitlements(ch.server, ['actor_drilldown']);
  await agreeWithReference(scenarioArb({ maxDays: 6, ties: true }), 6, ch);
  await agreeWithReference(scenarioArb({ minEvents: 250, maxEvents: 400, maxDays: 2, ties: true }), 2, ch);
  t.pass('paths agree with the reference');
});
