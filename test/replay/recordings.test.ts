// Reading session recordings back: the list with its filters and keyset pages, a recording's
// detail with the tracker's events of its session, the stored rrweb events streamed in order
// (fragments joined, strict privacy masking again), and retention, project and person deletion.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, type Tenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable, type TestKey } from '../support/ingest.js';
import { grantEntitlements } from '../support/license.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { jobRunner } from '../../server/store/jobs.js';
import { queueSweep } from '../../server/store/replaySweep.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const at = (iso: string) => Date.parse(iso);

interface Site {
  tenant: Tenant;
  browser: TestKey;
  server: TestKey;
  token: string;
  base: string;
}

async function site(server: TestServer): Promise<Site> {
  const tenant = await createTenant(server);
  patchBehaviorSettings(server.running.services.meta, tenant.project.id, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
  return {
    tenant,
    browser: createIngestKey(server, tenant.project, { type: 'browser', domains: ['shop.example'] }),
    server: createIngestKey(server, tenant.project),
    token: await accessTokenFor(server, tenant.owner, tenant.org),
    base: `/api/v1/projects/${tenant.project.id}/recordings`,
  };
}

async function sendChunk(server: TestServer, s: Site, session: string, anonymousId: string, seq: number, events: unknown[]): Promise<void> {
  const body = { credential: s.browser.value, tracker: 'pp-browser/0.6.5', session_id: session, anonymous_id: anonymousId, seq, events };
  const res = await server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', origin: 'https://shop.example' } });
  if (res.status !== 202 || res.body.accepted !== events.length) throw new Error(`chunk refused: ${res.text}`);
}

const snapshot = (ts: number, text: string) => ({
  type: 2,
  timestamp: ts,
  data: {
    node: { type: 0, id: 1, childNodes: [{ type: 2, id: 2, tagName: 'p', attributes: { title: 'Hello there' }, childNodes: [{ type: 3, id: 3, textContent: text }] }] },
    initialOffset: { top: 0, left: 0 },
  },
});
const move = (ts: number) => ({ type: 3, timestamp: ts, data: { source: 1, positions: [{ x: 1, y: 2, id: 2, timeOffset: 0 }] } });

async function stream(server: TestServer, s: Site, session: string): Promise<{ status: number; type: string | null; lines: Array<{ seq: number; events: any[] }> }> {
  const res = await fetch(`${server.url}${s.base}/${encodeURIComponent(session)}/chunks`, { headers: { authorization: `Bearer ${s.token}` } });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    lines: res.ok
      ? text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [],
  };
}

const server = await startTestServer(t, { now: NOW });
await grantEntitlements(server, ['actor_drilldown']);
const s = await site(server);

