// Person requests on the real stack: who may ask, a person's page with its numbers checked by hand,
// the NDJSON export, and the deletion job, after which no table of either database (nor a backup
// taken afterwards) holds any of the person's ids, no answer or share link counts them, and
// ingestion refuses their ids for 30 days unless a server key sends them with consent.

import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { grantEntitlements } from '../support/license.js';
import { eventually } from '../support/eventually.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import { listAudit } from '../../server/audit/recordAudit.js';
import { takeSnapshot, EVENTS_FILE, META_FILE } from '../../server/admin/snapshot.js';
import { queueJob } from '../../server/store/jobs.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const ORIGIN = { origin: 'https://shop.example' };

// Ann browses anonymously as ann-anon-51, is identified as ann@example.test, and buys from the
// server. Bob browses and stays anonymous. Every id is distinctive, so finding one anywhere is a trace.
const ANN = { anon: 'ann-anon-51', user: 'ann@example.test', session: 'ann-session-7', name: 'Ann Example-Trace' };
const BOB = { anon: 'bob-anon-22', session: 'bob-session-3' };
const buyChain = [{ tag: 'button', id: 'buy', classes: ['btn'], nth_child: 1, text: 'Buy now' }];

const personPath = (projectId: number, key: string) => `/api/v1/projects/${projectId}/persons/${encodeURIComponent(key)}`;

