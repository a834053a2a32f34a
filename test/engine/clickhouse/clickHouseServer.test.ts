// A server on the ClickHouse engine (events.engine clickhouse) on one node: it starts with its
// tables made, stores what it acknowledges, answers what it has statements for (an export among
// them), and while ClickHouse is down keeps answering ingestion (the journal holds
// the events), says it is not ready, and loads the events exactly once when ClickHouse returns.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ClickHouseNode, startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer } from '../../support/testServer.js';
import { eventually } from '../../support/eventually.js';
import { eventsTenant, ingestOk } from '../../events/eventsKit.js';
import { ingestEvents } from '../../support/ingest.js';
import { accessTokenFor } from '../../support/factories.js';
import { exportsPath, jobEnded } from '../../transfer/transferSupport.js';
import { ClickHouseEngine } from '../../../server/engine/clickhouse/clickHouseEngine.js';

const DATABASE = 'pp_server';

const eventAt = (n: number) => ({ uuid: randomUUID(), event: 'view', anonymous_id: `u${n % 3}`, ts: new Date(Date.UTC(2026, 10, 2, 11, 0, n)).toISOString() });

t.test('the ClickHouse engine serves ingestion and reads, and holds events while ClickHouse is down', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const node = ch.nodes[0]!;
  const server = await startTestServer(t, { settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': DATABASE } });
  const count = async () => Number((await node.query(`SELECT count() FROM ${DATABASE}.events`)).trim());

  t.equal((await server.request('GET', '/api/v1/health?ready=1')).status, 200, 'ready on ClickHouse');
  t.equal(server.running.services.events.kind, 'clickhouse');

  const w = await eventsTenant(server);
  const first = Array.from({ length: 5 }, (_, i) => eventAt(i));
  await ingestOk(server, w.key, first);
  await eventually('the first events in ClickHouse', count, (n) => n === 5);
  t.same(await server.running.services.events.size(w.project.id), { events: 5 });
  t.same(await server.running.services.events.newestReceipt(), server.clock.now(), 'the newest receipt is the test clock at ingest');

  const segmentation = await server.request('POST', `/api/v1/projects/${w.project.id}/queries/segmentation`, {
    token: w.viewer,
    body: { date_from: '2026-11-01', date_to: '2026-11-02', metric: 'events', event: 'view' },
  });
  t.equal(segmentation.status, 200, 'an insight the engine has statements for');
  t.same(
    segmentation.body.series[0].points.map((p: { value: number }) => p.value),
    [0, 5],
  );
  const ownerToken = await accessTokenFor(server, w.owner, w.org);
  const exported = await server.request('POST', exportsPath(w.project.id), { token: ownerToken, body: { format: 'ndjson' } });
  t.equal(exported.status, 202, 'an export is taken');
  const exportJob = await jobEnded(server, ownerToken, `${exportsPath(w.project.id)}/${exported.body.id}`);
  t.match(exportJob, { state: 'succeeded', events: 5 }, 'and written');
  const lines = (await (await fetch(server.url + exportJob.download_url)).text()).trim().split('\n');
  t.same(
    lines.map((l) => JSON.parse(l).uuid),
    first.map((e) => e.uuid),
    'every event once, in time order',
  );

  const identify = await server.request('POST', '/v1/identify', { token: w.key.value, body: { anonymous_id: 'u1', user_id: 'alice' } });
  t.equal(identify.status, 202, 'identity links are kept on ClickHouse');

  // A DateTime ends in 2106: an event timed later is refused, not acknowledged and then never loaded.
  const lastSecond = { ...eventAt(5), ts: '2106-02-07T06:28:15.999Z' };
  const far = await ingestEvents(server, w.key, [lastSecond, { ...eventAt(6), ts: '2200-01-01T00:00:00Z' }]);
  t.equal(far.status, 202);
  t.same(
    far.body.rejected.map((r: { index: number; code: string }) => [r.index, r.code]),
    [[1, 'invalid_field']],
    'the event past 2106 refused, the one in its last second taken',
  );
  t.match(far.body.rejected[0].message, /before 2106-02-07T06:28:16/);
  await eventually('the event of the last second in ClickHouse', count, (n) => n === 6);

  await node.stop();
  const health = await server.request('GET', '/api/v1/health?ready=1');
  t.equal(health.status, 503, 'not ready while ClickHouse is down');
  t.equal(health.body.error.details.clickhouse, 'unavailable', 'and says which store');
  const held = Array.from({ length: 4 }, (_, i) => eventAt(10 + i));
  const answer = await ingestEvents(server, w.key, held.slice(0, 2));
  t.equal(answer.status, 202, 'ingestion still acknowledges');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal((await ingestEvents(server, w.key, held.slice(2))).status, 202, 'and again, while the first held batch waits');

  const listed = await server.request('GET', w.eventsPath, { token: w.viewer });
  t.equal(listed.status, 503, 'a read answers 503 while ClickHouse is down');
  t.equal(listed.body.error.code, 'unavailable');

  const restarted = await ClickHouseNode.start({ dir: node.dir, httpPort: node.httpPort, tcpPort: node.tcpPort, lean: true });
  ch.nodes[0] = restarted;
  await eventually(
    'the held events loaded',
    () => (async () => Number((await restarted.query(`SELECT count() FROM ${DATABASE}.events`)).trim()))(),
    (n) => n >= 10,
    30_000,
  );
  await eventually(
    'ready again',
    async () => (await server.request('GET', '/api/v1/health?ready=1')).status,
    (s) => s === 200,
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const ids = (await restarted.query(`SELECT toString(uuid) FROM ${DATABASE}.events FORMAT TSV`)).trim().split('\n').sort();
  t.same(ids, [...first, lastSecond, ...held].map((e) => e.uuid).sort(), 'every acknowledged event stored exactly once');
  const list = await server.request('GET', `${w.eventsPath}?limit=100`, { token: w.viewer });
  t.same(list.body.items.map((e: { uuid: string }) => e.uuid).sort(), ids, 'the events list shows each once');
  t.notOk(
    server.logs.some((l) => String(l.msg).includes('set aside')),
    'nothing was set aside',
  );
});

t.test('the ClickHouse engine: a read past its time limit answers 408, writer turns run one at a time', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const { engine } = await ClickHouseEngine.open({ urls: ch.urls, cluster: undefined, database: 'pp_engine', user: 'default' });
  t.teardown(() => engine.close());
  await t.rejects(engine.read('SELECT sleep(2) AS s', [], { timeoutMs: 200 }), { status: 408, code: 'query_timeout' });
  t.same(await engine.read('SELECT 1 AS one', [], { timeoutMs: 2000 }), [{ one: 1 }], 'a read within its limit answers');
  t.same(await engine.size(), { events: 0 });
  t.equal(await engine.newestReceipt(), null, 'no receipt before any event');

  const order: string[] = [];
  const turn = (name: string, ms: number) =>
    engine.useWriter(async () => {
      order.push(`${name} starts`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name} ends`);
    });
  const before = await engine.dataVersion(1);
  await Promise.all([turn('a', 50), turn('b', 0)]);
  t.same(order, ['a starts', 'a ends', 'b starts', 'b ends']);
  t.not(await engine.dataVersion(1), before, 'a writer turn moves the data version');
  t.same(await engine.readChunks('SELECT 1 AS x', [], {}, (rows) => rows), [{ x: 1 }], 'a chunked read hands over the rows');
});

t.test('events acknowledged while ClickHouse is down and the server stops meanwhile load at the next start, once', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const node = ch.nodes[0]!;
  const settings = { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_restart' };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-test-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestServer(t, { settings, dataDir });
  const w = await eventsTenant(first);
  const sent = Array.from({ length: 3 }, (_, i) => eventAt(i));
  await ingestOk(first, w.key, sent.slice(0, 1));
  await node.stop();
  await ingestOk(first, w.key, sent.slice(1));
  const stopping = performance.now();
  await first.close();
  t.ok(performance.now() - stopping < 10_000, 'the server stops without waiting for ClickHouse');

  const restarted = await ClickHouseNode.start({ dir: node.dir, httpPort: node.httpPort, tcpPort: node.tcpPort, lean: true });
  ch.nodes[0] = restarted;
  const second = await startTestServer(t, { settings, dataDir });
  const list = await eventually(
    'the held events listed',
    async () => (await second.request('GET', w.eventsPath, { token: w.viewer })).body.items as Array<{ uuid: string }>,
    (items) => items.length >= 3,
  );
  t.same(list.map((e) => e.uuid).sort(), sent.map((e) => e.uuid).sort(), 'each acknowledged event once');
});
