// Every insight on ClickHouse with 2 shards × 2 replicas answers as on DuckDB for actors whose
// distinct ids sit on different shards (events are sharded by distinct id, so an actor's days, steps
// and sums meet only after the shards' rows do). One DuckDB server and one cluster for the file:
// starting a cluster and migrating its database costs more than most of the cases, so the insights'
// own files compare their engines on one node and leave the 2 × 2 comparison here. Each case seeds
// a project of its own on both servers and compares every answer whole.
//
// Other features' 2 × 2 cases run here too, on the same cluster, each self-contained: the behavior
// and forms reports with a purge and a capture (test/behavior/clusterCases.ts); a backup restored
// on every shard, in a database and server of its own (test/engine/clickhouse/backupKit.ts); a
// DuckDB store moved by `ppctl events migrate`, in a database of its own
// (test/engine/clickhouse/eventsMigrationKit.ts); the migrations applied twice and a second
// installation beside the first, in databases of their own (test/engine/clickhouse/migrationsKit.ts);
// retention and its actors with servers and a database of their own
// (test/engine/clickhouse/retentionCluster.ts); and a person's labeled events and deletion, with servers and a database of its own
// (test/persons/clickhouseScenario.ts).

import t, { type Test } from 'tap';
import { queryHarness, type QueryHarness } from './harness.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { queryText } from '../support/clickhouseCluster.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { behaviorOnCluster } from '../behavior/clusterCases.js';
import { backupOnCluster } from '../engine/clickhouse/backupKit.js';
import { eventsMigrationOnCluster } from '../engine/clickhouse/eventsMigrationKit.js';
import { migrationsCase } from '../engine/clickhouse/migrationsKit.js';
import { retentionOnCluster } from '../engine/clickhouse/retentionCluster.js';
import { personOnCluster } from '../persons/clickhouseScenario.js';

t.setTimeout(480_000);

const shardOf = (id: string) => Number(distinctKey(id) % 2n);

// Both servers sign cursors (the funnel's dropped actors) with the same secret, so equal positions
// give equal cursors.
const SECRET = 'the same secret on both servers';

let servers: Promise<{ duckdb: QueryHarness; clickhouse: QueryHarness }> | undefined;
/** The two servers, started by the first case that asks (and stopped when the file ends). */
function both(): Promise<{ duckdb: QueryHarness; clickhouse: QueryHarness }> {
  servers ??= (async () => {
    const settings = { secret: SECRET };
    const duckdb = await queryHarness(t, { settings });
    const clickhouse = await queryHarness(t, { engine: 'clickhouse', topology: 'replicated', settings });
    for (const h of [duckdb, clickhouse]) await grantEntitlements(h.server, ['actor_drilldown']);
    return { duckdb, clickhouse };
  })();
  return servers;
}

interface Case {
  timezone: string;
  ids: string[];
  events: SeedEvent[];
  links: Array<[string, string]>;
  /** Each request's answer, every page of it where it has more. */
  ask(h: QueryHarness, projectId: number): Promise<Answer[]>;
}

interface Answer {
  status: number;
  body: any;
  [more: string]: unknown;
}

/** Seeds the case into a new project on each server, asks the same of both, and compares; DuckDB's answers. */
async function sameOnCluster(t: Test, c: Case): Promise<Answer[]> {
  t.equal(new Set(c.ids.map(shardOf)).size, 2, 'the ids sit on both shards');
  const { duckdb, clickhouse } = await both();
  const seeded = async (h: QueryHarness) => {
    const p = h.project(c.timezone);
    await seedEvents(h.server, p, c.events);
    for (const [from, to] of c.links) await seedIdentity(h.server, p, from, to);
    return p;
  };
  const reference = await c.ask(duckdb, await seeded(duckdb));
  t.ok(
    reference.every((a) => a.status === 200),
    'DuckDB answers every request',
  );
  t.same(await c.ask(clickhouse, await seeded(clickhouse)), reference, 'every answer as on DuckDB');
  return reference;
}

/** The answers to `requests` (path and body), one each. */
const requests =
  (list: Array<[string, unknown]>) =>
  async (h: QueryHarness, p: number): Promise<Answer[]> => {
    const out: Answer[] = [];
    for (const [path, body] of list) {
      const res = await h.query(p, path, body);
      out.push({ path, status: res.status, body: res.body });
    }
    return out;
  };