/** NDJSON lines of an export. */
async function exportLines(server: TestServer, projectId: number, key: string, token: string): Promise<{ status: number; headers: Headers; lines: any[] }> {
  const res = await fetch(`${server.url}${personPath(projectId, key)}/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    lines: res.ok
      ? text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [JSON.parse(text)],
  };
}

/**
 * Every row of every table of the DuckDB catalog (the live database or an attached copy) as JSON,
 * searched for each needle; answers `table: needle` for each hit.
 */
async function duckdbTraces(server: TestServer, catalog: string, needles: string[]): Promise<string[]> {
  const tables = await readTable(server, "SELECT table_name AS t FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY 1", [
    catalog,
  ]);
  const hits: string[] = [];
  for (const { t: table } of tables) {
    const rows = await readTable(server, `SELECT to_json(x)::VARCHAR AS j FROM "${catalog}".main."${table}" x`);
    for (const { j } of rows) for (const n of needles) if (String(j).includes(n)) hits.push(`${table}: ${n}`);
  }
  return [...new Set(hits)];
}

/** The same over every table of a SQLite database. */
function sqliteTraces(db: { prepare(sql: string): { all(...a: unknown[]): unknown[] } }, needles: string[]): string[] {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  const hits: string[] = [];
  for (const { name } of tables) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) {
      const text = JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
      for (const n of needles) if (text.includes(n)) hits.push(`${name}: ${n}`);
    }
  }
  return [...new Set(hits)];
}

t.test('person requests', async (t) => {
  const server = await startTestServer(t, { now: NOW });
  await grantEntitlements(server, ['actor_drilldown']);
  const services = server.running.services;
  const { owner, org, project } = await createTenant(server);
  const stranger = await createTenant(server);
  const admin = await addMember(server, org, 'admin');
  const tokens = {
    owner: await accessTokenFor(server, owner, org),
    admin: await accessTokenFor(server, admin, org),
    analyst: await accessTokenFor(server, await addMember(server, org, 'analyst'), org),
    viewer: await accessTokenFor(server, await addMember(server, org, 'viewer'), org),
    stranger: await accessTokenFor(server, stranger.owner, stranger.org),
  };
  patchBehaviorSettings(services.meta, project.id, { replay_enabled: true, privacy_mode: 'standard' }, null, server.clock.now());
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
  const backend = createIngestKey(server, project);
  const rule = await server.request('POST', `/api/v1/projects/${project.id}/labeled-events`, {
    token: tokens.analyst,
    body: { base_event: 'pp.click', selector: 'button#buy', url_pattern: 'https://shop.example/pricing', event_name: 'buy_click', display_name: 'Buy click' },
  });
  t.equal(rule.status, 201, rule.text);

  const ann = (event: string, ts: string, extra: Record<string, unknown> = {}) => ({ event, ts, anonymous_id: ANN.anon, session_id: ANN.session, url: 'https://shop.example/pricing', ...extra });
  const bob = (event: string, ts: string, extra: Record<string, unknown> = {}) => ({ event, ts, anonymous_id: BOB.anon, session_id: BOB.session, url: 'https://shop.example/pricing', ...extra });
  const tracked = await ingestEvents(
    server,
    browser,
    [
      ann('pp.page_view', '2026-10-30T09:00:00Z'), // Ann's first event
      ann('pp.click', '2026-10-30T09:01:00Z', { elements: buyChain }), // + a buy_click derived from it
      ann('pp.page_view', '2026-10-31T09:00:00Z'),
      bob('pp.page_view', '2026-10-31T10:00:00Z'),
      bob('pp.click', '2026-10-31T10:01:00Z', { elements: buyChain }), // + Bob's buy_click
    ],
    { headers: ORIGIN },
  );
  t.same(tracked.body, { accepted: 5, rejected: [] });
  const identified = await server.request('POST', '/v1/identify', { token: backend.value, body: { anonymous_id: ANN.anon, user_id: ANN.user, traits: { name: ANN.name } } });
  t.same(identified.body, { accepted: 1, rejected: [] });
  const bought = await ingestEvents(server, backend, [{ event: 'purchase', ts: '2026-11-01T15:00:00Z', user_id: ANN.user, props: { revenue: 1200 } }]); // Ann's last event
  t.equal(bought.status, 202);
  for (const [session, anon] of [
    [ANN.session, ANN.anon],
    [BOB.session, BOB.anon],
  ] as const) {
    const body = {
      credential: browser.value,
      session_id: session,
      anonymous_id: anon,
      seq: 0,
      events: [{ type: 2, timestamp: Date.parse('2026-10-31T09:00:00Z'), data: { text: `${anon} saw this` } }],
    };
    const res = await server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', ...ORIGIN } });
    t.same(res.body, { accepted: 1, rejected: [] });
  }
  await actorDayFolder(services).catchUp();

  await t.test('401, 400, 403, 404 before anything else', async (t) => {
    const one = personPath(project.id, ANN.user);
    t.equal((await server.request('GET', one)).status, 401);
    t.equal((await server.request('DELETE', one)).status, 401);
    t.equal((await server.request('POST', `${one}/export`)).status, 401);
    const long = await server.request('GET', personPath(project.id, 'x'.repeat(201)), { token: tokens.analyst });
    t.equal(long.status, 400, 'a path id longer than any id is malformed');
    t.equal(long.body.error.code, 'validation_failed');
    t.equal((await server.request('GET', one, { token: tokens.viewer })).status, 403, 'a viewer does not see persons');
    for (const role of ['viewer', 'analyst'] as const) {
      const del = await server.request('DELETE', one, { token: tokens[role] });
      t.equal(del.status, 403, `${role} may not delete`);
      t.equal(del.body.error.code, 'forbidden');
      t.equal((await server.request('POST', `${one}/export`, { token: tokens[role] })).status, 403, `${role} may not export`);
    }
    t.equal((await server.request('GET', one, { token: tokens.stranger })).status, 404);
    t.equal((await server.request('DELETE', one, { token: tokens.stranger })).status, 404);
    const nobody = await server.request('GET', personPath(project.id, 'nobody-at-all'), { token: tokens.analyst });
    t.same(nobody.body, { error: { code: 'not_found', message: 'person not found', details: nobody.body.error.details } });
    t.equal((await server.request('DELETE', personPath(project.id, 'nobody-at-all'), { token: tokens.admin })).status, 404, 'nothing to delete');
    t.equal((await server.request('GET', `/api/v1/projects/${project.id}/person-deletions/abc`, { token: tokens.admin })).status, 400);
    t.equal((await server.request('GET', `/api/v1/projects/${project.id}/person-deletions/999`, { token: tokens.admin })).status, 404);
  });

  await t.test("a person's page: the same person from any of their ids", async (t) => {
    const expected = {
      actor_id: ANN.user, // the anonymous id is linked to the user id
      distinct_ids: [ANN.user, ANN.anon].sort(),
      user_ids: [ANN.user],
      first_seen: '2026-10-30T09:00:00.000Z',
      last_seen: '2026-11-01T15:00:00.000Z',
      events: 4, // two page views, a click, a purchase
      labeled_events: 1, // buy_click from the click
      top_events: [
        { event: 'pp.page_view', count: 2 },
        { event: 'buy_click', count: 1 },
        { event: 'pp.click', count: 1 },
        { event: 'purchase', count: 1 },
      ],
      sessions: 1, // the purchase has no session
      recordings: 1,
    };
    for (const key of [ANN.user, ANN.anon]) {
      const res = await server.request('GET', personPath(project.id, key), { token: tokens.analyst });
      t.equal(res.status, 200, key);
      t.strictSame(res.body, expected, key);
    }
    // The events list's person filter counts the same events (derived ones included).
    const listed = await server.request('GET', `/api/v1/projects/${project.id}/events?actor_id=${encodeURIComponent(ANN.user)}&limit=100`, { token: tokens.analyst });
    t.equal(listed.body.items.length, expected.events + expected.labeled_events);
  });

  await t.test('the export: every event, link, trait and recording chunk, one per line', async (t) => {
    const res = await exportLines(server, project.id, ANN.anon, tokens.admin);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
    t.match(res.headers.get('content-disposition'), /^attachment; filename="person-\d+-2026-11-02\.ndjson"$/);
    const types = res.lines.map((l) => l.type);
    t.same(types, ['person', 'event', 'event', 'event', 'event', 'event', 'identity_link', 'traits', 'recording_chunk']);
    t.match(res.lines[0], { actor_id: ANN.user, distinct_ids: [ANN.user, ANN.anon].sort() });
    const events = res.lines.filter((l) => l.type === 'event');
    t.same(events.map((e) => [e.event, e.ts, e.labeled]).sort(), [
      ['buy_click', '2026-10-30T09:01:00.000Z', true],
      ['pp.click', '2026-10-30T09:01:00.000Z', false],
      ['pp.page_view', '2026-10-30T09:00:00.000Z', false],
      ['pp.page_view', '2026-10-31T09:00:00.000Z', false],
      ['purchase', '2026-11-01T15:00:00.000Z', false],
    ]);
    t.ok(
      events.every((e, i) => i === 0 || events[i - 1].ts <= e.ts),
      'oldest first',
    );
    t.same(
      res.lines.find((l) => l.type === 'identity_link'),
      { type: 'identity_link', distinct_id: ANN.anon, actor_id: ANN.user, linked_at: NOW.toISOString() },
    );
    t.match(
      res.lines.find((l) => l.type === 'traits'),
      { user_id: ANN.user, traits: { name: ANN.name } },
    );
    t.match(res.lines.at(-1), { type: 'recording_chunk', session_id: ANN.session, seq: 0, anonymous_id: ANN.anon, events: [{ data: { text: `${ANN.anon} saw this` } }] });
    t.ok(listAudit(services, { action: 'project.person.export' }).length >= 1, 'the export is audited');
  });

  await t.test('deletion: a job, then no trace anywhere, and the ids refused at ingest', async (t) => {
    const segmentation = { metric: 'events', event: 'any', interval: 'day', date_from: '2026-10-30', date_to: '2026-11-01' };
    const total = async () => {
      const res = await server.request('POST', `/api/v1/projects/${project.id}/queries/segmentation`, { token: tokens.analyst, body: segmentation });
      t.equal(res.status, 200, res.text);
      return (res.body.series[0].points as Array<{ value: number }>).reduce((n, p) => n + p.value, 0);
    };
    t.equal(await total(), 8, "Ann's 5 events and Bob's 3, before (and now cached)");
    const insight = (await server.request('POST', `/api/v1/projects/${project.id}/insights`, { token: tokens.analyst, body: { name: 'Events', kind: 'segmentation', query: segmentation } })).body;
    const link = (await server.request('POST', `/api/v1/projects/${project.id}/share-links`, { token: tokens.admin, body: { insight_id: insight.id } })).body;
    const sharedTotal = async () => {
      const res = await server.request('POST', `/api/v1/shared/${link.token}/result`, { body: {} });
      t.equal(res.status, 200, res.text);
      return (res.body.series[0].points as Array<{ value: number }>).reduce((n, p) => n + p.value, 0);
    };
    t.equal(await sharedTotal(), 8, 'a share link shows the same');
    const uuids = (await readTable(server, 'SELECT uuid::VARCHAR AS u FROM events WHERE project_id = $1 AND distinct_id IN ($2, $3)', [project.id, ANN.anon, ANN.user])).map((r) => String(r.u));
    t.equal(uuids.length, 5);
    const keys = await readTable(server, 'SELECT md5_number_lower($1)::VARCHAR AS a, md5_number_lower($2)::VARCHAR AS u, md5_number_lower($3)::VARCHAR AS s', [ANN.anon, ANN.user, ANN.session]);
    const needles = [ANN.anon, ANN.user, ANN.session, ANN.name, keys[0]!.a, keys[0]!.u, keys[0]!.s, ...uuids];
    const [{ db }] = (await readTable(server, 'SELECT current_database() AS db')) as [{ db: string }];
    t.ok((await duckdbTraces(server, db, needles)).length > 5, 'the scan finds Ann before the deletion');

    const res = await server.request('DELETE', personPath(project.id, ANN.anon), { token: tokens.admin });
    t.equal(res.status, 202);
    t.same(res.body, {
      id: res.body.id,
      state: 'queued',
      ids: 2,
      deleted_events: null,
      deleted_recordings: null,
      error: null,
      requested_by: admin.id,
      created_at: NOW.toISOString(),
      started_at: null,
      finished_at: null,
    });
    const job = await eventually(
      'the deletion to finish',
      async () => (await server.request('GET', `/api/v1/projects/${project.id}/person-deletions/${res.body.id}`, { token: tokens.admin })).body,
      (j) => j.state === 'succeeded' || j.state === 'failed',
    );
    t.match(job, { state: 'succeeded', deleted_events: 5, deleted_recordings: 1, error: null });
    t.same(
      listAudit(services, { action: 'project.person.delete' }).map((a) => [a.actor_user_id, a.target, a.details]),
      [[admin.id, String(project.id), { job_id: res.body.id, ids: 2 }]],
    );

    await actorDayFolder(services).catchUp();
    t.equal(await total(), 3, "only Bob's events are counted, the cached answer dropped");
    t.equal(await sharedTotal(), 3, 'and so does the share link');
    for (const key of [ANN.user, ANN.anon]) {
      t.equal((await server.request('GET', personPath(project.id, key), { token: tokens.analyst })).status, 404, `${key} is gone`);
      t.equal((await exportLines(server, project.id, key, tokens.admin)).status, 404, `nothing to export for ${key}`);
    }
    const listed = await server.request('GET', `/api/v1/projects/${project.id}/events?limit=100`, { token: tokens.analyst });
    t.same(
      listed.body.items.map((e: { distinct_id: string }) => e.distinct_id),
      [BOB.anon, BOB.anon, BOB.anon],
      "Bob's events stay",
    );
    const recordings = await server.request('GET', `/api/v1/projects/${project.id}/recordings`, { token: tokens.analyst });
    t.same(
      recordings.body.items.map((r: { session_id: string }) => r.session_id),
      [BOB.session],
    );
    t.match((await server.request('GET', personPath(project.id, BOB.anon), { token: tokens.analyst })).body, { events: 2, labeled_events: 1, recordings: 1 });

    t.same(await duckdbTraces(server, db, needles), [], 'no DuckDB table holds a trace of Ann');
    t.same(sqliteTraces(services.meta, needles), [], 'no SQLite table does');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-person-backup-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await takeSnapshot(services, path.join(dir, 'snap'));
    await readTable(server, `ATTACH '${path.join(dir, 'snap', EVENTS_FILE)}' AS person_snap (READ_ONLY)`);
    try {
      t.ok((await readTable(server, 'SELECT count(*) AS n FROM person_snap.main.events'))[0]!.n >= 3, 'the backup holds the other events');
      t.same(await duckdbTraces(server, 'person_snap', needles), [], 'nor does the events database of a backup taken afterwards');
    } finally {
      await readTable(server, 'DETACH person_snap');
    }
    const meta = new Database(path.join(dir, 'snap', META_FILE), { readonly: true });
    t.same(sqliteTraces(meta, needles), [], 'nor its metadata database');
    meta.close();
  });

  await t.test('their ids are refused at ingest for 30 days, unless a server key sends them with consent', async (t) => {
    const refused = await ingestEvents(server, browser, [ann('pp.page_view', '2026-11-02T11:00:00Z'), bob('pp.page_view', '2026-11-02T11:00:00Z')], { headers: ORIGIN });
    t.equal(refused.status, 202);
    t.same(refused.body, {
      accepted: 1,
      rejected: [
        { index: 0, code: 'person_erased', message: 'the data of this person was deleted on request; their ids are refused until 2026-12-02 unless a server key sends them with "consent": true' },
      ],
    });
    const link = await server.request('POST', '/v1/identify', { token: backend.value, body: { anonymous_id: 'new-device-9', user_id: ANN.user } });
    t.same(
      link.body.rejected.map((r: { code: string }) => r.code),
      ['person_erased'],
      'identify names a refused id',
    );
    const chunk = { credential: browser.value, session_id: 'ann-session-8', anonymous_id: ANN.anon, seq: 0, events: [{ type: 2, timestamp: NOW.getTime(), data: {} }] };
    const replay = await server.request('POST', '/v1/replay', { raw: JSON.stringify(chunk), headers: { 'content-type': 'text/plain', ...ORIGIN } });
    t.same(
      replay.body.rejected.map((r: { code: string }) => r.code),
      ['person_erased'],
      'so does a recording',
    );
    const consentByBrowser = await ingestEvents(server, browser, [{ ...ann('signup', '2026-11-02T11:01:00Z'), consent: true }], { headers: ORIGIN });
    t.same(consentByBrowser.body.accepted, 0, "a browser's consent is not taken");

    const consented = await ingestEvents(server, backend, [{ event: 'consent_given', user_id: ANN.user, consent: true }]);
    t.same(consented.body, { accepted: 1, rejected: [] }, 'a server key with consent is taken');
    const afterConsent = await ingestEvents(server, browser, [{ event: 'pp.page_view', user_id: ANN.user }], { headers: ORIGIN });
    t.same(afterConsent.body, { accepted: 1, rejected: [] }, 'and lifts the refusal of that id');
    t.equal((await ingestEvents(server, browser, [ann('pp.page_view', '2026-11-02T11:02:00Z')], { headers: ORIGIN })).body.accepted, 0, 'the other id stays refused');

    server.clock.set('2026-12-02T12:00:01Z');
    // (Browser tokens expire sooner: the server key sends it, without consent.)
    const later = await ingestEvents(server, backend, [ann('pp.page_view', '2026-12-02T12:00:00Z')]);
    t.same(later.body, { accepted: 1, rejected: [] }, '30 days later the id is taken again');
  });
});

t.test('without the actor_drilldown entitlement: no person page, but export and deletion', async (t) => {
  const server = await startTestServer(t, { now: NOW });
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const key = createIngestKey(server, project);
  await ingestEvents(server, key, [{ event: 'signup', user_id: 'carol-77' }]);
  const page = await server.request('GET', personPath(project.id, 'carol-77'), { token });
  t.equal(page.status, 403);
  t.equal(page.body.error.code, 'entitlement_required');
  t.equal((await exportLines(server, project.id, 'carol-77', token)).lines.length, 2, 'the person and their event');
  // An earlier deletion of hers that failed still holds her id, until this one succeeds.
  const meta = server.running.services.meta;
  const failed = queueJob(meta, 'person_deletion', project.id, NOW);
  meta.prepare("UPDATE jobs SET state = 'failed', error = 'disk full' WHERE id = ?").run(failed);
  meta.prepare('INSERT INTO person_deletions (job_id, project_id, ids, id_count) VALUES (?, ?, ?, 1)').run(failed, project.id, JSON.stringify(['carol-77']));
  const del = await server.request('DELETE', personPath(project.id, 'carol-77'), { token });
  t.equal(del.status, 202);
  await eventually(
    'the deletion to finish',
    async () => (await server.request('GET', `/api/v1/projects/${project.id}/person-deletions/${del.body.id}`, { token })).body,
    (j) => j.state === 'succeeded',
  );
  t.same(await readTable(server, "SELECT count(*) AS n FROM events WHERE distinct_id = 'carol-77'"), [{ n: 0 }]);
  t.same(meta.prepare('SELECT job_id, ids FROM person_deletions WHERE ids IS NOT NULL').all(), [], 'the failed job forgot her id too');
});

t.test('a deletion left running by a stopped server runs after the restart', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-person-restart-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestServer(t, { dataDir, now: NOW });
  const { owner, org, project } = await createTenant(first);
  await ingestEvents(first, createIngestKey(first, project), [
    { event: 'signup', user_id: 'dave-31' },
    { event: 'signup', user_id: 'erin-32' },
  ]);
  // As a process stopped in the middle of the job leaves it.
  const meta = first.running.services.meta;
  const jobId = queueJob(meta, 'person_deletion', project.id, NOW);
  meta.prepare("UPDATE jobs SET state = 'running', started_at = created_at, attempts = 1 WHERE id = ?").run(jobId);
  meta.prepare('INSERT INTO person_deletions (job_id, project_id, requested_by, ids, id_count) VALUES (?, ?, ?, ?, 1)').run(jobId, project.id, owner.id, JSON.stringify(['dave-31']));
  await first.close();

  const second = await startTestServer(t, { dataDir, now: NOW });
  const token = await accessTokenFor(second, owner, org);
  const job = await eventually(
    'the deletion to finish',
    async () => (await second.request('GET', `/api/v1/projects/${project.id}/person-deletions/${jobId}`, { token })).body,
    (j) => j.state === 'succeeded' || j.state === 'failed',
  );
  t.match(job, { state: 'succeeded', ids: 1, deleted_events: 1, deleted_recordings: 0 });
  t.same(await readTable(second, 'SELECT distinct_id FROM events WHERE project_id = $1', [project.id]), [{ distinct_id: 'erin-32' }]);
  t.equal(second.running.services.meta.prepare('SELECT ids FROM person_deletions WHERE job_id = ?').pluck().get(jobId), null, 'the ids are forgotten');
});
