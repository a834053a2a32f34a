// Exports: who may start one, the signed download link (no token, tampered or expired refused),
// every stored field in NDJSON, CSV and Parquet, and the round trip: a project exported and imported
// into another exports byte for byte the same, through NDJSON and through CSV. Imported history is
// answered by queries at once and after the rollups folded it, and a cached answer does not outlive
// the import.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { createProject } from '../../server/accounts/projects.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import { exportsPath, importsPath, jobEnded, upload } from './transferSupport.js';

async function exported(server: TestServer, token: string, projectId: number, body: object = {}): Promise<{ job: any; file: Buffer }> {
  const started = await server.request('POST', exportsPath(projectId), { token, body });
  if (started.status !== 202) throw new Error(`export answered ${started.status}: ${started.text}`);
  const job = await jobEnded(server, token, `${exportsPath(projectId)}/${started.body.id}`);
  if (job.state !== 'succeeded') throw new Error(`export ${job.state}: ${job.error}`);
  const res = await fetch(server.url + job.download_url);
  if (res.status !== 200) throw new Error(`download answered ${res.status}`);
  return { job, file: Buffer.from(await res.arrayBuffer()) };
}

async function imported(server: TestServer, token: string, projectId: number, file: Buffer, format: string): Promise<any> {
  const job = await jobEnded(server, token, `${importsPath(projectId)}/${(await upload(server, token, projectId, file, format)).id}`);
  if (job.state !== 'succeeded') throw new Error(`import ${job.state}: ${job.error}`);
  return job;
}

const dailyEvents = async (server: TestServer, token: string, projectId: number) => {
  const res = await server.request('POST', `/api/v1/projects/${projectId}/queries/segmentation`, {
    token,
    body: { metric: 'events', event: 'any', interval: 'day', date_from: '2026-10-01', date_to: '2026-10-03' },
  });
  return (res.body.series[0].points as Array<{ bucket: string; value: number }>).map((p) => [p.bucket, p.value]);
};

