// The per-day actor rollup: what a fold stores, that day-level queries agree with the raw events
// before, during and after folding, that a changed time zone is folded again, that compaction
// merges delta rows without changing an answer, that events arriving during folds are counted
// exactly once, and that a store whose rowids changed is folded again.

import t from 'tap';
import { queryHarness } from './harness.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { createIngestKey } from '../support/ingest.js';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ActorDayFolder, actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import { takeSnapshot } from '../../server/admin/snapshot.js';
import { tempDir } from '../support/tempDir.js';
import { deleteProject, updateProject } from '../../server/accounts/projects.js';
import { localDate } from '../../server/engine/localTime.js';
import { adminCommand } from '../../server/admin/adminCommands.js';
import { formatStatus, type InstallationStatus } from '../../installer/installationStatus.js';

const h = await queryHarness(t);
const services = h.server.running.services;
const folder = actorDayFolder(services);

async function rollup(projectId: number): Promise<Array<Record<string, unknown>>> {
  const rows = await services.events.read(
    `SELECT CAST(day AS VARCHAR) AS day, event, distinct_id, sum(events) AS events, sum(revenue) AS revenue, sum(refund_events) AS refund_events
       FROM actor_days WHERE project_id = $1 GROUP BY ALL ORDER BY ALL`,
    [projectId],
  );
  return rows.map((r) => ({ ...r, events: Number(r.events), refund_events: Number(r.refund_events) }));
}

/** Daily event counts straight from the HTTP API (a query that reads the rollup). */
async function dailyCounts(projectId: number, from: string, to: string): Promise<Record<string, number>> {
  const res = await h.server.request('POST', `/api/v1/projects/${projectId}/queries/segmentation`, {
    token: h.token,
    body: { metric: 'events', event: 'any', interval: 'day', date_from: from, date_to: to },
  });
  if (res.status !== 200) throw new Error(`segmentation: ${res.status} ${JSON.stringify(res.body)}`);
  return Object.fromEntries((res.body.series[0].points as Array<{ bucket: string; value: number }>).filter((p) => p.value > 0).map((p) => [p.bucket, p.value]));
}

function expectedCounts(events: SeedEvent[], tz: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) {
    const day = localDate(new Date(e.ts), tz);
    out[day] = (out[day] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort());
}

// Around midnight in New York and Tokyo, so the two zones disagree on most days.
const EVENTS: SeedEvent[] = [
  { event: 'view', ts: '2026-03-02T03:30:00Z', user_id: 'u1' },
  { event: 'view', ts: '2026-03-02T04:30:00Z', user_id: 'u1' },
  { event: 'buy', ts: '2026-03-02T05:00:00Z', user_id: 'u1', props: { revenue: 20 } },
  { event: 'buy', ts: '2026-03-02T06:00:00Z', user_id: 'u1', props: { revenue: -5 } },
  { event: 'view', ts: '2026-03-02T14:59:00Z', anonymous_id: 'a2' },
  { event: 'view', ts: '2026-03-02T15:01:00Z', anonymous_id: 'a2' },
  { event: 'view', ts: '2026-03-03T23:00:00Z', user_id: 'u3' },
];

t.test('a fold stores one row per local day, event and distinct id, in the project zone', async (t) => {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, EVENTS);
  t.same(await rollup(p), [], 'nothing folded yet');
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-04'), expectedCounts(EVENTS, 'America/New_York'), 'the raw events answer');
  const progress = await folder.catchUp();
  t.ok(progress.folded >= EVENTS.length, `folded ${progress.folded}`);
  // Each day of each distinct id also has a row for any event (a NULL event).
  t.same(await rollup(p), [
    { day: '2026-03-01', event: 'view', distinct_id: 'u1', events: 2, revenue: null, refund_events: 0 },
    { day: '2026-03-01', event: null, distinct_id: 'u1', events: 2, revenue: null, refund_events: 0 },
    { day: '2026-03-02', event: 'buy', distinct_id: 'u1', events: 2, revenue: 15, refund_events: 1 },
    { day: '2026-03-02', event: 'view', distinct_id: 'a2', events: 2, revenue: null, refund_events: 0 },
    { day: '2026-03-02', event: null, distinct_id: 'a2', events: 2, revenue: null, refund_events: 0 },
    { day: '2026-03-02', event: null, distinct_id: 'u1', events: 2, revenue: 15, refund_events: 1 },
    { day: '2026-03-03', event: 'view', distinct_id: 'u3', events: 1, revenue: null, refund_events: 0 },
    { day: '2026-03-03', event: null, distinct_id: 'u3', events: 1, revenue: null, refund_events: 0 },
  ]);
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-04'), expectedCounts(EVENTS, 'America/New_York'), 'the rollup answers the same');
  t.same(await folder.catchUp(), { folded: 0, refolded: 0, compacted: false }, 'a pass with nothing new does nothing');
});