// --- a spread of ids over both shards, used by most insights ------------------------------------

const IDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'u1', 'u2', 'u3'];

/** Links made in this order: a chain (u3 → u1) included. */
const LINKS: Array<[string, string]> = [
  ['a0', 'u1'],
  ['a1', 'u1'],
  ['a2', 'u2'],
  ['a3', 'u2'],
  ['a4', 'u3'],
  ['u3', 'u1'],
];

/** Every id active on some of `days` (or on all of them), at hours spread over the day. */
function spreadEvents(days: string[], { everyDay = false } = {}): SeedEvent[] {
  return IDS.flatMap((id, i) =>
    days
      .filter((_, d) => everyDay || (i + d) % 4 !== 3)
      .map((day, d) => ({
        event: (i + d) % 3 === 0 ? 'purchase' : 'view',
        ts: `${day}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00Z`,
        ...(id.startsWith('u') ? { user_id: id } : { anonymous_id: id }),
        props: { plan: ['free', 'pro', 'team'][(i + d) % 3], n: i % 4, ...((i + d) % 3 === 0 ? { revenue: i + d * 0.5 } : {}) },
        url: `https://shop.example/p/${i % 3}`,
      })),
  );
}

const spread = (timezone: string, days: string[], list: Array<[string, unknown]>): Case => ({ timezone, ids: IDS, events: spreadEvents(days), links: LINKS, ask: requests(list) });