// Three recorded sessions (times in UTC on 2026-11-02):
//   A  anon-a (identified as user-1)  10:00:00 → 10:05:00 (300 s)  /home, /cart; 2 clicks, a rage click, a custom "checkout"
//   B  anon-b                         10:30:00 → 10:30:40 (40 s)   /home; 1 click, a dead click
//   C  anon-c                         11:00:00 → 11:20:00 (1200 s) /pricing; nothing else
await sendChunk(server, s, 'A', 'anon-a', 0, [snapshot(at('2026-11-02T10:00:00Z'), 'Welcome Alice'), move(at('2026-11-02T10:02:00Z'))]);
await sendChunk(server, s, 'A', 'anon-a', 1, [move(at('2026-11-02T10:05:00Z'))]);
await sendChunk(server, s, 'B', 'anon-b', 0, [snapshot(at('2026-11-02T10:30:00Z'), 'Welcome Bob'), move(at('2026-11-02T10:30:40Z'))]);
await sendChunk(server, s, 'C', 'anon-c', 0, [snapshot(at('2026-11-02T11:00:00Z'), 'Pricing'), move(at('2026-11-02T11:20:00Z'))]);
const ev = (session: string, anon: string, event: string, ts: string, url?: string) => ({ event, session_id: session, anonymous_id: anon, ts, url });
const tracked = await ingestEvents(server, s.server, [
  ev('A', 'anon-a', 'pp.page_view', '2026-11-02T10:00:01Z', 'https://shop.example/home'),
  ev('A', 'anon-a', 'pp.click', '2026-11-02T10:00:10Z', 'https://shop.example/home'),
  ev('A', 'anon-a', 'pp.page_view', '2026-11-02T10:01:00Z', 'https://shop.example/cart'),
  ev('A', 'anon-a', 'pp.click', '2026-11-02T10:01:10Z', 'https://shop.example/cart'),
  ev('A', 'anon-a', 'pp.rage_click', '2026-11-02T10:01:11Z', 'https://shop.example/cart'),
  ev('A', 'anon-a', 'checkout', '2026-11-02T10:04:00Z', 'https://shop.example/cart'),
  ev('B', 'anon-b', 'pp.page_view', '2026-11-02T10:30:01Z', 'https://shop.example/home'),
  ev('B', 'anon-b', 'pp.click', '2026-11-02T10:30:05Z', 'https://shop.example/home'),
  ev('B', 'anon-b', 'pp.dead_click', '2026-11-02T10:30:07Z', 'https://shop.example/home'),
  ev('C', 'anon-c', 'pp.page_view', '2026-11-02T11:00:01Z', 'https://shop.example/pricing'),
  // More than a day before C's recording: outside what its recording is read with.
  ev('C', 'anon-c', 'long_before', '2026-10-31T10:00:00Z', 'https://shop.example/pricing'),
]);
const identified = await server.request('POST', '/v1/identify', { token: s.server.value, body: { anonymous_id: 'anon-a', user_id: 'user-1' } });
if (tracked.status !== 202 || identified.status !== 202) throw new Error(`setup refused: ${tracked.text} ${identified.text}`);

const list = (query: string, token = s.token) => server.request('GET', `${s.base}${query}`, { token });
const ids = (res: { body: { items: Array<{ session_id: string }> } }) => res.body.items.map((i) => i.session_id);

t.test('the list: 401 → 422 → 403 role → 404 → 403 entitlement → newest first with counts', async (t) => {
  t.equal((await server.request('GET', s.base)).status, 401);
  const bad = await list('?min_duration=60&max_duration=10');
  t.equal(bad.status, 422);
  t.equal(bad.body.error.message, 'max_duration (10) must not be below min_duration (60)');
  const range = await list('?from=2026-11-02T12:00:00Z&to=2026-11-02T11:00:00Z');
  t.equal(range.body.error.message, 'to (2026-11-02T11:00:00.000Z) must be later than from (2026-11-02T12:00:00.000Z)');
  const viewer = await addMember(server, s.tenant.org, 'viewer', { password: null });
  const denied = await list('', await accessTokenFor(server, viewer, s.tenant.org));
  t.equal(denied.status, 403);
  t.equal(denied.body.error.message, 'this action needs the analyst role or higher');
  t.equal((await server.request('GET', '/api/v1/projects/999999/recordings', { token: s.token })).status, 404);

  const res = await list('');
  t.equal(res.status, 200);
  t.same(ids(res), ['C', 'B', 'A'], 'newest start first');
  t.same(res.body.items[2], {
    session_id: 'A',
    person: 'user-1', // anon-a was identified as user-1
    anonymous_id: 'anon-a',
    started_at: '2026-11-02T10:00:00.000Z',
    ended_at: '2026-11-02T10:05:00.000Z',
    duration_ms: 300_000,
    raw_bytes: res.body.items[2].raw_bytes,
    page_views: 2,
    clicks: 2,
    rage_clicks: 1,
    dead_clicks: 0,
    events: 6,
    first_url: 'https://shop.example/home',
  });
  t.ok(res.body.items[2].raw_bytes > 100, 'the size as sent');
  t.equal(res.body.next_cursor, null);

  await grantEntitlements(server, ['saved_segments']);
  const unlicensed = await list('');
  t.equal(unlicensed.status, 403);
  t.equal(unlicensed.body.error.code, 'entitlement_required');
  t.same(unlicensed.body.error.details, { entitlement: 'actor_drilldown' });
  t.equal((await server.request('GET', `${s.base}/A`, { token: s.token })).status, 403, 'the detail too');
  t.equal((await stream(server, s, 'A')).status, 403, 'and the events');
  await grantEntitlements(server, ['actor_drilldown']);
});

