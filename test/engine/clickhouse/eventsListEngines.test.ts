// The events list answers the same on ClickHouse as on DuckDB: the same events ingested into a
// DuckDB server and a ClickHouse server (one node, and 2 shards × 2 replicas), then the same list
// requests against both, compared whole: items, pages and cursors (both servers share a secret,
// so equal positions sign to equal cursors). Events share instants, so pages break inside ties.
// Property filters included; then again with every row stored twice, as before parts merge, and
// the project's export (every stored field of every event once, each row the same bytes).

import t, { type Test } from 'tap';
import { startClickHouse, type Topology } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { eventsTenant, ingestOk, qs, type EventsTenant } from '../../events/eventsKit.js';
import { ingestEvents } from '../../support/ingest.js';
import { accessTokenFor } from '../../support/factories.js';
import { exportsPath, jobEnded } from '../../transfer/transferSupport.js';

const SECRET = 'the same secret on both servers';
const T0 = new Date('2026-11-02T12:00:00Z');

/** Distinct uuids whose halves order differently: text order and ClickHouse's UUID order disagree. */
function uuidAt(n: number): string {
  const high = (0xf0000000 - n * 0x01000000).toString(16).padStart(8, '0');
  const low = (n * 0x1001).toString(16).padStart(12, '0');
  return `${high}-0000-4000-8000-${low}`;
}

/** Batches received at different instants, their events at shared instants with uuids not in time order. */
async function ingestWorld(server: TestServer, w: EventsTenant): Promise<void> {
  const names = ['view', 'signup', 'purchase'];
  for (let batch = 0; batch < 4; batch++) {
    server.clock.set(new Date(T0.getTime() - (4 - batch) * 60_000 + (batch === 3 ? 0 : 250)));
    const events = Array.from({ length: 6 }, (_, i) => {
      const n = batch * 6 + i;
      return {
        uuid: uuidAt(((n * 7) % 24) + 1),
        event: names[n % 3],
        anonymous_id: `anon-${n % 4}`,
        ...(n % 5 === 0 ? { user_id: `user-${n % 2}` } : {}),
        ...(n % 3 === 1 ? { release: 'v2', session_id: `s${n % 2}` } : {}),
        url: `https://shop.example/p/${n}`,
        props: { n, even: n % 2 === 0, tag: n % 4 === 0 ? 'a"b\\c' : null },
        ts: new Date(T0.getTime() - 3_600_000 + Math.floor(n / 4) * 1000 + (n % 2) * 1).toISOString(),
      };
    });
    await ingestOk(server, w.key, events);
  }
  // The same uuid sent again is stored once.
  await ingestEvents(server, w.key, [{ uuid: uuidAt(1), event: 'view', anonymous_id: 'anon-0' }]);
}

const REQUESTS: Array<Record<string, string | number | boolean | string[] | undefined>> = [
  {},
  { limit: 5 },
  { limit: 4, order: 'event_time' },
  { limit: 3, event: ['view', 'purchase'] },
  { limit: 2, user_id: 'user-0' },
  { limit: 3, anonymous_id: 'anon-1' },
  { limit: 2, release: 'v2', order: 'event_time' },
  { limit: 4, source: 'server' },
  { limit: 3, from: new Date(T0.getTime() - 180_000).toISOString(), to: new Date(T0.getTime() - 60_000 + 250).toISOString() },
  { invalid_only: true },
  { limit: 7, event: ['nothing'] },
  // Property filters: numbers, booleans, text with quotes and backslashes, absent keys, columns.
  { limit: 4, filters: JSON.stringify([{ field: 'props.n', op: 'gte', value: 10 }]) },
  {
    filters: JSON.stringify([
      { field: 'props.tag', op: 'eq', value: 'a"b\\c' },
      { field: 'props.even', op: 'eq', value: true },
    ]),
  },
  {
    limit: 3,
    order: 'event_time',
    filters: JSON.stringify([
      { field: 'props.tag', op: 'not_exists' },
      { field: 'url', op: 'contains', value: '/p/1' },
    ]),
  },
  {
    filters: JSON.stringify([
      { field: 'props.n', op: 'in', value: [1, 2, '3', 20.5] },
      { field: 'release', op: 'neq', value: 'v2' },
    ]),
  },
];

