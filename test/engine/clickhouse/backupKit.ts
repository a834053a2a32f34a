// What the backup tests share: the installation's database, its events over two partitions, and
// what it holds read directly; and the case on 2 shards × 2 replicas, which runs in
// test/queries/sharded.test.ts on the cluster that file starts once (in a database of its own).

import type { Test } from 'tap';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ClickHouseCluster, ClickHouseNode } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { tempDir } from '../../support/tempDir.js';
import { eventually } from '../../support/eventually.js';
import { allPages, eventsTenant, ingestOk, type EventsTenant } from '../../events/eventsKit.js';
import { loadConfig } from '../../../server/ground/config.js';
import { createBackup } from '../../../installer/backup.js';
import { restoreBackup } from '../../../installer/restore.js';

export const DATABASE = 'pp_backup';
export const SECRET = 'the secret the backup keeps';

/** Events over two months (two partitions) of a few visitors, one of them identified later. */
export function events(n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({
    uuid: randomUUID(),
    event: i % 4 ? 'view' : 'signup',
    anonymous_id: `visitor-${i % 7}`,
    props: { n: i, price: i / 8, tags: ['a', i % 2 ? null : 'b'] },
    ts: new Date(Date.UTC(2026, 9, 30, 10) + i * 3_600_000).toISOString(),
  }));
}

/** What the installation answers and holds: the events list, and the identity tables read directly. */
export async function state(server: TestServer, w: EventsTenant, node: ClickHouseNode) {
  const list = (await allPages(server, w.viewer, w.eventsPath, { limit: 50, date_from: '2026-10-01', date_to: '2026-11-30' })).items;
  const links = await node.query(`SELECT distinct_id, actor_id, version FROM ${DATABASE}.identity_links FINAL ORDER BY distinct_id FORMAT TSV`);
  const traits = await node.query(`SELECT user_id, traits FROM ${DATABASE}.actor_traits FINAL ORDER BY user_id FORMAT TSV`);
  return { list, links, traits };
}

/** The events (their uuids, each once), links and traits the database holds, read directly. */
export async function held(node: ClickHouseNode) {
  const uuids = await node.query(`SELECT toString(uuid) AS u FROM ${DATABASE}.events FINAL WHERE project_id > 0 ORDER BY u FORMAT TSV`);
  const links = await node.query(`SELECT distinct_id, actor_id, version FROM ${DATABASE}.identity_links FINAL ORDER BY distinct_id FORMAT TSV`);
  const traits = await node.query(`SELECT user_id, traits FROM ${DATABASE}.actor_traits FINAL ORDER BY user_id FORMAT TSV`);
  return { uuids, links, traits };
}

export const storedCount = async (node: ClickHouseNode) => Number((await node.query(`SELECT count() FROM ${DATABASE}.events FINAL WHERE project_id > 0`)).trim());

/** The 2 × 2 case, on the cluster `cluster` gives. */
export function backupOnCluster(t: Test, cluster: () => Promise<ClickHouseCluster>): void {
  t.test('backup (ppctl): with pp stopped, the database dropped on every node, each row back on its shard', async (t) => {
    const ch = await cluster();
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
}
