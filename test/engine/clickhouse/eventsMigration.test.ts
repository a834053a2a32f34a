// `ppctl events migrate --to clickhouse`: a DuckDB store of several projects and days (with refused
// attempts, identity links and traits) moved to ClickHouse, the command killed after its first
// checkpoint and run again, every count agreeing and the installation switched over. On 2 shards ×
// 2 replicas (eventsMigrationKit.ts, run in test/queries/sharded.test.ts) the same, and a store
// whose counts disagree with what ClickHouse holds is not switched.

import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../../server/ground/config.js';
import { CHECKPOINT_FILE } from '../../../installer/eventsMigration.js';
import { startTestServer } from '../../support/testServer.js';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { bareEnv, DAYS, expectedDays, heldDays, migrateArgs, PROJECTS, run, seedStore } from './eventsMigrationKit.js';

t.setTimeout(300_000);

t.test('one node: killed after its first checkpoint, run again, every count agrees and the installation is switched', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const { dataDir, configFile, events } = await seedStore(t);

  const server = await startTestServer(t, { dataDir });
  const refused = await run(migrateArgs(ch, configFile, 'pp_move'));
  t.equal(refused.code, 1);
  t.match(refused.stderr, new RegExp(`pp \\S+ is running on ${dataDir} \\(pid \\d+\\); stop it first`), 'refused while a server holds the DuckDB file');
  await server.close();

  // Small blocks, so the kill lands mid-way.
  const first = spawn(process.execPath, migrateArgs(ch, configFile, 'pp_move', '--block-rows', '10', '--json'), { env: bareEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  first.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = createInterface({ input: first.stdout! });
  const checkpointed = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.day) resolve(parsed);
    });
    first.once('exit', (code) => reject(new Error(`exited ${code} before its first checkpoint: ${stderr}`)));
  });
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('close', resolve));
  t.match(checkpointed, { project_id: 1, day: DAYS[0], events: 22 }, 'the first day copied');
  const saved = JSON.parse(readFileSync(path.join(dataDir, CHECKPOINT_FILE), 'utf8')) as { done: Record<string, number> };
  const doneBefore = Object.keys(saved.done).length;
  t.ok(doneBefore >= 1 && doneBefore < PROJECTS.length * DAYS.length, `killed part-way (${doneBefore} days done)`);
  t.equal(JSON.parse(readFileSync(configFile, 'utf8')).events.engine, undefined, 'not switched by a run cut short');

  const second = await run(migrateArgs(ch, configFile, 'pp_move', '--json'));
  t.equal(second.code, 0, second.stderr);
  const outLines = second.stdout.trim().split('\n');
  t.match(JSON.parse(outLines[0]!), { resumed: doneBefore }, 'resumed from the checkpoint');
  const report = JSON.parse(outLines.at(-1)!) as Record<string, unknown>;
  t.match(report, { events: events.length, days: 12, rejections: 9, identity_links: 18, actor_traits: 3, mismatches: [], switched: true, config_file: configFile });
  t.equal(await heldDays(ch, 'pp_move'), expectedDays(events), 'every project and day, once');
  t.equal((await ch.nodes[0]!.query('SELECT count() FROM pp_move.events FORMAT TSV')).trim(), String(events.length), 'no row stored twice, even without FINAL');

  // The rows are those DuckDB held, field by field.
  const click = events.find((e) => e.event === 'pp.click' && e.invalid)!;
  const [row] = (
    await ch.nodes[0]!.query(
      `SELECT toString(uuid) AS uuid, toUInt64(ts) * 1000 + intDiv(ts_us, 1000) AS ms, props, elements, el_tags, el_classes, el_text, invalid_reasons, revenue, toString(distinct_key) AS dk FROM pp_move.events WHERE uuid = '${click.uuid}' FORMAT JSONEachRow`,
    )
  )
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  t.same(row, {
    uuid: click.uuid,
    ms: String(click.ts.getTime()),
    props: click.props,
    elements: click.elements,
    el_tags: click.el_tags,
    el_classes: click.el_classes,
    el_text: click.el_text,
    invalid_reasons: ['ts_in_future'],
    revenue: click.revenue,
    dk: String(click.distinct_key),
  });
  t.equal(
    await ch.nodes[0]!.query("SELECT distinct_id, actor_id, toString(linked_at), linked_us FROM pp_move.identity_links FINAL WHERE project_id = 2 AND distinct_id = 'user-2-4' FORMAT TSV"),
    'user-2-4\tactor-2-1\t2026-03-29 12:00:00\t123456\n',
  );

  const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, Record<string, unknown>>;
  t.same(config.events, { memory_limit_mb: 256, engine: 'clickhouse' }, 'the switch, other event settings kept');
  t.same(config.clickhouse, { urls: ch.urls, database: 'pp_move', user: 'default' });
  t.equal(config.data_dir as unknown, dataDir);
  t.notOk(existsSync(path.join(dataDir, CHECKPOINT_FILE)), 'the checkpoint is put away once switched');
  const loaded = loadConfig({ configFile, env: {} });
  t.equal(loaded.events.engine, 'clickhouse');

  const again = await run(migrateArgs(ch, configFile, 'pp_move'));
  t.equal(again.code, 1);
  t.match(again.stderr, /are on ClickHouse already/, 'a switched installation is not moved again');
});

t.test('one node: a day no run began is copied without looking up the uuids already held', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const { configFile, events } = await seedStore(t);
  const selects = async () => Number((await ch.nodes[0]!.query("SELECT value FROM system.events WHERE event = 'SelectQuery' FORMAT TSV")).trim() || 0);
  const before = await selects();
  // One event per block: a look-up per block would be a statement per event.
  const moved = await run(migrateArgs(ch, configFile, 'pp_fresh', '--block-rows', '1', '--json'));
  t.equal(moved.code, 0, moved.stderr);
  t.match(JSON.parse(moved.stdout.trim().split('\n').at(-1)!), { events: events.length, mismatches: [], switched: true });
  t.equal((await ch.nodes[0]!.query('SELECT count() FROM pp_fresh.events FORMAT TSV')).trim(), String(events.length), 'every event once');
  const statements = (await selects()) - before;
  t.ok(statements < events.length / 2, `${statements} SELECTs for ${events.length} blocks of ${PROJECTS.length * DAYS.length} days`);
});