/** Every page of every request, as the server answered it (status and body). */
async function answers(server: TestServer, w: EventsTenant): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const params of REQUESTS) {
    let cursor: string | undefined;
    for (let page = 0; page < 40; page++) {
      const res = await server.request('GET', w.eventsPath + qs({ ...params, cursor }), { token: w.viewer });
      out.push({ params, page, status: res.status, body: res.body });
      if (res.status !== 200 || res.body.next_cursor === null) break;
      cursor = res.body.next_cursor;
    }
  }
  return out;
}

/** The project's NDJSON export, its lines sorted (DuckDB writes in stored order, ClickHouse in time order), the ingestion key's id (each server's own) named alike. */
async function exportLines(server: TestServer, w: EventsTenant): Promise<string[]> {
  const token = await accessTokenFor(server, w.owner, w.org);
  const started = await server.request('POST', exportsPath(w.project.id), { token, body: { format: 'ndjson' } });
  if (started.status !== 202) throw new Error(`export answered ${started.status}: ${started.text}`);
  const job = await jobEnded(server, token, `${exportsPath(w.project.id)}/${started.body.id}`);
  if (job.state !== 'succeeded') throw new Error(`export ${job.state}: ${job.error}`);
  const text = await (await fetch(server.url + job.download_url)).text();
  return text
    .trim()
    .split('\n')
    .map((l) => l.replaceAll(`"key_id":"${w.key.prefix}"`, '"key_id":"the key"'))
    .sort();
}

async function compare(t: Test, topology: Topology, duckdb: unknown[], exported: string[]): Promise<void> {
  const ch = await startClickHouse(t, topology);
  const server = await startTestServer(t, {
    now: T0,
    settings: { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), ...(ch.cluster ? { 'clickhouse.cluster': ch.cluster } : {}), 'clickhouse.database': 'pp_list' },
  });
  const w = await eventsTenant(server);
  await ingestWorld(server, w);
  const got = await answers(server, w);
  t.same(got, duckdb, `every page on ClickHouse (${topology}) as on DuckDB`);
  // Every row stored again before parts merge (a batch loaded twice): each event still listed once.
  await ch.settle('pp_list');
  const local = topology === 'single' ? 'events' : 'events_local';
  for (const node of ch.nodes) {
    await node.query('SYSTEM STOP MERGES');
    await node.query(`INSERT INTO pp_list.${local} SELECT * FROM pp_list.${local}`);
  }
  await ch.settle('pp_list');
  const [stored, distinct] = (await ch.nodes[0]!.query('SELECT count(), uniqExact(uuid) FROM pp_list.events FORMAT TSV')).trim().split('\t').map(Number);
  t.ok(stored! > distinct!, `rows stored twice (${stored} rows of ${distinct} events)`);
  t.same(await answers(server, w), duckdb, `every page on ClickHouse (${topology}) as on DuckDB, rows stored twice included`);
  t.same(await exportLines(server, w), exported, `the export on ClickHouse (${topology}) as on DuckDB, rows stored twice included`);
}

t.test('the events list on ClickHouse answers as on DuckDB, pages and cursors included', async (t) => {
  const reference = await startTestServer(t, { now: T0, settings: { secret: SECRET } });
  const w = await eventsTenant(reference);
  await ingestWorld(reference, w);
  const duckdb = await answers(reference, w);
  const exported = await exportLines(reference, w);
  t.equal(exported.length, 24, 'the export holds every event once');
  const pages = duckdb as Array<{ status: number; body: { items: unknown[] } }>;
  t.ok(
    pages.every((p) => p.status === 200),
    'DuckDB answers every page',
  );
  t.equal(pages[0]!.body.items.length, 24, 'the first request lists every event once');
  t.ok(pages.filter((p) => p.body.items.length > 0).length > 20, 'the requests walk many pages');
  const filtered = (duckdb as Array<{ params: { filters?: string }; page: number; body: { items: unknown[] } }>).filter((p) => p.params.filters !== undefined && p.page === 0);
  t.ok(filtered.length === 4 && filtered.every((p) => p.body.items.length > 0 && p.body.items.length < 24), 'every property filter matches some events, not all');

  await t.test('one node', (t) => compare(t, 'single', duckdb, exported));
  await t.test('2 shards × 2 replicas', (t) => compare(t, 'replicated', duckdb, exported));
});