t.test('lifecycle', (t) =>
  sameOnCluster(
    t,
    spread(
      'America/New_York',
      ['2026-02-23', '2026-03-01', '2026-03-02', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-15', '2026-03-16'],
      [
        ['lifecycle', { date_from: '2026-03-01', date_to: '2026-03-16' }],
        ['lifecycle', { date_from: '2026-03-04', date_to: '2026-03-16', interval: 'week' }],
        ['lifecycle', { date_from: '2026-03-02', date_to: '2026-03-09', filters: [{ field: 'props.plan', op: 'neq', value: 'pro' }] }],
      ],
    ),
  ),
);

t.test('stickiness', (t) =>
  sameOnCluster(
    t,
    spread(
      'Europe/London',
      ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31'],
      [
        ['stickiness', { date_from: '2026-03-27', date_to: '2026-03-31' }],
        ['stickiness', { date_from: '2026-03-28', date_to: '2026-03-30', event: 'view' }],
        ['stickiness', { date_from: '2026-03-27', date_to: '2026-03-31', filters: [{ field: 'props.n', op: 'lt', value: 2 }] }],
      ],
    ),
  ),
);

t.test('activation drivers', (t) =>
  sameOnCluster(
    t,
    spread(
      'America/New_York',
      ['2025-12-01', '2025-12-02', '2025-12-03', '2025-12-04', '2025-12-05', '2025-12-06'],
      [
        ['activation-drivers', { date_from: '2025-12-01', date_to: '2025-12-03', anchor_event: 'view', outcome: { event: 'purchase', from_day: 2, to_day: 4 } }],
        ['activation-drivers', { date_from: '2025-12-01', date_to: '2025-12-02', anchor_event: 'purchase', outcome: { event: 'view', from_day: 3, to_day: 4 }, behavior_windows_days: [1, 3] }],
        [
          'activation-drivers',
          { date_from: '2025-12-01', date_to: '2025-12-04', anchor_event: 'view', outcome: { event: 'view', from_day: 1, to_day: 3 }, filters: [{ field: 'props.plan', op: 'neq', value: 'pro' }] },
        ],
      ],
    ),
  ),
);

t.test('correlations', (t) =>
  sameOnCluster(
    t,
    spread(
      'America/New_York',
      ['2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'],
      [
        ['correlations', { date_from: '2026-03-06', date_to: '2026-03-09', target_event: 'purchase', min_n: 1 }],
        ['correlations', { date_from: '2026-03-07', date_to: '2026-03-09', target_event: 'view', min_n: 1, filters: [{ field: 'props.plan', op: 'neq', value: 'pro' }] }],
        ['correlations', { date_from: '2026-03-06', date_to: '2026-03-08', target_event: 'never', min_n: 1 }],
      ],
    ),
  ),
);

t.test('paths and their people', (t) => {
  const q = { date_from: '2026-03-07', date_to: '2026-03-09', depth: 3, min_count: 1, top_n: 10 };
  return sameOnCluster(
    t,
    spread(
      'America/New_York',
      ['2026-03-07', '2026-03-08', '2026-03-09'],
      [
        ['paths', { ...q, selected_event: 'view', direction: 'after', mode: 'actor' }],
        ['paths', { ...q, selected_event: 'view', direction: 'before', mode: 'session', breakdown: { property: 'props.plan', limit: 2 } }],
        ['paths', { ...q, selected_event: 'purchase', direction: 'before', mode: 'actor', exclude_events: ['view'] }],
        ['paths/actors', { ...q, selected_event: 'view', direction: 'after', mode: 'session', step: 0, item: 'view', limit: 5 }],
      ],
    ),
  );
});

t.test('segmentation, compared with the previous period', (t) => {
  const queries = [
    { metric: 'uniques', event: 'any', interval: 'day', date_from: '2026-03-07', date_to: '2026-03-09' },
    { metric: 'uniques', event: 'any', interval: 'hour', date_from: '2026-03-08', date_to: '2026-03-08', group_by: { property: 'props.plan', limit: 2 } },
    { metric: 'events', event: 'view', interval: 'week', date_from: '2026-03-01', date_to: '2026-03-15', group_by: { property: 'path', limit: 1 } },
    { metric: 'revenue_avg', event: 'purchase', interval: 'day', date_from: '2026-03-07', date_to: '2026-03-09', filters: [{ field: 'props.n', op: 'gte', value: 1 }] },
    { metric: 'revenue', event: 'any', interval: 'month', date_from: '2026-03-01', date_to: '2026-03-31', group_by: { property: 'props.n', limit: 2 } },
  ];
  return sameOnCluster(t, {
    timezone: 'America/New_York',
    ids: IDS,
    events: spreadEvents(['2026-03-07', '2026-03-08', '2026-03-09'], { everyDay: true }),
    links: LINKS,
    ask: requests(queries.map((q) => ['segmentation', { ...q, compare: { period: 'previous' } }])),
  });
});

// --- the summaries: revenue with refunds, some events the evening before in New York -------------

t.test('the activity and revenue summaries', async (t) => {
  const ids = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'u1', 'u2', 'u3'];
  const days = ['2026-03-05', '2026-03-07', '2026-03-08', '2026-03-09'];
  const events = ids.flatMap((id, i) =>
    days
      .filter((_, d) => (i + d) % 4 !== 3)
      .map((day, d) => ({
        event: (i + d) % 3 === 0 ? 'purchase' : 'view',
        // Some events at 01:00-04:59 UTC: the evening before in New York.
        ts: `${day}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00Z`,
        ...(id.startsWith('u') ? { user_id: id } : { anonymous_id: id }),
        props: { plan: ['free', 'pro'][i % 2], ...((i + d) % 3 === 0 ? { revenue: (i % 2 === 0 ? 1 : -1) * (i + d * 0.25) } : {}) },
      })),
  );
  const queries: Array<[string, unknown]> = [
    ['activity-summary', { date_to: '2026-03-09', event: 'any' }],
    ['activity-summary', { date_to: '2026-03-08', event: 'view' }],
    ['revenue-summary', { date_from: '2026-03-05', date_to: '2026-03-09' }],
    ['revenue-summary', { date_from: '2026-03-07', date_to: '2026-03-08', filters: [{ field: 'props.plan', op: 'eq', value: 'free' }] }],
  ];
  const links: Array<[string, string]> = [
    ['a0', 'u1'],
    ['a1', 'u1'],
    ['a2', 'u2'],
    ['a3', 'u3'],
    ['u3', 'u1'],
  ];
  const reference = await sameOnCluster(t, { timezone: 'America/New_York', ids, events, links, ask: requests(queries) });
  t.ok((reference[0]!.body.mau ?? 0) >= 3, 'actors are counted');
});

// --- funnel: an actor's steps on both shards, some of them simultaneous ---------------------------