t.test('each filter', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['?person=user-1', ['A']],
    ['?person=anon-a', []], // linked to user-1: its recordings are user-1's
    ['?person=anon-b', ['B']],
    ['?session=B', ['B']],
    ['?from=2026-11-02T10:30:00Z', ['C', 'B']],
    ['?to=2026-11-02T10:30:00Z', ['A']],
    ['?url=/home', ['B', 'A']],
    ['?url=pricing', ['C']],
    ['?rage_clicks=true', ['A']],
    ['?dead_clicks=true', ['B']],
    ['?min_duration=300', ['C', 'A']],
    ['?max_duration=300', ['B', 'A']],
    ['?min_duration=41&max_duration=299', []],
    ['?event=checkout', ['A']],
    ['?event=long_before', []], // events are read within a day of the recordings
    ['?event=pp.page_view&url=home&max_duration=100', ['B']],
  ];
  for (const [query, want] of cases) {
    const res = await list(query);
    t.equal(res.status, 200, query);
    t.same(ids(res), want, query);
  }
});

t.test('keyset pages walk every recording once; a cursor is bound to its filters', async (t) => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(`?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    t.equal(res.status, 200);
    seen.push(...ids(res));
    cursor = res.body.next_cursor;
  } while (cursor);
  t.same(seen, ['C', 'B', 'A']);
  const first = await list('?limit=1');
  const other = await list(`?limit=1&url=home&cursor=${encodeURIComponent(first.body.next_cursor)}`);
  t.equal(other.status, 422);
  t.equal(other.body.error.code, 'validation_failed');
});

t.test('a recording: its page views and the tracker events of its session', async (t) => {
  const res = await server.request('GET', `${s.base}/A`, { token: s.token });
  t.equal(res.status, 200);
  t.match(res.body, { session_id: 'A', person: 'user-1', duration_ms: 300_000, page_views: 2, rage_clicks: 1, events_truncated: false });
  t.same(res.body.pages, [
    { url: 'https://shop.example/home', ts: '2026-11-02T10:00:01.000Z' },
    { url: 'https://shop.example/cart', ts: '2026-11-02T10:01:00.000Z' },
  ]);
  t.same(
    res.body.session_events.map((e: { event: string }) => e.event),
    ['pp.page_view', 'pp.click', 'pp.page_view', 'pp.click', 'pp.rage_click', 'checkout'],
  );
  const missing = await server.request('GET', `${s.base}/nope`, { token: s.token });
  t.equal(missing.status, 404);
  t.equal(missing.body.error.message, 'recording not found');
});

t.test('the events stream: chunks in seq order, fragments joined, strict mode masks text', async (t) => {
  const a = await stream(server, s, 'A');
  t.equal(a.status, 200);
  t.match(a.type, /^application\/x-ndjson/);
  t.same(
    a.lines.map((l) => l.seq),
    [0, 1],
  );
  t.same(a.lines[0]!.events[0], snapshot(at('2026-11-02T10:00:00Z'), 'Welcome Alice'), 'as recorded');
  t.equal((await stream(server, s, 'nope')).status, 404);

  // An event too large for one chunk arrives as pp.fragment custom events, across two chunks.
  const big = snapshot(at('2026-11-02T11:30:00Z'), `Long ${'x'.repeat(40)}`);
  const serialized = JSON.stringify(big);
  const piece = (index: number, data: string) => ({ type: 5, timestamp: big.timestamp, data: { tag: 'pp.fragment', payload: { id: 'f1', index, count: 2, data } } });
  const half = Math.floor(serialized.length / 2);
  await sendChunk(server, s, 'D', 'anon-d', 0, [piece(0, serialized.slice(0, half))]);
  await sendChunk(server, s, 'D', 'anon-d', 1, [piece(1, serialized.slice(half)), move(at('2026-11-02T11:30:05Z'))]);
  const d = await stream(server, s, 'D');
  t.same(
    d.lines,
    [
      { seq: 0, events: [] },
      { seq: 1, events: [big, move(at('2026-11-02T11:30:05Z'))] },
    ],
    'joined in the place of its last piece',
  );

  patchBehaviorSettings(server.running.services.meta, s.tenant.project.id, { privacy_mode: 'strict' }, null, server.clock.now());
  const masked = await stream(server, s, 'A');
  const p = masked.lines[0]!.events[0].data.node.childNodes[0];
  t.equal(p.childNodes[0].textContent, '******* *****', 'text masked, one * per character');
  t.equal(p.attributes.title, '***** *****', 'text attributes too');
  t.notOk(JSON.stringify(masked.lines).includes('Alice'));
  patchBehaviorSettings(server.running.services.meta, s.tenant.project.id, { privacy_mode: 'standard' }, null, server.clock.now());
});

t.test('settings: retention and storage; old recordings are swept', async (t) => {
  const path = `/api/v1/projects/${s.tenant.project.id}/replay-settings`;
  const before = await server.request('GET', path, { token: s.token });
  t.equal(before.status, 200);
  t.match(before.body, { replay_retention_days: 30, recordings: 4 });
  t.ok(before.body.stored_bytes > 0 && before.body.raw_bytes > 0);
  const analyst = await addMember(server, s.tenant.org, 'analyst', { password: null });
  t.equal((await server.request('PATCH', path, { token: await accessTokenFor(server, analyst, s.tenant.org), body: { replay_retention_days: 1 } })).status, 403);
  t.equal((await server.request('PATCH', path, { token: s.token, body: { replay_retention_days: 0 } })).status, 422);

  // A day and 40 minutes later, A and B (last activity 10:05 and 10:30:40) are past one day of retention; C and D are not.
  server.clock.set('2026-11-03T10:40:00Z');
  s.token = await accessTokenFor(server, s.tenant.owner, s.tenant.org);
  const changed = await server.request('PATCH', path, { token: s.token, body: { replay_retention_days: 1 } });
  t.equal(changed.body.replay_retention_days, 1);
  queueSweep(server.running.services);
  await jobRunner(server.running.services).kick();
  t.same(ids(await list('')), ['D', 'C']);
  t.equal((await server.request('GET', path, { token: s.token })).body.recordings, 2);
});

t.test("deleting a person's recordings (with the person) and a project's", async (t) => {
  const other = await site(server);
  await sendChunk(server, other, 'E', 'anon-e', 0, [snapshot(at('2026-11-03T10:00:00Z'), 'E')]);
  await sendChunk(server, other, 'F', 'anon-f', 0, [snapshot(at('2026-11-03T10:10:00Z'), 'F')]);
  const del = await server.request('DELETE', `/api/v1/projects/${other.tenant.project.id}/persons/anon-e`, { token: other.token });
  t.equal(del.status, 202);
  await jobRunner(server.running.services).kick();
  const job = await server.request('GET', `/api/v1/projects/${other.tenant.project.id}/person-deletions/${del.body.id}`, { token: other.token });
  t.match(job.body, { state: 'succeeded', deleted_recordings: 1, deleted_events: 0 });
  t.equal((await list('', other.token)).status, 404, "another organization's member finds no such project");
  t.same(ids(await server.request('GET', other.base, { token: other.token })), ['F']);
  t.equal((await server.request('DELETE', other.base, { token: other.token })).status, 404, 'the recordings list deletes nothing itself');

  t.equal((await server.request('DELETE', `/api/v1/projects/${other.tenant.project.id}`, { token: other.token })).status, 204);
  await jobRunner(server.running.services).kick();
  const left = await readTable(server, 'SELECT count(*) AS n FROM replay_chunks WHERE project_id = $1', [other.tenant.project.id]);
  t.equal(left[0]!.n, 0, "the deleted project's recordings are gone");
  t.same(ids(await list('')), ['D', 'C'], "another project's stay");
});