t.test('a project whose zone changed is answered from raw events, then folded again', async (t) => {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, EVENTS);
  await folder.catchUp();
  updateProject(services.meta, p, { timezone: 'Asia/Tokyo' });
  const tokyo = expectedCounts(EVENTS, 'Asia/Tokyo');
  t.not(JSON.stringify(tokyo), JSON.stringify(expectedCounts(EVENTS, 'America/New_York')), 'the zones disagree');
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-05'), tokyo, 'right at once, before any fold');
  const progress = await folder.catchUp();
  t.equal(progress.refolded, 1, 'one project folded again');
  t.same(
    (await rollup(p)).filter((r) => r.event !== null).map((r) => r.day),
    ['2026-03-02', '2026-03-02', '2026-03-02', '2026-03-03', '2026-03-04'],
    'Tokyo days',
  );
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-05'), tokyo, 'and from the refolded rollup');
});

t.test('compaction merges delta rows of several folds without changing an answer', async (t) => {
  const p = h.project('Europe/London');
  const all: SeedEvent[] = [];
  for (let round = 0; round < 3; round++) {
    const batch = EVENTS.map((e) => ({ ...e, ts: new Date(Date.parse(e.ts as string) + round * 60_000).toISOString() }));
    await seedEvents(h.server, p, batch);
    all.push(...batch);
    await folder.catchUp();
  }
  const deltaRows = await services.events.read('SELECT count(*) AS n FROM actor_days WHERE project_id = $1', [p]);
  const before = await rollup(p);
  await folder.compact();
  const after = await services.events.read('SELECT count(*) AS n FROM actor_days WHERE project_id = $1', [p]);
  t.equal(Number(deltaRows[0]!.n), 3 * before.length, 'each fold added its own rows');
  t.equal(Number(after[0]!.n), before.length, 'one row per key after compaction');
  t.same(await rollup(p), before, 'same sums');
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-04'), expectedCounts(all, 'Europe/London'));
});

t.test('events ingested while folds run are counted exactly once', async (t) => {
  const p = h.project('UTC');
  const key = createIngestKey(h.server, { id: p });
  h.server.clock.set('2026-03-07T00:00:00Z');
  await h.renewToken();
  const sent: SeedEvent[] = [];
  let folding = true;
  const folds = (async () => {
    while (folding) await folder.catchUp({ maxRows: 37 });
  })();
  for (let batch = 0; batch < 20; batch++) {
    const events = Array.from({ length: 50 }, (_, i) => ({
      event: 'tick',
      user_id: `u${i % 7}`,
      ts: new Date(Date.UTC(2026, 2, 1 + (i % 5), 12, batch, i)).toISOString(),
    }));
    const res = await h.server.request('POST', '/v1/track', { token: key.value, body: { events } });
    t.equal(res.status, 202, `batch ${batch}`);
    sent.push(...events);
  }
  folding = false;
  await folds;
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-06'), expectedCounts(sent, 'UTC'), 'partly folded');
  await folder.catchUp();
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-06'), expectedCounts(sent, 'UTC'), 'fully folded');
});