// Here alice's anonymous id (anon-1) and carol's user id on one shard, their other ids on the other
// (checked below). carol's two steps are simultaneous across the shards, and so are erin's two signups.
const FUNNEL_EVENTS = [
  { event: 'signup', ts: '2026-03-02T15:00:00Z', anonymous_id: 'anon-1', props: { plan: 'pro' } },
  { event: 'activate', ts: '2026-03-02T16:00:00Z', user_id: 'alice' },
  { event: 'purchase', ts: '2026-03-03T15:00:00Z', user_id: 'alice', props: { revenue: 100 } },
  { event: 'refund', ts: '2026-03-05T15:00:00Z', user_id: 'alice', props: { revenue: -20 } },
  { event: 'signup', ts: '2026-03-04T12:00:00Z', user_id: 'carol', props: { plan: 'free' } },
  { event: 'activate', ts: '2026-03-04T12:00:00Z', anonymous_id: 'c-anon' },
  { event: 'purchase', ts: '2026-03-07T12:00:00Z', anonymous_id: 'c-anon', props: { revenue: 30 } },
  { event: 'signup', ts: '2026-03-06T12:00:00Z', user_id: 'bob', props: { plan: 'free' } },
  { event: 'activate', ts: '2026-03-09T12:00:00Z', user_id: 'bob' },
  { event: 'signup', ts: '2026-03-07T09:00:00Z', user_id: 'erin' },
  { event: 'signup', ts: '2026-03-07T09:00:00Z', anonymous_id: 'anon-3', props: { plan: 'pro' } },
  { event: 'activate', ts: '2026-03-08T09:00:00Z', anonymous_id: 'anon-3' },
];
const FUNNEL_LINKS: Array<[string, string]> = [
  ['anon-1', 'alice'],
  ['c-anon', 'carol'],
  ['anon-3', 'erin'],
];
const BODY = {
  date_from: '2026-03-01',
  date_to: '2026-03-10',
  window_hours: 48,
  steps: [{ event: 'signup' }, { event: 'activate', label: 'Activated' }, { event: 'purchase' }],
};
const FUNNEL_QUERIES = [
  { ...BODY, breakdown: { property: 'props.plan', limit: 1 }, value: 'revenue' },
  { ...BODY, count_by: 'totals', breakdown: { property: 'props.plan', limit: 2 } },
  { ...BODY, window_hours: 1, steps: [{ event: 'any' }, { event: 'activate' }], compare: { period: 'previous' } },
  { ...BODY, dropped_at_step: 2, dropped_limit: 1 },
  { ...BODY, dropped_at_step: 1, dropped_limit: 2 },
];

t.test('funnel, the dropped actors page by page', async (t) => {
  for (const [from, to] of FUNNEL_LINKS.slice(0, 2)) t.not(shardOf(from), shardOf(to), `${from} and ${to} on different shards`);
  await sameOnCluster(t, {
    timezone: 'America/New_York',
    ids: FUNNEL_LINKS.flat(),
    events: FUNNEL_EVENTS,
    links: FUNNEL_LINKS,
    ask: async (h, p) => {
      const answers: Answer[] = [];
      for (const body of FUNNEL_QUERIES) {
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const res = await h.query(p, 'funnel', { ...body, dropped_cursor: cursor });
          answers.push({ query: body, page, status: res.status, body: res.body });
          cursor = res.body.dropped?.next_cursor ?? undefined;
          if (!cursor) break;
        }
      }
      return answers;
    },
  });
  // Each shard's first replica holds its own distinct ids: alice's and carol's are split.
  const ch = (await both()).clickhouse.clickhouse!;
  const idsOn = async (node: number) => (await queryText(ch.nodes[node]!.httpPort, 'SELECT DISTINCT distinct_id FROM pp_queries.events_local ORDER BY distinct_id')).trim().split('\n');
  const [first, second] = [await idsOn(0), await idsOn(2)];
  for (const ids of FUNNEL_LINKS.slice(0, 2)) t.same(ids.map((id) => (first.includes(id) ? 1 : 0) + (second.includes(id) ? 2 : 0)).sort(), [1, 2], `${ids.join(' and ')} on one shard each`);
});

// --- other features on the same cluster -----------------------------------------------------------

behaviorOnCluster(t, both);
const cluster = async () => (await both()).clickhouse.clickhouse!;
personOnCluster(t, cluster);
backupOnCluster(t, cluster);
eventsMigrationOnCluster(t, cluster);
migrationsCase(t, 'replicated', cluster);
retentionOnCluster(t, cluster);
