// The ClickHouse the engine's tests run on: one node, and ZooKeeper with 2 shards × 2 replicas,
// started from Debian's packages on loopback ports, answering through a Distributed table, and gone
// without a trace once stopped.

import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { startClickHouse, type ClickHouseCluster } from './clickhouseCluster.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopsCleanly(t: Test, cluster: ClickHouseCluster): Promise<void> {
  const pids = [...cluster.nodes.map((n) => n.pid), ...(cluster.zookeeper ? [cluster.zookeeper.pid] : [])];
  t.ok(pids.every(alive), 'every process runs');
  await cluster.stop();
  t.same(pids.filter(alive), [], 'no process is left');
  t.notOk(existsSync(cluster.dir), 'no file is left');
}

t.test('one node', async (t) => {
  const ch = await startClickHouse(t, 'single');
  t.comment(`one node started in ${Math.round(ch.startMs)} ms`);
  t.equal(ch.urls.length, 1);
  t.equal(ch.cluster, undefined);
  const [node] = ch.nodes;
  t.match(await node!.query('SELECT version()'), /^\d+\.\d+/);
  await node!.query('CREATE TABLE default.t (k UInt64) ENGINE = MergeTree ORDER BY k');
  await node!.query('INSERT INTO default.t SELECT number FROM system.numbers LIMIT 1000');
  t.equal((await node!.query('SELECT count(), sum(k) FROM default.t')).trim(), '1000\t499500');
  await stopsCleanly(t, ch);
});

t.test('2 shards × 2 replicas with ZooKeeper: a Distributed table over replicated local tables', async (t) => {
  const ch = await startClickHouse(t, 'replicated');
  t.comment(`ZooKeeper and four nodes started in ${Math.round(ch.startMs)} ms`);
  t.equal(ch.urls.length, 4);
  t.equal(ch.cluster, 'pp_test');
  const [first] = ch.nodes;
  const clusters = await first!.query("SELECT shard_num, replica_num FROM system.clusters WHERE cluster = 'pp_test' ORDER BY shard_num, replica_num");
  t.equal(clusters.trim(), '1\t1\n1\t2\n2\t1\n2\t2', 'every node sees 2 shards of 2 replicas');
  await first!.query('CREATE DATABASE IF NOT EXISTS c ON CLUSTER pp_test');
  await first!.query("CREATE TABLE c.t_local ON CLUSTER pp_test (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/test/tables/{shard}/t_local', '{replica}') ORDER BY k");
  await first!.query('CREATE TABLE c.t ON CLUSTER pp_test AS c.t_local ENGINE = Distributed(pp_test, c, t_local, intHash64(k))');
  await first!.query('INSERT INTO c.t SELECT number FROM system.numbers LIMIT 1000', { insert_distributed_sync: 1 });
  // The insert reached one replica of each shard; the other fetches the part from it.
  for (const node of ch.nodes) await node.query('SYSTEM SYNC REPLICA c.t_local');
  const local: number[] = [];
  for (const node of ch.nodes) {
    local.push(Number(await node.query('SELECT count() FROM c.t_local')));
    t.equal((await node.query('SELECT count(), sum(k) FROM c.t')).trim(), '1000\t499500', `node ${node.url} reads every row through the Distributed table`);
  }
  t.equal(local[0], local[1], "shard 1's replicas hold the same rows");
  t.equal(local[2], local[3], "shard 2's replicas hold the same rows");
  t.equal(local[0]! + local[2]!, 1000, 'the shards split the rows');
  t.ok(local[0]! > 0 && local[2]! > 0, 'each shard holds some');
  await stopsCleanly(t, ch);
});