t.test('a deleted project leaves the rollup at the next fold', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, EVENTS);
  await folder.catchUp();
  t.ok((await rollup(p)).length > 0, 'folded');
  deleteProject(services.meta, p, services.clock.now());
  await folder.catchUp();
  t.same(await rollup(p), [], 'its rows are gone');
  t.same(await services.events.read('SELECT * FROM actor_day_zones WHERE project_id = $1', [p]), [], 'and its zone');
});

t.test('a rollup whose folded event is no longer at its rowid is emptied and folded again', async (t) => {
  const p = h.project('Asia/Tokyo');
  await seedEvents(h.server, p, EVENTS);
  await folder.catchUp();
  const before = await rollup(p);
  // As a store rebuilt in another order would look: the recorded event is not at that rowid.
  await services.events.write("UPDATE actor_day_state SET through_uuid = '00000000-0000-4000-8000-000000000000'");
  await services.events.write('DELETE FROM actor_days WHERE project_id = $1', [p]);
  const fresh = new ActorDayFolder(services);
  const progress = await fresh.catchUp();
  await fresh.stop();
  t.ok(
    h.server.logs.some((l) => String(l.msg).startsWith('actor days do not match the stored events')),
    'said so in the log',
  );
  t.ok(progress.folded > 0, `folded ${progress.folded} events again`);
  t.same(await rollup(p), before, 'the same rows as before');
  t.same(await dailyCounts(p, '2026-03-01', '2026-03-05'), expectedCounts(EVENTS, 'Asia/Tokyo'));
});

t.test('a snapshot keeps events in storage order, so a restored rollup stays valid', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, EVENTS);
  await folder.catchUp();
  const dir = await tempDir(t);
  await takeSnapshot(services, dir);
  const instance = await DuckDBInstance.create(path.join(dir, 'events.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const [row] = (
    await conn.runAndReadAll(`SELECT s.through_uuid::VARCHAR AS folded, e.uuid::VARCHAR AS stored
    FROM actor_day_state s JOIN events e ON e.rowid = s.through_rowid`)
  ).getRowObjects();
  conn.closeSync();
  instance.closeSync();
  t.ok(row?.folded, 'the snapshot records a folded event');
  t.equal(row?.stored, row?.folded, 'and holds that event at the same rowid');
});

async function propertyRows(projectId: number): Promise<Array<Record<string, unknown>>> {
  const rows = await services.events.read(
    `SELECT key, CAST(day AS VARCHAR) AS day, event, value, sum(events) AS events, sum(revenue) AS revenue
       FROM property_days WHERE project_id = $1 GROUP BY ALL ORDER BY ALL`,
    [projectId],
  );
  return rows.map((r) => ({ ...r, events: Number(r.events) }));
}

/** Daily event counts by a property from the HTTP API, as `value|day` → count. */
async function breakdown(projectId: number, property: string): Promise<Record<string, number>> {
  const res = await h.server.request('POST', `/api/v1/projects/${projectId}/queries/segmentation`, {
    token: h.token,
    body: { metric: 'events', event: 'view', interval: 'day', group_by: { property, limit: 5 }, date_from: '2026-03-01', date_to: '2026-03-05' },
  });
  if (res.status !== 200) throw new Error(`segmentation: ${res.status} ${JSON.stringify(res.body)}`);
  const out: Record<string, number> = {};
  for (const s of res.body.series as Array<{ name: string; points: Array<{ bucket: string; value: number }> }>) {
    for (const p of s.points) if (p.value > 0) out[`${s.name}|${p.bucket}`] = p.value;
  }
  return out;
}