t.test('export and round trip', async (t) => {
  const server = await startTestServer(t);
  const services = server.running.services;
  const { owner, org, project } = await createTenant(server, { timezone: 'Europe/Berlin' });
  const token = await accessTokenFor(server, owner, org);
  const key = createIngestKey(server, project);
  const browser = createIngestKey(server, project, { type: 'browser' });
  const sent = await ingestEvents(server, key, [
    { event: 'signup', user_id: 'u1', ts: '2026-10-01T08:00:00Z', props: { plan: 'pro', nested: { a: [1, 'two', null] }, text: 'line\nfeed, "quoted" — ünïcode' }, release: 'v1.2' },
    { event: 'purchase', user_id: 'u1', anonymous_id: 'a1', session_id: 's1', ts: '2026-10-01T22:30:00Z', props: { revenue: '19.90' } },
    { event: 'purchase', user_id: 'u2', ts: '2026-10-02T10:00:00Z', props: { revenue: 'lots' } },
    { event: 'refund', user_id: 'u1', ts: '2026-10-03T10:00:00Z', props: { revenue: -5 }, url: 'https://shop.example/orders/7?utm_campaign=x' },
  ]);
  t.equal(sent.status, 202);
  const clicks = await ingestEvents(
    server,
    browser,
    [
      {
        event: 'pp.click',
        anonymous_id: 'a9',
        ts: '2026-10-02T09:00:00Z',
        url: 'https://example.com/pricing',
        elements: [{ tag: 'button', id: 'buy', classes: ['btn', 'primary'], text: 'Buy', attributes: { 'data-plan': 'pro' } }],
      },
    ],
    { headers: { origin: 'https://example.com' } },
  );
  t.equal(clicks.status, 202);

  t.test('who may export, and bad requests', async (t) => {
    const analyst = await addMember(server, org, 'analyst');
    t.equal((await server.request('POST', exportsPath(project.id), { body: {} })).status, 401);
    const bad = await server.request('POST', exportsPath(project.id), { token, body: { format: 'xlsx' } });
    t.equal(bad.status, 422);
    const backwards = await server.request('POST', exportsPath(project.id), { token, body: { from: '2026-10-03', to: '2026-10-01' } });
    t.equal(backwards.status, 422);
    t.match(backwards.body.error.message, /from \(2026-10-03\) is after to \(2026-10-01\)/);
    t.equal((await server.request('POST', exportsPath(project.id), { token: await accessTokenFor(server, analyst, org), body: {} })).status, 403);
  });

  t.test('NDJSON holds every stored field, and imports back unchanged', async (t) => {
    const { job, file } = await exported(server, token, project.id);
    t.equal(job.events, 5);
    const lines = file
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    t.equal(lines.length, 5);
    t.same(Object.keys(lines[0]), [
      'uuid',
      'ts',
      'received_at',
      'event',
      'distinct_id',
      'anonymous_id',
      'user_id',
      'session_id',
      'source',
      'sdk_name',
      'sdk_version',
      'key_id',
      'release',
      'url',
      'path',
      'referrer',
      'props',
      'revenue',
      'elements',
      'invalid',
      'invalid_reasons',
      'rule_id',
      'source_uuid',
    ]);
    const lots = lines.find((l) => l.props?.revenue === 'lots');
    t.match(lots, { invalid: true, invalid_reasons: ['revenue_not_numeric'], revenue: null, source: 'server', key_id: key.prefix });

    // The link is signed and expires: changed, for another export, or late, it opens nothing.
    const url = new URL(server.url + job.download_url);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60));
    t.equal((await fetch(tampered)).status, 403);
    const other = await server.request('GET', `${exportsPath(project.id)}/${job.id}/download?expires=1&signature=x`);
    t.equal(other.status, 403);
    t.equal(other.body.error.code, 'forbidden');

    const copy = createProject(services.meta, { orgId: org.id, name: 'Copy', timezone: 'Europe/Berlin' }, services.clock.now());
    const result = await imported(server, token, copy.id, file, 'ndjson');
    t.match(result, { stored: 5, duplicates: 0, rejected: 0 });
    t.equal((await exported(server, token, copy.id)).file.toString('utf8'), file.toString('utf8'), 'the copy exports the same bytes');
    const columns = 'uuid, event, ts, received_at, el_tags, el_ids, el_classes, el_attrs, el_text, distinct_key';
    t.same(
      await readTable(server, `SELECT ${columns} FROM events WHERE project_id = $1 ORDER BY rowid`, [copy.id]),
      await readTable(server, `SELECT ${columns} FROM events WHERE project_id = $1 ORDER BY rowid`, [project.id]),
      'derived columns too',
    );
    // Queries answer the imported history, before and after the rollups fold it.
    t.same(await dailyEvents(server, token, copy.id), await dailyEvents(server, token, project.id));
    await actorDayFolder(services).catchUp();
    t.same(await dailyEvents(server, token, copy.id), [
      ['2026-10-01', 1],
      ['2026-10-02', 3],
      ['2026-10-03', 1],
    ]);
    t.same(await dailyEvents(server, token, copy.id), await dailyEvents(server, token, project.id));

    // A cached answer is dropped when an import adds to the days it covers.
    const extra = Buffer.from(JSON.stringify({ event: 'late', user_id: 'u7', ts: '2026-10-02T12:00:00Z' }) + '\n');
    await imported(server, token, copy.id, extra, 'ndjson');
    t.same(await dailyEvents(server, token, copy.id), [
      ['2026-10-01', 1],
      ['2026-10-02', 4],
      ['2026-10-03', 1],
    ]);

    // The link expires an hour after it was given.
    server.clock.advance(61 * 60_000);
    const late = await fetch(url);
    t.equal(late.status, 403);
    t.match(((await late.json()) as any).error.message, /expired/);
  });

  t.test('CSV round trip, a date range, Parquet', async (t) => {
    // A fresh token: the clock moved past the last one's lifetime.
    const token = await accessTokenFor(server, owner, org);
    const { file: ndjson } = await exported(server, token, project.id);
    const { file: csv } = await exported(server, token, project.id, { format: 'csv' });
    const header = csv.toString('utf8').split('\n', 1)[0];
    t.equal(
      header,
      'uuid,ts,received_at,event,distinct_id,anonymous_id,user_id,session_id,source,sdk_name,sdk_version,key_id,release,url,path,referrer,props,revenue,elements,invalid,invalid_reasons,rule_id,source_uuid',
    );
    const copy = createProject(services.meta, { orgId: org.id, name: 'CSV copy', timezone: 'Europe/Berlin' }, services.clock.now());
    t.match(await imported(server, token, copy.id, csv, 'csv'), { stored: 5, rejected: 0 });
    t.equal((await exported(server, token, copy.id)).file.toString('utf8'), ndjson.toString('utf8'));

    // Local days of Berlin: 2026-10-01T22:30Z is already the 2nd there.
    const { job: ranged, file: part } = await exported(server, token, project.id, { from: '2026-10-02', to: '2026-10-02' });
    t.equal(ranged.events, 3);
    t.same(
      part
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).event)
        .sort(),
      ['pp.click', 'purchase', 'purchase'],
    );

    const { job: parquet, file: pq } = await exported(server, token, project.id, { format: 'parquet' });
    t.equal(parquet.events, 5);
    t.equal(pq.subarray(0, 4).toString('latin1'), 'PAR1');
  });
});
