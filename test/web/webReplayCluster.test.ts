// The Web page and recordings on ClickHouse with 2 shards × 2 replicas answer as on DuckDB: page
// views of distinct ids on both shards (events are sharded by distinct_key), linked to people whose
// other ids sit on the other shard, over a DST change in Europe/Berlin; recordings of sessions spread
// over both shards (chunks are sharded by session), listed, opened, streamed and swept by retention
// (mutations on every shard). Then, on the same cluster, recordings deleted by a person's deletion
// and by retention when no chunk is written after them: the chunks are written with a quorum, and
// 18.16 mutates a partition's latest quorum part only once the deletion's markers follow it.
// Deterministic, one cluster for the file.

import t from 'tap';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { jobRunner } from '../../server/store/jobs.js';
import { queueSweep, REPLAY_SWEEP } from '../../server/store/replaySweep.js';
import { queryHarness, type QueryHarness } from '../queries/harness.js';
import { eventually } from '../support/eventually.js';
import { createIngestKey } from '../support/ingest.js';
import { grantEntitlements } from '../support/license.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';

const IDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'u1', 'u2', 'u3'];
const LINKS: Array<[string, string]> = [
  ['a0', 'u1'],
  ['a1', 'u1'],
  ['a2', 'u2'],
  ['a3', 'u3'],
  ['u3', 'u1'],
];
const DAYS = ['2026-03-28', '2026-03-29', '2026-03-30'];
const PATHS = ['/', '/pricing', '/docs', '/blog'];
const NOW = new Date('2026-03-31T12:00:00Z');
/** Both servers sign cursors alike. */
const SECRET = 'the same secret on both servers';

/** A fixed uuid per event, so the recordings' event lists are equal on both servers. */
function uuidOf(id: string, day: number, minutes: number): string {
  const n = IDS.indexOf(id) * 1000 + day * 100 + minutes;
  return `${(0xf0000000 - n * 0x10000).toString(16).padStart(8, '0')}-0000-4000-8000-${(n * 0x1001).toString(16).padStart(12, '0')}`;
}

/** Each id's visits: one or two page views 10 minutes apart, a click, another visit 45 minutes later on some days. */
function pageViews(): SeedEvent[] {
  return IDS.flatMap((id, i) =>
    DAYS.flatMap((day, d) => {
      const start = Date.parse(`${day}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}:00Z`);
      const who = id.startsWith('u') ? { user_id: id } : { anonymous_id: id };
      const props = { $channel: ['direct', 'social'][(i + d) % 2], $country: ['DE', 'US', 'FR'][i % 3], $browser: i % 4 === 0 ? undefined : 'Firefox' };
      const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
      const view = (minutes: number, path: string): SeedEvent => ({
        uuid: uuidOf(id, d, minutes),
        event: 'pp.page_view',
        ts: at(minutes),
        ...who,
        url: `https://shop.example${path}`,
        props,
        session_id: `s-${id}-${d}`,
      });
      const out = [view(0, PATHS[(i + d) % 4]!)];
      if ((i + d) % 2 === 0) out.push(view(10, PATHS[(i + d + 1) % 4]!), { uuid: uuidOf(id, d, 11), event: 'pp.click', ts: at(11), ...who, session_id: `s-${id}-${d}` });
      if ((i + d) % 3 === 0) out.push(view(56, '/'));
      return out;
    }),
  );
}

const WEB: unknown[] = [
  { date_from: '2026-03-28', date_to: '2026-03-30' },
  { date_from: '2026-03-29', date_to: '2026-03-30', filters: [{ field: 'props.$country', op: 'eq', value: 'DE' }] },
  { date_from: '2026-03-28', date_to: '2026-03-30', filters: [{ field: 'path', op: 'starts_with', value: '/p' }], limit: 2 },
];

/** The file's one cluster, with a server on it: started by the first case that asks. */
let cluster: Promise<QueryHarness> | undefined;
const onCluster = () => (cluster ??= queryHarness(t, { engine: 'clickhouse', topology: 'replicated', settings: { secret: SECRET } }));

