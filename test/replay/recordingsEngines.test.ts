// Recordings answer the same on ClickHouse (one node) as on DuckDB: random recorded sessions (chunks
// with and without rrweb timestamps, sent twice sometimes, sessions starting at one instant, ids in
// byte order that differs from case-blind order), the tracker's events of their sessions and
// identified visitors are sent to a DuckDB server and a ClickHouse server alike; then every list
// request (each filter, pages walked by cursor: both servers share a secret, so equal positions sign
// to equal cursors), every recording's detail and stream, and the storage figures must be equal.
// Last, retention: a day later, with one day of retention, the sweep deletes the same recordings
// on both (ClickHouse by mutations), and a deleted project's go too.

import t from 'tap';
import fc from 'fast-check';
import { startClickHouse } from '../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, type TestKey } from '../support/ingest.js';
import { grantEntitlements } from '../support/license.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { jobRunner } from '../../server/store/jobs.js';
import { queueSweep } from '../../server/store/replaySweep.js';

const SECRET = 'the same secret on both servers';
const NOW = new Date('2026-11-02T12:00:00Z');
const MINUTE = 60_000;

interface Site {
  project: number;
  browser: TestKey;
  server: TestKey;
  token: string;
  base: string;
  /** A new token (access tokens live 15 minutes of clock time). */
  renew(): Promise<void>;
}

