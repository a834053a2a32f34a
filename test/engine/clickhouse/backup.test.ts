// ppctl backup and restore on the ClickHouse engine. One node: a backup taken while the server runs
// (through its admin socket) and one taken with it stopped (as `ppctl upgrade` takes it before it
// migrates) hold the installation's tables; after the database is dropped, restore makes it again
// and fills it, and the server answers the same events list, links and traits; restored again
// over a database with later events, the later ones are gone. A ClickHouse backup is refused by an
// installation on DuckDB. 2 shards × 2 replicas: after the database is dropped on every node, the
// restore puts each row back on the shard its key names, on both replicas, and again over itself.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { startClickHouse, type ClickHouseNode } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { tempDir } from '../../support/tempDir.js';
import { eventually } from '../../support/eventually.js';
import { allPages, eventsTenant, ingestOk, type EventsTenant } from '../../events/eventsKit.js';
import { loadConfig } from '../../../server/ground/config.js';
import { createBackup } from '../../../installer/backup.js';
import { restoreBackup } from '../../../installer/restore.js';

const DATABASE = 'pp_backup';
const SECRET = 'the secret the backup keeps';

/** Events over two months (two partitions) of a few visitors, one of them identified later. */
function events(n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({
    uuid: randomUUID(),
    event: i % 4 ? 'view' : 'signup',
    anonymous_id: `visitor-${i % 7}`,
    props: { n: i, price: i / 8, tags: ['a', i % 2 ? null : 'b'] },
    ts: new Date(Date.UTC(2026, 9, 30, 10) + i * 3_600_000).toISOString(),
  }));
}

/** What the installation answers and holds: the events list, and the identity tables read directly. */
async function state(server: TestServer, w: EventsTenant, node: ClickHouseNode) {
  const list = (await allPages(server, w.viewer, w.eventsPath, { limit: 50, date_from: '2026-10-01', date_to: '2026-11-30' })).items;
  const links = await node.query(`SELECT distinct_id, actor_id, version FROM ${DATABASE}.identity_links FINAL ORDER BY distinct_id FORMAT TSV`);
  const traits = await node.query(`SELECT user_id, traits FROM ${DATABASE}.actor_traits FINAL ORDER BY user_id FORMAT TSV`);
  return { list, links, traits };
}

/** The events (their uuids, each once), links and traits the database holds, read directly. */
async function held(node: ClickHouseNode) {
  const uuids = await node.query(`SELECT toString(uuid) AS u FROM ${DATABASE}.events FINAL WHERE project_id > 0 ORDER BY u FORMAT TSV`);
  const links = await node.query(`SELECT distinct_id, actor_id, version FROM ${DATABASE}.identity_links FINAL ORDER BY distinct_id FORMAT TSV`);
  const traits = await node.query(`SELECT user_id, traits FROM ${DATABASE}.actor_traits FINAL ORDER BY user_id FORMAT TSV`);
  return { uuids, links, traits };
}

const storedCount = async (node: ClickHouseNode) => Number((await node.query(`SELECT count() FROM ${DATABASE}.events FINAL WHERE project_id > 0`)).trim());

