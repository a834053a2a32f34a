// ClickHouse's statement building blocks (server/engine/clickhouse/{conditions,scan,identity}.ts)
// against DuckDB's (server/engine/{conditions,eventScan,identity}.ts): the same events appended to a
// DuckDB store and to a ClickHouse node through each engine's appender, then every filter operator
// on every kind of field must match the same events on both, and the scans must give every event
// the same local day, hour, buckets and actor, across DST changes.

import t from 'tap';
import fc from 'fast-check';
import path from 'node:path';
import { tempDir } from '../../support/tempDir.js';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { DuckDbEngine } from '../../../server/engine/duckdb/duckDbEngine.js';
import { duckDb } from '../../../server/engine/duckdb/connection.js';
import { migrateEvents } from '../../../server/engine/duckdb/migrations.js';
import { ClickHouseAppender } from '../../../server/engine/clickhouse/clickHouseAppender.js';
import { ClickHouseConnection } from '../../../server/engine/clickhouse/connection.js';
import { engineConnection } from '../../../server/engine/clickhouse/engineConnection.js';
import { migrateClickHouse } from '../../../server/engine/clickhouse/migrations.js';
import * as duck from '../../../server/engine/conditions.js';
import * as ch from '../../../server/engine/clickhouse/conditions.js';
import { scanEvents as duckScan, bucketKey as duckBucketKey } from '../../../server/engine/eventScan.js';
import { scanEvents as chScan, bucketKey as chBucketKey } from '../../../server/engine/clickhouse/scan.js';
import { actorOf as duckActorOf } from '../../../server/engine/identity.js';
import { actorOf as chActorOf } from '../../../server/engine/clickhouse/identity.js';
import { propertyColumns } from '../../../server/engine/clickhouse/properties.js';
import { FILTER_COLUMNS, type Filter, type FilterItem, type Scalar } from '../../../server/engine/filters.js';
import { Binder } from '../../../server/engine/sql.js';
import { literal } from '../../../server/engine/clickhouse/literal.js';
import { distinctKey } from '../../../server/ingest/distinctKey.js';
import { localDate } from '../../../server/engine/localTime.js';
import type { StoredEvent } from '../../../server/engine/rows.js';

let duckdb: DuckDbEngine;
let clickhouse: ClickHouseConnection;
const chAppender = new ClickHouseAppender({ replicas: 1 });

t.before(async () => {
  const [node, dir] = await Promise.all([startClickHouse(t, 'single'), tempDir(t)]);
  duckdb = await DuckDbEngine.open(path.join(dir, 'events.duckdb'));
  await migrateEvents(duckdb);
  clickhouse = new ClickHouseConnection({ urls: node.urls, cluster: undefined, database: 'pp_blocks', user: 'default' });
  await migrateClickHouse(clickhouse);
});

t.teardown(async () => {
  await clickhouse?.close();
  await duckdb?.close();
});

/** Each run writes a project of its own. */
let projects = 0;
let uuids = 0;
const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

interface EventSpec {
  ts: number;
  event: string;
  distinct: string;
  props: Record<string, unknown> | null;
  columns: Partial<Record<(typeof FILTER_COLUMNS)[number], string | null>>;
  ruleId: number | null;
}

function storedEvent(project: number, e: EventSpec): StoredEvent {
  return {
    project_id: project,
    uuid: uuidOf(++uuids),
    ts: new Date(e.ts),
    received_at: new Date(e.ts + 1000),
    event: e.event,
    distinct_id: e.distinct,
    distinct_key: distinctKey(e.distinct),
    anonymous_id: e.distinct,
    user_id: null,
    session_id: null,
    source: e.columns.source ?? 'web',
    sdk_name: e.columns.sdk_name ?? null,
    sdk_version: null,
    key_id: 'key',
    release: e.columns.release ?? null,
    url: e.columns.url ?? null,
    path: e.columns.path ?? null,
    referrer: e.columns.referrer ?? null,
    props: e.props === null ? null : JSON.stringify(e.props),
    revenue: null,
    elements: null,
    invalid: false,
    invalid_reasons: null,
    ...(e.ruleId === null ? {} : { rule_id: e.ruleId }),
  };
}

async function append(events: StoredEvent[]): Promise<void> {
  await duckdb.useWriter((conn) => duckdb.appender.append(conn, { events, rejections: [] }));
  await chAppender.append(engineConnection(clickhouse), { events, rejections: [] });
}