async function site(server: TestServer): Promise<Site> {
  const tenant = await createTenant(server);
  patchBehaviorSettings(server.running.services.meta, tenant.project.id, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
  const s: Site = {
    project: tenant.project.id,
    browser: createIngestKey(server, tenant.project, { type: 'browser', domains: ['shop.example'] }),
    server: createIngestKey(server, tenant.project),
    token: '',
    base: `/api/v1/projects/${tenant.project.id}/recordings`,
    async renew() {
      s.token = await accessTokenFor(server, tenant.owner, tenant.org);
    },
  };
  await s.renew();
  return s;
}

const SESSIONS = ['s1', 'S2', 's10', 'b', 'B'];
const ANONS = ['anon-a', 'anon-b', 'anon-c'];
const NAMES = ['pp.page_view', 'pp.click', 'pp.rage_click', 'pp.dead_click', 'checkout'];
const PAGES = ['/home', '/cart', '/pricing'];

interface Chunk {
  /** Minutes after the session's start of each rrweb event; an empty list: events without timestamps. */
  at: number[];
  twice: boolean;
}

interface Session {
  id: string;
  anon: string;
  /** Minutes before NOW (a few share one). */
  start: number;
  chunks: Chunk[];
  events: Array<{ name: string; at: number; page: string }>;
}

const sessionArb = (id: string) =>
  fc.record({
    id: fc.constant(id),
    anon: fc.constantFrom(...ANONS),
    start: fc.constantFrom(30, 90, 600, 1500, 1500, 2400),
    chunks: fc.array(fc.record({ at: fc.array(fc.nat(40), { maxLength: 3 }), twice: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    events: fc.array(fc.record({ name: fc.constantFrom(...NAMES), at: fc.integer({ min: -5, max: 45 }), page: fc.constantFrom(...PAGES) }), { maxLength: 5 }),
  });

const worldArb = fc.record({
  sessions: fc.uniqueArray(fc.constantFrom(...SESSIONS), { minLength: 1, maxLength: SESSIONS.length }).chain((ids) => fc.tuple(...ids.map(sessionArb))),
  identified: fc.subarray(ANONS),
});

/** Distinct uuids whose halves order differently: text order and ClickHouse's UUID order disagree. */
function uuidAt(n: number): string {
  const high = (0xf0000000 - n * 0x01000000).toString(16).padStart(8, '0');
  const low = (n * 0x1001).toString(16).padStart(12, '0');
  return `${high}-0000-4000-8000-${low}`;
}

type World = { sessions: Session[]; identified: string[] };

async function seed(server: TestServer, s: Site, w: World): Promise<void> {
  for (const session of w.sessions) {
    const start = NOW.getTime() - session.start * MINUTE;
    for (const [seq, chunk] of session.chunks.entries()) {
      const events = chunk.at.length === 0 ? [{ type: 3, data: { source: 1 } }] : chunk.at.map((m) => ({ type: 3, timestamp: start + m * MINUTE + 7, data: { source: 1, m } }));
      for (let copy = 0; copy < (chunk.twice ? 2 : 1); copy++) {
        // The same receipt on both servers (it is the time of a chunk without timestamps).
        server.clock.set(new Date(start + seq * MINUTE + copy));
        const body = { credential: s.browser.value, tracker: 'pp-browser/0.6.5', session_id: session.id, anonymous_id: session.anon, seq, events };
        const res = await server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', origin: 'https://shop.example' } });
        if (res.status !== 202) throw new Error(`chunk refused: ${res.text}`);
      }
    }
  }
  server.clock.set(NOW);
  let n = 0;
  const events = w.sessions.flatMap((session) =>
    session.events.map((e) => ({
      uuid: uuidAt((n += 1)),
      event: e.name,
      session_id: session.id,
      anonymous_id: session.anon,
      ts: new Date(NOW.getTime() - session.start * MINUTE + e.at * MINUTE).toISOString(),
      url: `https://shop.example${e.page}`,
    })),
  );
  if (events.length > 0) {
    const res = await ingestEvents(server, s.server, events);
    if (res.status !== 202) throw new Error(`events refused: ${res.text}`);
  }
  for (const anon of w.identified) {
    const res = await server.request('POST', '/v1/identify', { token: s.server.value, body: { anonymous_id: anon, user_id: `user-${anon}` } });
    if (res.status !== 202) throw new Error(`identify refused: ${res.text}`);
  }
}

const LISTS = [
  '',
  '?limit=2',
  '?limit=1&person=user-anon-a',
  '?person=anon-b',
  '?session=s1',
  '?min_duration=600',
  '?max_duration=300&limit=2',
  '?url=cart',
  '?rage_clicks=true',
  '?dead_clicks=true',
  '?event=checkout',
  `?from=${new Date(NOW.getTime() - 1000 * MINUTE).toISOString()}&to=${new Date(NOW.getTime() - 60 * MINUTE).toISOString()}`,
];

/** Every page of every list, every recording's detail and stream, and the storage figures. */
async function answers(server: TestServer, s: Site): Promise<unknown[]> {
  server.clock.set(NOW);
  await s.renew();
  const out: unknown[] = [];
  const sessions = new Set<string>();
  for (const query of LISTS) {
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const sep = query === '' ? '?' : '&';
      const res = await server.request('GET', `${s.base}${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, { token: s.token });
      out.push({ query, page, status: res.status, body: res.body });
      if (res.status !== 200) break;
      for (const item of res.body.items) sessions.add(item.session_id);
      if (res.body.next_cursor === null) break;
      cursor = res.body.next_cursor;
    }
  }
  for (const id of [...sessions].sort()) {
    const detail = await server.request('GET', `${s.base}/${encodeURIComponent(id)}`, { token: s.token });
    const stream = await fetch(`${server.url}${s.base}/${encodeURIComponent(id)}/chunks`, { headers: { authorization: `Bearer ${s.token}` } });
    out.push({ id, status: detail.status, detail: detail.body, stream: [stream.status, await stream.text()] });
  }
  const missing = await server.request('GET', `${s.base}/nothing-here`, { token: s.token });
  out.push({ missing: missing.status });
  const settings = await server.request('GET', `/api/v1/projects/${s.project}/replay-settings`, { token: s.token });
  out.push({ settings: settings.body });
  return out;
}

t.test('recordings on ClickHouse answer as on DuckDB: lists, pages, details, streams, storage, retention', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const duckdb = await startTestServer(t, { now: NOW, settings: { secret: SECRET } });
  const clickhouse = await startTestServer(t, {
    now: NOW,
    settings: { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_replay' },
  });
  const servers = [duckdb, clickhouse];
  for (const server of servers) await grantEntitlements(server, ['actor_drilldown']);
  const sites: Array<[Site, Site]> = [];
  let listed = 0;
  await fc.assert(
    fc.asyncProperty(worldArb, async (w) => {
      // Both servers at once: ClickHouse answers from a process of its own.
      const pair = await Promise.all(
        servers.map(async (server) => {
          server.clock.set(NOW);
          const s = await site(server);
          await seed(server, s, w as World);
          return s;
        }),
      );
      sites.push([pair[0]!, pair[1]!]);
      const [expected, got] = await Promise.all([answers(duckdb, pair[0]!), answers(clickhouse, pair[1]!)]);
      listed += (expected[0] as { body: { items: unknown[] } }).body.items.length;
      t.same(normalize(got, pair[1]!), normalize(expected, pair[0]!), JSON.stringify(w));
    }),
    { numRuns: 6 },
  );
  t.ok(listed > 6, 'the runs list recordings');

  // A day later with one day of retention: the recordings last active before then go, on both.
  const later = new Date(NOW.getTime() + 1440 * MINUTE - 600 * MINUTE);
  for (const [i, server] of servers.entries()) {
    server.clock.set(later);
    for (const pair of sites) {
      const s = pair[i]!;
      await s.renew();
      const res = await server.request('PATCH', `/api/v1/projects/${s.project}/replay-settings`, { token: s.token, body: { replay_retention_days: 1 } });
      if (res.status !== 200) throw new Error(res.text);
    }
    // The first run's project is deleted: all its recordings go.
    const first = pair0(sites, i);
    t.equal((await server.request('DELETE', `/api/v1/projects/${first.project}`, { token: first.token })).status, 204);
    queueSweep(server.running.services);
    await jobRunner(server.running.services).kick();
  }
  const left = async (i: number) => {
    const server = servers[i]!;
    const out = [];
    for (const pair of sites.slice(1)) {
      const s = pair[i]!;
      const res = await server.request('GET', s.base, { token: s.token });
      const settings = await server.request('GET', `/api/v1/projects/${s.project}/replay-settings`, { token: s.token });
      out.push({ ids: res.body.items.map((r: { session_id: string }) => r.session_id), recordings: settings.body.recordings, stored: settings.body.stored_bytes > 0 });
    }
    return out;
  };
  const [before, after] = [await left(0), await left(1)];
  t.same(after, before, 'the same recordings left on both');
  t.ok(
    before.some((r) => r.recordings > 0),
    'some recordings stay',
  );
  const gone = await clickhouse.running.services.events.read(`SELECT count() AS n FROM replay_chunks WHERE project_id = ${pair0(sites, 1).project}`);
  t.equal(Number(gone[0]!.n), 0, "the deleted project's chunks are gone from ClickHouse");
});

function pair0(sites: Array<[Site, Site]>, i: number): Site {
  return sites[0]![i]!;
}

/** Project ids and paths differ between the two servers' sites: each is written as the same mark. */
function normalize(answers: unknown[], s: Site): unknown {
  return JSON.parse(JSON.stringify(answers).replaceAll(s.base, '<base>'));
}