/** Sends one chunk per instant of `ms` for the session, the server's clock at each. */
async function sendChunks(h: QueryHarness, credential: string, session: string, anonymousId: string, ms: number[]): Promise<void> {
  for (const [seq, at] of ms.entries()) {
    h.server.clock.set(new Date(at));
    const body = { credential, tracker: 'pp-browser/0.6.5', session_id: session, anonymous_id: anonymousId, seq, events: [{ type: 3, timestamp: at + 1500, data: { seq } }] };
    const res = await h.server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', origin: 'https://shop.example' } });
    if (res.status !== 202) throw new Error(`chunk refused: ${res.text}`);
  }
}

/** Every answer of one server: the Web page, then recordings before and after the retention sweep. */
/** The server's logged errors, each with its error's message. */
const serverErrors = (server: QueryHarness['server']) =>
  server.logs
    .filter((l) => Number(l.level) >= 50)
    .map((l) => `${String(l.msg)}: ${String((l.err as { message?: string } | undefined)?.message)}`)
    .join('\n');

async function answers(h: QueryHarness): Promise<unknown[]> {
  const { server } = h;
  await grantEntitlements(server, ['actor_drilldown']);
  server.clock.set(NOW);
  await h.renewToken();
  const p = h.project('Europe/Berlin');
  const events = pageViews();
  await seedEvents(server, p, events);
  for (const [from, to] of LINKS) await seedIdentity(server, p, from, to);
  const out: unknown[] = [];
  for (const body of WEB) {
    const res = await h.query(p, 'web', body);
    out.push({ status: res.status, body: res.body });
  }

  // A recording per session of the last two days; its chunks received at its first page view.
  patchBehaviorSettings(server.running.services.meta, p, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
  const key = createIngestKey(server, { id: p }, { type: 'browser', domains: ['shop.example'] });
  const sessions = new Map<string, { anon: string; ms: number[] }>();
  for (const e of events) {
    if (e.anonymous_id === undefined || e.session_id === undefined || e.session_id.endsWith('-0')) continue;
    const s = sessions.get(e.session_id) ?? { anon: e.anonymous_id, ms: [] };
    s.ms.push(Date.parse(String(e.ts)));
    sessions.set(e.session_id, s);
  }
  for (const [id, s] of sessions) await sendChunks(h, key.value, id, s.anon, s.ms);
  server.clock.set(NOW);
  await h.renewToken();
  // A query first: on replicas it waits until every node holds what was written (harness.ts).
  await h.query(p, 'web', WEB[0]);
  const base = `/api/v1/projects/${p}/recordings`;
  const get = async (path: string) => {
    const res = await server.request('GET', path, { token: h.token });
    return { status: res.status, body: res.body };
  };
  out.push(await get(base), await get(`${base}?person=u1`), await get(`${base}?url=pricing&limit=2`));
  for (const id of [...sessions.keys()].sort()) {
    const stream = await fetch(`${server.url}${base}/${id}/chunks`, { headers: { authorization: `Bearer ${h.token}` } });
    // A failed stream carries the server's errors into the comparison, so a failure says why.
    const text = await stream.text();
    out.push(await get(`${base}/${id}`), [stream.status, stream.status >= 500 ? `${text}\n${serverErrors(server)}` : text]);
  }
  out.push(await get(`/api/v1/projects/${p}/replay-settings`));

  // Two days after NOW with one day of retention: the recordings of 03-29 go, those of 03-30 stay.
  server.clock.set(new Date('2026-03-31T10:00:00Z'));
  await h.renewToken();
  const patched = await server.request('PATCH', `/api/v1/projects/${p}/replay-settings`, { token: h.token, body: { replay_retention_days: 1 } });
  if (patched.status !== 200) throw new Error(patched.text);
  queueSweep(server.running.services);
  await jobRunner(server.running.services).kick();
  await h.query(p, 'web', WEB[0]);
  out.push(await get(base), await get(`/api/v1/projects/${p}/replay-settings`));
  return out;
}

t.test('the Web page and recordings on 2 shards × 2 replicas answer as on DuckDB', async (t) => {
  t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
  const duckdb = await answers(await queryHarness(t, { settings: { secret: SECRET } }));
  const web = duckdb.slice(0, WEB.length) as Array<{ status: number; body: { totals: { visits: number } } }>;
  t.ok(
    web.every((a) => a.status === 200 && a.body.totals.visits > 0),
    'DuckDB answers every Web request with visits',
  );
  const after = duckdb.at(-2) as { body: { items: unknown[] } };
  const before = duckdb[WEB.length] as { body: { items: unknown[] } };
  t.ok(after.body.items.length > 0 && after.body.items.length < before.body.items.length, 'the sweep deletes some recordings, not all');
  t.same(await answers(await onCluster()), duckdb, 'every answer as on DuckDB');
});

t.test('recordings with no chunk written after them are deleted by a person deletion and by retention on 2 shards × 2 replicas', async (t) => {
  const h = await onCluster();
  const { server } = h;
  const nodes = h.clickhouse!.nodes;
  await grantEntitlements(server, ['actor_drilldown']);
  const start = Date.parse('2026-05-12T09:00:00Z');
  server.clock.set(new Date(start));
  await h.renewToken();
  const p = h.project();
  patchBehaviorSettings(server.running.services.meta, p, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
  const key = createIngestKey(server, { id: p }, { type: 'browser', domains: ['shop.example'] });
  // A visitor's recordings on both shards (sharded by session), and a person's one; the person's
  // page view is May's last event, its chunk the last chunk written.
  const sessions = ['keep-0', 'keep-1', 'keep-2', 'keep-3'];
  await seedEvents(server, p, [{ event: 'pp.page_view', ts: new Date(start).toISOString(), anonymous_id: 'gone', url: 'https://shop.example/', session_id: 'gone-0' }]);
  for (const [i, id] of sessions.entries()) await sendChunks(h, key.value, id, 'visitor', [start + i * 60_000, start + i * 60_000 + 5000]);
  await sendChunks(h, key.value, 'gone-0', 'gone', [start + 600_000]);
  const base = `/api/v1/projects/${p}/recordings`;
  const listed = async () => {
    await h.clickhouse!.settle('pp_queries');
    const res = await server.request('GET', base, { token: h.token });
    return (res.body.items as Array<{ session_id: string }>).map((r) => r.session_id).sort();
  };
  t.same(await listed(), ['gone-0', ...sessions], 'every recording listed');
  const held = await Promise.all(nodes.map(async (n) => (await n.query(`SELECT DISTINCT session_id FROM pp_queries.replay_chunks_local WHERE project_id = ${p} FORMAT TSV`)).trim().split('\n')));
  t.ok(
    held.every((ids) => ids.length < sessions.length + 1),
    'no node holds every recording: they sit on both shards',
  );

  const deletion = await server.request('DELETE', `/api/v1/projects/${p}/persons/gone`, { token: h.token });
  t.equal(deletion.status, 202);
  const job = await eventually(
    "the person's deletion to finish",
    async () => (await server.request('GET', `/api/v1/projects/${p}/person-deletions/${deletion.body.id}`, { token: h.token })).body,
    (j) => j.state === 'succeeded' || j.state === 'failed',
    30_000,
  );
  t.equal(job.state, 'succeeded', "the person's deletion finishes", { error: job.error });
  t.same(await listed(), sessions, "the person's recording is gone");

  // Seven weeks later with a day of retention: the sweep deletes the others, with nothing written since.
  server.clock.set(new Date('2026-07-01T00:00:00Z'));
  await h.renewToken();
  const patched = await server.request('PATCH', `/api/v1/projects/${p}/replay-settings`, { token: h.token, body: { replay_retention_days: 1 } });
  t.equal(patched.status, 200);
  queueSweep(server.running.services);
  const swept = await Promise.race([
    jobRunner(server.running.services)
      .kick()
      .then(() => 'done'),
    new Promise((resolve) => setTimeout(resolve, 30_000, 'still running')),
  ]);
  const sweep = server.running.services.meta.prepare(`SELECT state, error FROM jobs WHERE kind = '${REPLAY_SWEEP}' ORDER BY id DESC LIMIT 1`).get() as { state: string; error: string | null };
  t.same([swept, sweep.state], ['done', 'succeeded'], 'the retention sweep finishes', { error: sweep.error });
  t.same(await listed(), [], 'no recording is left');
  const left = await Promise.all(nodes.map((n) => n.query(`SELECT count() FROM pp_queries.replay_chunks_local WHERE project_id = ${p} FORMAT TSV`)));
  t.same(
    left.map((n) => n.trim()),
    nodes.map(() => '0'),
    'no chunk of the project on any node',
  );
});