/** Per event uuid, one character per condition: 1 where it holds. */
async function matches(project: number, duckConds: string[], b: Binder, chConds: string[]): Promise<{ duckdb: Record<string, string>; clickhouse: Record<string, string> }> {
  const duckRows = await duckdb.read(
    `SELECT CAST(e.uuid AS VARCHAR) AS u, concat('', ${duckConds.map((c) => `CASE WHEN ${c} THEN '1' ELSE '0' END`).join(', ')}) AS m FROM events e WHERE e.project_id = ${b.bind(project)}`,
    b.values,
  );
  const chRows = await clickhouse.query<{ u: string; m: string }>(
    `SELECT toString(e.uuid) AS u, concat('', ${chConds.map((c) => `if(${c}, '1', '0')`).join(', ')}) AS m FROM events AS e FINAL WHERE e.project_id = ${literal(project)}`,
  );
  return {
    duckdb: Object.fromEntries(duckRows.map((r) => [String(r.u), String(r.m)])),
    clickhouse: Object.fromEntries(chRows.map((r) => [r.u, r.m])),
  };
}

const KEYS = ['plain', 'a"b', "it's", 'c.d', 'ü€', 'back\\slash', '$current_url', 'x y', 'n', '😀', 'deep', '[0]'];
const STRINGS = ['', 'x', 'pro', 'Pro', 'a"b', 'back\\slash', 'ü€😀', '5', '1.5', '-2', 'true', 'null', '\u0001\n\t\b\f\r', "it's", 'https://shop.example/p/1', '\u2028\u007f', '{"n":1}'];
const NUMBERS = [
  0,
  1,
  -1,
  5,
  1.5,
  0.1,
  -2.5,
  1e-7,
  0.0000123,
  123456789012,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  2 ** 64,
  1e20,
  1e21,
  -1e19,
  -(2 ** 63),
  1.7976931348623157e308,
  5e-324,
  2.5e-308,
  1000000000000000.5,
  100,
  0.30000000000000004,
];
const COLUMN_TEXTS = ['https://shop.example/p/1', '/p/1', '', 'x', 'ü€', 'web', 'server', "it's", 'a"b'];

const number = fc.oneof(fc.constantFrom(...NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
const text = fc.oneof(fc.constantFrom(...STRINGS), fc.string({ unit: 'binary', maxLength: 6 }));
const scalar: fc.Arbitrary<Scalar> = fc.oneof(text, number, fc.boolean());
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const props = fc.option(fc.dictionary(fc.constantFrom(...KEYS), json, { maxKeys: 7 }), { nil: null });
const columnText = fc.option(fc.constantFrom(...COLUMN_TEXTS), { nil: null });
const eventSpec = (ts: fc.Arbitrary<number>): fc.Arbitrary<EventSpec> =>
  fc.record({
    ts,
    event: fc.constantFrom('view', 'signup', 'pp.click', 'pp.form_submit'),
    distinct: fc.constantFrom('d1', 'd2', 'd3', 'd4'),
    props,
    columns: fc.record({ url: columnText, path: columnText, referrer: columnText, sdk_name: columnText, release: columnText, source: fc.constantFrom('web', 'server', 'import') }),
    ruleId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  });

const field = fc.oneof(
  fc.constantFrom(...FILTER_COLUMNS),
  fc.constantFrom(...KEYS).map((k) => `props.${k}`),
);
const propField = fc.constantFrom(...KEYS).map((k) => `props.${k}`);
const valueScalar: fc.Arbitrary<Scalar> = fc.oneof(fc.constantFrom(...STRINGS, ...COLUMN_TEXTS), fc.constantFrom(...NUMBERS), fc.boolean());
const needle = fc.oneof(fc.constantFrom(...[...STRINGS, ...COLUMN_TEXTS].filter((s) => s !== '')), fc.constantFrom('p', '/', 'ü', '"', '\\', "'", '.', '1', 'e'));
const filter: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ field, op: fc.constantFrom('eq' as const, 'neq' as const), value: valueScalar }),
  fc.record({ field, op: fc.constantFrom('in' as const, 'not_in' as const), value: fc.array(valueScalar, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field, op: fc.constantFrom('contains' as const, 'not_contains' as const, 'starts_with' as const), value: needle }),
  fc.record({ field: propField, op: fc.constantFrom('gt' as const, 'gte' as const, 'lt' as const, 'lte' as const), value: number }),
  fc.record({ field, op: fc.constantFrom('exists' as const, 'not_exists' as const) }),
);

