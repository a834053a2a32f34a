// The live stream and deleting a project answer the same on ClickHouse as on DuckDB: a DuckDB server
// and a ClickHouse server take the same identify and events while a stream is open, and send the
// same messages (each event as the list shows it, with its linked actor); then the project is
// deleted: the stream ends, its events are answered nowhere (the list, the doctor view, the
// catalogs, the insights: 404), and the recordings sweep deletion queues finishes on both.

import t from 'tap';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { accessTokenFor } from '../../support/factories.js';
import { eventsTenant, ingestOk, qs, uuidOf } from '../../events/eventsKit.js';
import { openSse, waitFor } from '../../events/sseClient.js';
import { REPLAY_SWEEP } from '../../../server/store/replaySweep.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');

async function scenario(server: TestServer): Promise<unknown> {
  const w = await eventsTenant(server);
  const owner = await accessTokenFor(server, w.owner, w.org);
  const path = `/api/v1/projects/${w.project.id}`;
  await ingestOk(server, w.key, [{ uuid: uuidOf(1), event: 'before', anonymous_id: 'x' }]);
  const client = await openSse(`${server.url}${path}/events/stream`, w.viewer);
  await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
  const identify = await server.request('POST', '/v1/identify', { token: w.key.value, body: { anonymous_id: 'anon-s', user_id: 'sam' } });
  await ingestOk(server, w.key, [
    { uuid: uuidOf(2), event: 'first', anonymous_id: 'anon-s', props: { a: 1 }, url: 'https://shop.example/p?q=1' },
    { uuid: uuidOf(3), event: 'second', user_id: 'sam', props: { revenue: 'x' } },
  ]);
  await ingestOk(server, w.key, [{ uuid: uuidOf(4), event: 'third', anonymous_id: 'z', ts: '2026-11-02T11:00:00Z' }]);
  await client.waitFor(() => client.messages.length >= 3);
  const before = await server.request('GET', `${path}/events`, { token: w.viewer });

  const deleted = await server.request('DELETE', path, { token: owner });
  const ended = await Promise.race([client.ended.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 3000))]);
  client.close();
  const after = {
    list: (await server.request('GET', `${path}/events`, { token: owner })).status,
    doctor: (await server.request('GET', `${path}/events${qs({ view: 'doctor', from: '2026-11-02T11:00:00Z', to: '2026-11-02T12:00:00Z' })}`, { token: owner })).status,
    eventCatalog: (await server.request('GET', `${path}/catalog/events`, { token: owner })).status,
    propertyCatalog: (await server.request('GET', `${path}/catalog/props`, { token: owner })).status,
    activity: (await server.request('POST', `${path}/queries/activity-summary`, { token: owner, body: { date_to: '2026-11-02' } })).status,
    stream: (await openSse(`${server.url}${path}/events/stream`, owner)).status,
  };
  const meta = server.running.services.meta;
  const sweep = () => meta.prepare('SELECT state, error FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT 1').get(REPLAY_SWEEP) as { state: string; error: string | null };
  await waitFor(() => ['succeeded', 'failed'].includes(sweep().state), 10_000);
  return { identify: identify.status, messages: client.messages.map((m) => [m.event, m.data]), listed: before.body.items, deleted: deleted.status, ended, after, sweep: sweep() };
}

t.test('the live stream and deleting a project on ClickHouse answer as on DuckDB', async (t) => {
  const duckdb = (await scenario(await startTestServer(t, { now: T0 }))) as any;
  t.equal(duckdb.messages.length, 3, 'DuckDB streams the three events after connecting');
  t.same(
    duckdb.messages.map((m: [string, { actor_id: string }]) => m[1].actor_id),
    ['sam', 'sam', 'z'],
    'each with its linked actor',
  );
  t.same(duckdb.after, { list: 404, doctor: 404, eventCatalog: 404, propertyCatalog: 404, activity: 404, stream: 404 }, 'a deleted project answers nothing');
  t.equal(duckdb.ended, true, 'the stream ends with the project');
  t.equal(duckdb.sweep.state, 'succeeded');

  const ch = await startClickHouse(t, 'single');
  const server = await startTestServer(t, { now: T0, settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_stream' } });
  t.same(await scenario(server), duckdb, 'the same messages, deletion and sweep on ClickHouse');
});
