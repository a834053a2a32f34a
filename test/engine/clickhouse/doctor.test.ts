// `ppctl doctor` and `ppctl migrations` on an installation whose events are on ClickHouse: the
// nodes, their version, the cluster's shards and replicas, the macros, the replicated tables and
// the migrations, on one node and on 2 shards × 2 replicas, and what it says when a node is
// stopped or the cluster's name is wrong.

import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { outputOf, PPCTL } from '../../support/ppctl.js';
import { tempDir } from '../../support/tempDir.js';
import { startClickHouse, type ClickHouseCluster } from '../../support/clickhouseCluster.js';
import { migrationsDir, readMigrations } from '../../../server/store/migrate.js';

t.setTimeout(240_000);

interface Check {
  name: string;
  level: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

const bareEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))) as Record<string, string>;

function settingsOf(ch: ClickHouseCluster, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PP_EVENTS_ENGINE: 'clickhouse',
    PP_CLICKHOUSE_URLS: ch.urls.join(','),
    PP_CLICKHOUSE_DATABASE: 'pp_doctor',
    ...(ch.cluster ? { PP_CLICKHOUSE_CLUSTER: ch.cluster } : {}),
    ...overrides,
  };
}

function ppctl(env: Record<string, string>, ...args: string[]) {
  return outputOf(spawn(process.execPath, [PPCTL, ...args], { env: { ...bareEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

async function doctor(t: Test, dataDir: string, env: Record<string, string>): Promise<{ code: number | null; checks: Check[]; text: string }> {
  // Both at once: doctor only reads, and each run is a process of its own.
  const [json, text] = await Promise.all([ppctl(env, 'doctor', '--json', '--data-dir', dataDir), ppctl(env, 'doctor', '--data-dir', dataDir)]);
  t.equal(text.code, json.code, 'the same exit code as text and as JSON');
  return { code: json.code, checks: JSON.parse(json.stdout) as Check[], text: text.stdout };
}

const find = (checks: Check[], name: string) => checks.find((c) => c.name === name);
const CLICKHOUSE_FILES = readMigrations(migrationsDir('clickhouse')).map((m) => m.name);

t.test('one node: reachable, its version, the migrations before and after they are applied', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const dataDir = await tempDir(t, 'pp-chdoctor-');
  const env = settingsOf(ch);

  const before = await doctor(t, dataDir, env);
  t.match(find(before.checks, 'clickhouse nodes'), { level: 'ok', message: `1 node answers: ${ch.urls[0]}` });
  t.match(find(before.checks, 'clickhouse version'), { level: 'ok', message: /^ClickHouse 18\.16\.\d+/ });
  t.match(find(before.checks, 'migrations'), { level: 'warn', message: /migrations of this release are not applied yet/ }, 'nothing applied yet');
  t.notOk(find(before.checks, 'database duckdb'), 'no DuckDB file is looked for');
  t.notOk(find(before.checks, 'clickhouse cluster'), 'no cluster is checked on one node');

  const migrated = await ppctl(env, 'migrate', '--data-dir', dataDir);
  t.equal(migrated.code, 0, migrated.stderr);
  const after = await doctor(t, dataDir, env);
  t.match(find(after.checks, 'migrations'), { level: 'ok', message: 'all migrations of this release are applied' });
  t.equal(after.checks.filter((c) => c.level === 'fail').length, 0, after.text);
  t.match(after.text, /ok\s+clickhouse nodes\s+1 node answers/);

  const listed = await ppctl(env, 'migrations', '--json', '--data-dir', dataDir);
  t.equal(listed.code, 0, listed.stderr);
  const applied = JSON.parse(listed.stdout) as Record<string, Array<{ name: string }>>;
  t.same(
    applied.clickhouse!.map((m) => m.name),
    CLICKHOUSE_FILES,
    "ClickHouse's migrations listed",
  );
  t.notOk(applied.duckdb, 'not those of an event store it does not use');
  const text = await ppctl(env, 'migrations', '--data-dir', dataDir);
  t.match(text.stdout, /^clickhouse:\n {2}0001_events {2}applied /m);

  // A URL where nothing listens: named, and the exit code says so.
  const wrongUrl = 'http://127.0.0.1:9';
  const broken = await doctor(t, dataDir, settingsOf(ch, { PP_CLICKHOUSE_URLS: `${ch.urls[0]},${wrongUrl}` }));
  t.equal(broken.code, 1);
  t.match(find(broken.checks, 'clickhouse nodes'), {
    level: 'fail',
    message: new RegExp(`^a node does not answer: ${wrongUrl.replaceAll('.', '\\.')} \\(.*ECONNREFUSED.*\\); pp uses the others meanwhile; 1 of 2 answer`),
  });
});

t.test('2 shards × 2 replicas: the cluster, the macros and the replicas; then a wrong cluster name and a stopped node', async (t) => {
  const ch = await startClickHouse(t, 'replicated');
  const dataDir = await tempDir(t, 'pp-chdoctor-');
  const env = settingsOf(ch);
  const migrated = await ppctl(env, 'migrate', '--data-dir', dataDir);
  t.equal(migrated.code, 0, migrated.stderr);

  const healthy = await doctor(t, dataDir, env);
  t.equal(healthy.checks.filter((c) => c.level === 'fail').length, 0, healthy.text);
  t.match(find(healthy.checks, 'clickhouse nodes'), { level: 'ok', message: /^4 nodes answer/ });
  t.match(find(healthy.checks, 'clickhouse cluster'), { level: 'ok', message: 'cluster pp_test: 2 shards × 2 replicas, every replica answers' });
  t.match(find(healthy.checks, 'clickhouse macros'), { level: 'ok', message: /^\{shard\} and \{replica\} on every node that answers \(01\/r1, 01\/r2, 02\/r1, 02\/r2\)$/ });
  t.match(find(healthy.checks, 'clickhouse replicas'), { level: 'ok', message: /^\d+ replicated tables writable and up to date$/ });
  t.match(find(healthy.checks, 'migrations'), { level: 'ok' });
  t.notOk(find(healthy.checks, 'clickhouse urls'), 'every node is listed');

  const fewer = await doctor(t, dataDir, settingsOf(ch, { PP_CLICKHOUSE_URLS: ch.urls.slice(0, 2).join(',') }));
  t.match(find(fewer.checks, 'clickhouse urls'), { level: 'warn', message: "clickhouse.urls names 2 of the cluster's 4 nodes; pp moves only between those when one stops answering" });

  const misnamed = await doctor(t, dataDir, settingsOf(ch, { PP_CLICKHOUSE_CLUSTER: 'pp_tset' }));
  t.equal(misnamed.code, 1);
  t.match(find(misnamed.checks, 'clickhouse cluster'), { level: 'fail', message: /^clickhouse\.cluster pp_tset is not in the remote_servers of http:\/\/127\.0\.0\.1:\d+ \(its clusters: pp_test\);/ });
  t.match(misnamed.text, /fail\s+clickhouse cluster\s+clickhouse\.cluster pp_tset is not in the remote_servers/);

  const stopped = ch.nodes[3]!;
  await stopped.stop();
  const down = await doctor(t, dataDir, env);
  t.equal(down.code, 1);
  t.match(find(down.checks, 'clickhouse nodes'), { level: 'fail', message: new RegExp(`^a node does not answer: ${stopped.url.replaceAll('.', '\\.')} \\(`) });
  t.match(find(down.checks, 'clickhouse cluster'), {
    level: 'fail',
    message: new RegExp(`^cluster pp_test \\(2 shards × 2 replicas\\): a replica does not answer: shard 2 replica 2 \\(127\\.0\\.0\\.1:${stopped.tcpPort}\\): .*Connection refused`),
  });
  t.match(find(down.checks, 'clickhouse macros'), { level: 'ok', message: /\(01\/r1, 01\/r2, 02\/r1\)$/ }, 'the nodes that answer');
  t.match(find(down.checks, 'clickhouse replicas'), { level: 'warn', message: /sees 1 of its 2 replicas/ }, 'its partner sees it gone');
});