const T0 = Date.UTC(2026, 2, 1);

t.test('every filter operator on every field kind matches the same events as on DuckDB', async (t) => {
  let compared = 0;
  let matched = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventSpec(fc.integer({ min: T0, max: T0 + 86_400_000 })), { minLength: 1, maxLength: 25 }),
      fc.array(filter, { minLength: 1, maxLength: 16 }),
      fc.array(filter, { maxLength: 3 }),
      async (specs, filters, segment) => {
        const project = ++projects;
        await append(specs.map((s) => storedEvent(project, s)));
        // Each filter alone, the segment expanded among other items, and the event conditions.
        const items: FilterItem[] = [...filters.slice(0, 2), 'segment:7'];
        const segments = new Map([[7, segment]]);
        const b = new Binder();
        const duckConds = [
          ...filters.map((f) => duck.filterCondition(b, f)),
          duck.filtersCondition(b, items, segments),
          duck.filtersCondition(b, [], segments),
          duck.eventCondition(b, 'signup'),
          duck.eventCondition(b, 'any'),
          duck.managedEvent(),
          `NOT ${duck.managedEvent()}`,
        ];
        const chConds = [
          ...filters.map((f) => ch.filterCondition(f)),
          ch.filtersCondition(items, segments),
          ch.filtersCondition([], segments),
          ch.eventCondition('signup'),
          ch.eventCondition('any'),
          ch.managedEvent(),
          `NOT ${ch.managedEvent()}`,
        ];
        const got = await matches(project, duckConds, b, chConds);
        compared += Object.keys(got.duckdb).length * chConds.length;
        for (const m of Object.values(got.duckdb)) matched += [...m].filter((c) => c === '1').length;
        if (JSON.stringify(got.clickhouse, Object.keys(got.duckdb).sort()) === JSON.stringify(got.duckdb, Object.keys(got.duckdb).sort())) return true;
        const uuidsDiffering = Object.keys(got.duckdb).filter((u) => got.duckdb[u] !== got.clickhouse[u]);
        t.fail('a condition matches differently', { filters, segment, uuidsDiffering, duckdb: got.duckdb, clickhouse: got.clickhouse, props: specs.map((s) => s.props) });
        return false;
      },
    ),
    { numRuns: 15 },
  );
  t.ok(matched > compared / 10, `conditions matched ${matched} of ${compared} (event, condition) pairs`);
});

t.test('the property columns hold what DuckDB reads from props', async (t) => {
  const b = new Binder();
  const project = ++projects;
  const values = [...NUMBERS, ...STRINGS, true, false, null, [1e21, 'a"b', null, { 'c.d': [0.0000123, '\u0001'] }], {}, []];
  const specs = values.map((v, i): EventSpec => ({ ts: T0 + i, event: 'view', distinct: 'd1', props: { k: v, deep: { k: 'not top-level' } }, columns: {}, ruleId: null }));
  await append(specs.map((s) => storedEvent(project, s)));
  const duckRows = await duckdb.read(`SELECT ${duck.propertyText(b, 'k')} AS v FROM events e WHERE e.project_id = ${b.bind(project)} ORDER BY e.ts`, b.values);
  const chRows = await clickhouse.query<{ v: string | null }>(`SELECT ${ch.propertyText('k')} AS v FROM events AS e FINAL WHERE e.project_id = ${literal(project)} ORDER BY e.ts, e.ts_us`);
  t.same(
    chRows.map((r) => r.v),
    duckRows.map((r) => r.v),
  );
  t.same(propertyColumns('{"a":{"k":1},"k":null}'), { keys: ['a', 'k'], values: ['{"k":1}', null], numbers: [null, null], kinds: [4, 0] }, 'a nested key is not a top-level one');
});

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
/** Instants near the DST changes of 2024 to 2026 (and far before them, for all-history scans). */
const CHANGES = [
  '2024-03-10T07:00:00Z',
  '2024-11-03T06:00:00Z',
  '2025-03-30T01:00:00Z',
  '2025-10-26T01:00:00Z',
  '2025-04-06T03:00:00Z',
  '2025-10-05T02:00:00Z',
  '2026-03-08T07:00:00Z',
  '2026-04-05T02:00:00Z',
].map(Date.parse);
const instant = fc.oneof(
  fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 })).map(([c, d]) => c + d),
  fc.integer({ min: Date.UTC(2021, 0, 1), max: Date.UTC(2026, 11, 31) }),
  // Decades back (ClickHouse has no Date before 1970): an all-history scan looks the offset up
  // among every change since the epoch.
  fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2026, 11, 31) }),
);