t.test('the property rollup folds the configured keys, a key added later from the first event, and drops a removed one', async (t) => {
  const p = h.project('Asia/Tokyo');
  const events: SeedEvent[] = EVENTS.map((e, i) => ({ ...e, props: { ...e.props, plan: i % 2 ? 'pro' : 'free', tier: i < 3 ? 1 : 'gold "x"' } }));
  const settings = services.config.events;
  const configured = settings.rollup_properties;
  t.teardown(() => {
    settings.rollup_properties = configured;
  });
  await seedEvents(h.server, p, events);
  const raw = { plan: await breakdown(p, 'props.plan'), tier: await breakdown(p, 'props.tier') };
  t.same(raw.tier, { '1|2026-03-02': 2, 'gold "x"|2026-03-02': 1, 'gold "x"|2026-03-03': 1, 'gold "x"|2026-03-04': 1 }, 'the raw events answer');

  settings.rollup_properties = ['plan'];
  await folder.catchUp();
  t.same([...new Set((await propertyRows(p)).map((r) => r.key))], ['plan'], 'only the configured key is folded');
  t.same(
    (await propertyRows(p)).filter((r) => r.event === 'buy'),
    [
      { key: 'plan', day: '2026-03-02', event: 'buy', value: 'free', events: 1, revenue: 20 },
      { key: 'plan', day: '2026-03-02', event: 'buy', value: 'pro', events: 1, revenue: -5 },
    ],
  );
  t.same(await breakdown(p, 'props.plan'), raw.plan, 'a folded key answers as the raw events');

  // More events, then a second key: it is folded from the first event, not from the folded point.
  const later = events.map((e) => ({ ...e, ts: new Date(Date.parse(e.ts as string) + 1_000).toISOString() }));
  await seedEvents(h.server, p, later);
  settings.rollup_properties = ['plan', 'tier'];
  await folder.catchUp();
  const tier = (await propertyRows(p)).filter((r) => r.key === 'tier' && r.event === 'view');
  t.same(
    tier.map((r) => [r.day, r.value, r.events]),
    [
      ['2026-03-02', '1', 4],
      ['2026-03-02', 'gold "x"', 2],
      ['2026-03-03', 'gold "x"', 2],
      ['2026-03-04', 'gold "x"', 2],
    ],
  );
  const doubled = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v * 2]));
  t.same(await breakdown(p, 'props.tier'), doubled(raw.tier), 'the added key answers for old and new events');
  t.same(await breakdown(p, 'props.plan'), doubled(raw.plan));

  settings.rollup_properties = ['tier'];
  await folder.catchUp();
  t.same([...new Set((await propertyRows(p)).map((r) => r.key))], ['tier'], 'a removed key is dropped');
  t.same(await breakdown(p, 'props.plan'), doubled(raw.plan), 'and answered from raw events again');
  await folder.compact();
  t.same(await breakdown(p, 'props.tier'), doubled(raw.tier), 'compaction changes no answer');
  await services.events.write('UPDATE property_days SET events = events * 10 WHERE project_id = $1', [p]);
  t.same(await breakdown(p, 'props.tier'), Object.fromEntries(Object.entries(raw.tier).map(([k, v]) => [k, v * 20])), 'the answer is read from the rollup (altered here on purpose)');
});

t.test('data.stats tells how far the rollups trail the stored events, and ppctl status prints it', async (t) => {
  const stats = async () => ((await adminCommand('data.stats')!(services, {})) as NonNullable<InstallationStatus['data']>).rollup!;
  await folder.catchUp();
  const p = h.project('UTC');
  await seedEvents(h.server, p, EVENTS);
  t.same(await stats(), { behind_events: EVENTS.length, property_keys: ['plan'] }, 'the new events are not folded yet');
  await folder.catchUp();
  const done = await stats();
  t.same(done, { behind_events: 0, property_keys: ['plan'] });

  const status: InstallationStatus = {
    version: '1.0.0',
    manager: 'process',
    running: true,
    ready: true,
    running_version: '1.0.0',
    manager_pid: 1,
    server_pid: 2,
    uptime_s: 3,
    url: 'http://127.0.0.1:8080',
    base_url: 'http://127.0.0.1:8080',
    config_dir: '/etc/pp',
    data_dir: '/var/lib/pp',
    prefix: '/opt/pp',
    releases: ['1.0.0'],
    last_upgrade: null,
    error: null,
    data: { events: 10, users: 1, organizations: 1, projects: 1, rollup: { behind_events: 1234, property_keys: [] } },
  };
  t.match(formatStatus(status), /\n {2}rollups: {3}folding, 1234 events to go; property keys: none\n/);
  t.match(formatStatus({ ...status, data: { ...status.data!, rollup: done } }), /\n {2}rollups: {3}up to date; property keys: plan\n/);
});
