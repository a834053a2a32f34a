// The Integration Doctor view and the catalogs answer the same on ClickHouse as on DuckDB: the same
// requests (accepted events, events with warnings, refused attempts, properties of every JSON kind,
// strings that read like other kinds) sent to a DuckDB server and a ClickHouse server (one node, and
// 2 shards × 2 replicas), then every doctor page with its cursor and both catalogs compared whole.
// The servers share a secret and each request carries its own request id, so records, positions
// and cursors are equal; only the ingestion keys' public ids differ, and are named alike.

import t, { type Test } from 'tap';
import { startClickHouse, type Topology } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { eventsTenant, qs, uuidOf, type EventsTenant } from '../../events/eventsKit.js';
import { createIngestKey, ingestEvents, type TestKey } from '../../support/ingest.js';

const SECRET = 'the same secret on both servers';
const T0 = new Date('2026-11-02T12:00:00Z');
const minutesBefore = (m: number) => new Date(T0.getTime() - m * 60_000).toISOString();
const FROM = minutesBefore(90);
const TO = T0.toISOString();

interface World {
  w: EventsTenant;
  browser: TestKey;
}

/** Properties of every kind, and strings that read like a boolean, an object, an array, a number or a date. */
const PROPS: Array<Record<string, unknown>> = [
  { s: 'true', b: true, o: { k: 1 }, a: [1, 'x'], n: 1, d: '2026-11-01', z: null, mix: 1 },
  { s: '{"k":1}', b: false, o: {}, a: [], n: -2.5, d: '2026-11-01T10:00:00Z', z: null, mix: 'one' },
  { s: '[1]', b: 'false', o: '{}', a: '[]', n: '12', d: 'soon', mix: true },
  { s: 'null', b: true, n: 1e21, d: '2026-11-02T10:00:00.250+02:00', 'dot.key "q"': 'x', é: 'ü' },
  {},
];

/** Ingests the world at fixed instants of the server's clock; every request names its id. */
async function ingestWorld(server: TestServer): Promise<World> {
  const w = await eventsTenant(server);
  const browser = createIngestKey(server, w.project, { type: 'browser', domains: ['shop.example'] });
  const send = async (key: TestKey, minutes: number, requestId: string, events: unknown[], headers: Record<string, string> = {}) => {
    server.clock.set(minutesBefore(minutes));
    return ingestEvents(server, key, events, { headers: { 'x-request-id': requestId, 'x-pp-tracker': 'pp-node/1.2.0', ...headers } });
  };
  let n = 0;
  for (let batch = 0; batch < 6; batch++) {
    const events = Array.from({ length: 5 }, (_, i) => {
      n += 1;
      if (i === 2 && batch % 2 === 0) return { event: 'signup', props: { secret: 'never shown' } }; // refused: no identity
      return {
        uuid: uuidOf(((n * 7) % 40) + 1),
        event: ['view', 'signup', 'purchase'][n % 3],
        user_id: `u${n % 4}`,
        props: { ...PROPS[n % PROPS.length], ...(n % 7 === 0 ? { revenue: 'lots' } : {}) }, // a warning
        ts: minutesBefore(80 - batch * 10 - i),
      };
    });
    // Batches 2 and 4 at the same instant: their records tie on the time, refusals of both included.
    await send(w.key, [60, 50, 40, 35, 40, 30][batch]!, `request-${String(batch).padStart(4, '0')}`, events);
  }
  await send(browser, 25, 'request-foreign', [{ event: 'pp.page_view', anonymous_id: 'a' }], { origin: 'https://evil.example', 'x-pp-tracker': 'pp-browser/0.6.5' });
  await send(browser, 25, 'request-browser', [{ uuid: uuidOf(99), event: 'pp.page_view', anonymous_id: 'a', props: { path: '/' } }], {
    origin: 'https://shop.example',
    'x-pp-tracker': 'pp-browser/0.6.5',
  });
  await send(w.key, 120, 'request-old', [{ uuid: uuidOf(98), event: 'old', user_id: 'u1' }]); // outside the doctor's range
  server.clock.set(T0);
  return { w, browser };
}

const DOCTOR_REQUESTS: Array<Record<string, string | number | boolean | undefined>> = [
  {},
  { limit: 3 },
  { limit: 2, event: 'signup' },
  { limit: 4, sdk_name: 'pp-node' },
  { limit: 1, source: 'browser' },
  { limit: 2, invalid_only: true },
];

/** Every doctor page and both catalogs, as the server answered them, the keys' public ids named alike. */
async function answers(server: TestServer, world: World): Promise<unknown> {
  const { w, browser } = world;
  const out: unknown[] = [];
  for (const params of DOCTOR_REQUESTS) {
    let cursor: string | undefined;
    for (let page = 0; page < 60; page++) {
      const res = await server.request('GET', w.eventsPath + qs({ view: 'doctor', from: FROM, to: TO, ...params, cursor }), { token: w.viewer });
      out.push({ params, page, status: res.status, body: res.body });
      if (res.status !== 200 || res.body.next_cursor === null) break;
      cursor = res.body.next_cursor;
    }
  }
  const catalog = (path: string) => server.request('GET', `/api/v1/projects/${w.project.id}/catalog/${path}`, { token: w.viewer });
  for (const path of ['events', 'props', 'props?event=signup', 'props?event=nothing']) {
    const res = await catalog(path);
    out.push({ path, status: res.status, body: res.body });
  }
  return JSON.parse(JSON.stringify(out).replaceAll(w.key.prefix, 'server key').replaceAll(browser.prefix, 'browser key'));
}

async function compare(t: Test, topology: Topology, duckdb: unknown): Promise<void> {
  const ch = await startClickHouse(t, topology);
  const server = await startTestServer(t, {
    now: T0,
    settings: { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), ...(ch.cluster ? { 'clickhouse.cluster': ch.cluster } : {}), 'clickhouse.database': 'pp_doctor' },
  });
  t.same(await answers(server, await ingestWorld(server)), duckdb, `the doctor view and the catalogs on ClickHouse (${topology}) as on DuckDB`);
}

t.test('the doctor view and the catalogs on ClickHouse answer as on DuckDB', async (t) => {
  const reference = await startTestServer(t, { now: T0, settings: { secret: SECRET } });
  const duckdb = (await answers(reference, await ingestWorld(reference))) as Array<{ status: number; body: any }>;
  t.ok(
    duckdb.every((a) => a.status === 200),
    'DuckDB answers every request',
  );
  const records = duckdb.filter((a) => 'page' in a).flatMap((a) => a.body.items as Array<{ kind: string; outcome: string }>);
  t.ok(records.some((r) => r.kind === 'rejected') && records.some((r) => r.outcome === 'invalid'), 'refused attempts and warnings are listed');
  const props = duckdb.find((a) => (a as { path?: string }).path === 'props')!.body.items as Array<{ key: string; type: string }>;
  t.same(
    Object.fromEntries(props.map((p) => [p.key, p.type])),
    { a: 'mixed', b: 'mixed', d: 'string', 'dot.key "q"': 'string', mix: 'mixed', n: 'mixed', o: 'mixed', path: 'string', revenue: 'string', s: 'string', é: 'string' },
    'every kind is seen',
  );
  await t.test('one node', (t) => compare(t, 'single', duckdb));
  await t.test('2 shards × 2 replicas', (t) => compare(t, 'replicated', duckdb));
});