t.test('local days, hours and buckets agree with DuckDB across DST changes', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(instant, { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), async (tz, instants, a, z) => {
      const project = ++projects;
      await append(instants.map((ms) => storedEvent(project, { ts: ms, event: 'view', distinct: 'd1', props: null, columns: {}, ruleId: null })));
      const sorted = [...instants].sort((x, y) => x - y);
      const days = sorted.map((ms) => localDate(ms, tz));
      // All history to the last day, and a range cutting some events off at either end.
      const ranges: Array<{ from?: string; to: string }> = [{ to: days.at(-1)! }, { from: days[a % days.length]!, to: days[Math.max(a % days.length, z % days.length)]! }];
      for (const range of ranges) {
        const b = new Binder();
        const duckSql = duckScan(
          b,
          (local) => ({
            u: 'CAST(e.uuid AS VARCHAR)',
            day: `CAST(${local.day} AS VARCHAR)`,
            hour: `CAST(${local.hourStart} AS VARCHAR)`,
            week: duckBucketKey(local, 'week'),
            month: duckBucketKey(local, 'month'),
            hourKey: duckBucketKey(local, 'hour'),
          }),
          { projectId: project, timezone: tz, ...range },
        );
        const chSql = chScan(
          (local) => ({
            u: 'toString(e.uuid)',
            day: `toString(${local.day})`,
            hour: `toString(${local.hourStart})`,
            week: chBucketKey(local, 'week'),
            month: chBucketKey(local, 'month'),
            hourKey: chBucketKey(local, 'hour'),
          }),
          { projectId: project, timezone: tz, ...range },
        );
        const want = (await duckdb.read(`${duckSql} ORDER BY u`, b.values)).map((r) => ({ ...r }));
        const got = await clickhouse.query(`${chSql} ORDER BY u`);
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          t.same(got, want, `${tz} ${JSON.stringify(range)}: ${sorted.map((ms) => new Date(ms).toISOString()).join(' ')}`);
          return false;
        }
      }
      return true;
    }),
    { numRuns: 15 },
  );
  t.pass('checked');
});

t.test("an event's actor is its identity link's actor, else its distinct id", async (t) => {
  const project = ++projects;
  const specs = ['d1', 'd2', 'd3', 'd4'].map((distinct, i): EventSpec => ({ ts: T0 + i * 1000, event: 'view', distinct, props: null, columns: {}, ruleId: null }));
  await append(specs.map((s) => storedEvent(project, s)));
  // d1 and d2 belong to u1; d3 to u3 (linked twice: the later version wins); d4 has no link.
  const links: Array<[string, string, number]> = [
    ['d1', 'u1', 1],
    ['d2', 'u1', 1],
    ['d3', 'u0', 1],
    ['d3', 'u3', 2],
  ];
  await duckdb.useWriter(async (conn) => {
    for (const [d, a] of links.filter(([d, , v]) => v === Math.max(...links.filter((l) => l[0] === d).map((l) => l[2])))) {
      await duckDb(conn).run(`INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key) VALUES ($1, $2, $3, now(), $4, $5)`, [
        project,
        d,
        a,
        distinctKey(d),
        distinctKey(a),
      ]);
    }
  });
  for (const [d, a, v] of links) {
    await clickhouse.command(
      `INSERT INTO identity_links (project_id, distinct_key, distinct_id, actor_key, actor_id, linked_at, linked_us, version) VALUES (${[project, distinctKey(d), d, distinctKey(a), a, 0, 0, v].map(literal).join(', ')})`,
    );
  }
  const b = new Binder();
  const range = { projectId: project, timezone: 'UTC', from: '2026-03-01', to: '2026-03-01' };
  const want = await duckdb.read(`${duckScan(b, { d: 'e.distinct_id', k: `CAST(${duckActorOf('key')} AS VARCHAR)`, a: duckActorOf('id') }, range)} ORDER BY d`, b.values);
  const got = await clickhouse.query(`${chScan({ d: 'e.distinct_id', k: `toString(${chActorOf('key')})`, a: chActorOf('id') }, range)} ORDER BY d`);
  t.same(got, want);
  t.same(
    got.map((r) => r.a),
    ['u1', 'u1', 'u3', 'd4'],
  );
  t.equal(chScan({ d: 'e.distinct_id' }, range).includes('identity_links'), false, 'a scan without actors makes no join');
});