t.test('ClickHouse (one node): backups while running and stopped, the database dropped, restored whole', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const node = ch.nodes[0]!;
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const settings = { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': DATABASE };
  const config = loadConfig({ env: {}, flags: { data_dir: dataDir, ...settings } });

  let server = await startTestServer(t, { settings, dataDir });
  const w = await eventsTenant(server);
  const sent = events(60);
  await ingestOk(server, w.key, sent.slice(0, 30));
  await ingestOk(server, w.key, sent.slice(30));
  for (const [anonymous_id, user_id] of [
    ['visitor-1', 'ada'],
    ['visitor-2', 'ada'],
    ['visitor-3', 'grace'],
  ])
    t.equal((await server.request('POST', '/v1/identify', { token: w.key.value, body: { anonymous_id, user_id, traits: { plan: user_id === 'ada' ? 'team' : 'solo' } } })).status, 202);
  await eventually(
    'stored',
    () => storedCount(node),
    (n) => n === sent.length,
  );
  const before = await state(server, w, node);
  t.equal(before.list.length, sent.length, 'the list holds every event');
  t.equal(before.links.trim().split('\n').length, 3, 'three links');

  const live = await createBackup(config, { out: path.join(dir, 'live.tar') });
  t.equal(live.via, 'socket', 'taken by the running server');
  const copies = Object.fromEntries(live.manifest.clickhouse!.tables.map((c) => [c.table, c.rows]));
  t.match(copies, { events: sent.length, identity_links: 3, actor_traits: 2, schema_migrations: live.manifest.migrations.clickhouse!.length }, 'a copy of each table, each row once');
  t.equal(live.manifest.counts.events, sent.length);
  t.notOk(
    live.manifest.files.some((f) => f.name === 'events.duckdb'),
    'no DuckDB file',
  );
  await server.close();

  // What `ppctl upgrade` does at its backup step: the server stopped, the installation opened directly.
  const stopped = await createBackup(config, { out: path.join(dir, 'stopped.tar') });
  t.equal(stopped.via, 'direct', 'taken with the server stopped');
  t.equal(stopped.manifest.counts.events, sent.length);

  await node.query(`DROP DATABASE ${DATABASE}`);
  const restored = await restoreBackup(config, stopped.file);
  t.equal(restored.manifest.clickhouse!.database, DATABASE);
  server = await startTestServer(t, { settings, dataDir });
  t.same(await state(server, w, node), before, 'the same events list, links and traits after the database was dropped');

  // Later events, a later link: restoring the live backup over them brings back the moment it was taken.
  await ingestOk(server, w.key, events(5));
  t.equal((await server.request('POST', '/v1/identify', { token: w.key.value, body: { anonymous_id: 'visitor-4', user_id: 'linus' } })).status, 202);
  await eventually(
    'the later events stored',
    () => storedCount(node),
    (n) => n === sent.length + 5,
  );
  await server.close();
  await restoreBackup(config, live.file);
  server = await startTestServer(t, { settings, dataDir });
  t.same(await state(server, w, node), before, 'restored over later rows: only what the backup held');
  const after = events(3);
  await ingestOk(server, w.key, after);
  await eventually(
    'events sent after the restore stored',
    () => storedCount(node),
    (n) => n === sent.length + 3,
  );
  await server.close();

  const duck = loadConfig({ env: {}, flags: { data_dir: path.join(dir, 'duck') } });
  await t.rejects(restoreBackup(duck, live.file), /holds the events of an installation on ClickHouse \(database pp_backup\): set events\.engine clickhouse/, 'an installation on DuckDB refuses it');
});

t.test('ClickHouse (2 shards × 2 replicas): a backup with pp stopped, the database dropped on every node, each row back on its shard', async (t) => {
  const ch = await startClickHouse(t, 'replicated');
  const node = ch.nodes[0]!;
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const settings = { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.cluster': ch.cluster!, 'clickhouse.database': DATABASE };
  const config = loadConfig({ env: {}, flags: { data_dir: dataDir, ...settings } });
  /** Each node's own rows of events, each once: a replica holds its shard's. */
  const perNode = () => Promise.all(ch.nodes.map(async (n) => Number((await n.query(`SELECT count() FROM ${DATABASE}.events_local FINAL WHERE project_id > 0`)).trim())));

  const server = await startTestServer(t, { settings, dataDir });
  const w = await eventsTenant(server);
  const sent = events(40);
  await ingestOk(server, w.key, sent);
  t.equal((await server.request('POST', '/v1/identify', { token: w.key.value, body: { anonymous_id: 'visitor-1', user_id: 'ada', traits: { plan: 'team' } } })).status, 202);
  await eventually(
    'stored',
    () => storedCount(node),
    (n) => n === sent.length,
  );
  await ch.settle(DATABASE);
  const before = await held(node);
  const shards = await perNode();
  t.ok(shards[0]! > 0 && shards[2]! > 0, `both shards hold events (${shards.join(', ')})`);
  await server.close();

  const backup = await createBackup(config, { out: path.join(dir, 'stopped.tar') });
  t.equal(backup.manifest.clickhouse!.cluster, ch.cluster);
  t.equal(backup.manifest.counts.events, sent.length, 'every shard copied');

  await node.query(`DROP DATABASE ${DATABASE} ON CLUSTER ${ch.cluster}`);
  await restoreBackup(config, backup.file);
  await ch.settle(DATABASE);
  t.same(await perNode(), shards, 'each row back on its own shard, on both replicas');
  t.same(await held(ch.nodes[3]!), before, 'the same events, links and traits');

  await restoreBackup(config, backup.file);
  await ch.settle(DATABASE);
  t.same(await perNode(), shards, 'restored again over itself: each row once');
});
