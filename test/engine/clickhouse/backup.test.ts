// ppctl backup and restore on the ClickHouse engine. One node: a backup taken while the server runs
// (through its admin socket) and one taken with it stopped (as `ppctl upgrade` takes it before it
// migrates) hold the installation's tables; after the database is dropped, restore makes it again
// and fills it, and the server answers the same events list, links and traits; restored again
// over a database with later events, the later ones are gone. A ClickHouse backup is refused by an
// installation on DuckDB. On 2 shards × 2 replicas (backupKit.ts, run in
// test/queries/sharded.test.ts): after the database is dropped on every node, the restore puts each
// row back on the shard its key names, on both replicas, and again over itself.

import t from 'tap';
import path from 'node:path';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer } from '../../support/testServer.js';
import { tempDir } from '../../support/tempDir.js';
import { eventually } from '../../support/eventually.js';
import { eventsTenant, ingestOk } from '../../events/eventsKit.js';
import { loadConfig } from '../../../server/ground/config.js';
import { createBackup } from '../../../installer/backup.js';
import { restoreBackup } from '../../../installer/restore.js';
import { DATABASE, events, SECRET, state, storedCount } from './backupKit.js';

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
