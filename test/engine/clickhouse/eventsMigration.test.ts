// `ppctl events migrate --to clickhouse`: a DuckDB store of several projects and days (with refused
// attempts, identity links and traits) moved to ClickHouse, the command killed after its first
// checkpoint and run again, every count agreeing and the installation switched over; on 2 shards ×
// 2 replicas the same, and a store whose counts disagree with what ClickHouse holds is not switched.

import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../../server/ground/config.js';
import { openServices } from '../../../server/openServices.js';
import { createLogger } from '../../../server/ground/logger.js';
import { distinctKey } from '../../../server/ingest/distinctKey.js';
import { elementColumns } from '../../../server/ingest/elementColumns.js';
import type { StoredEvent, StoredRejection } from '../../../server/engine/rows.js';
import { CHECKPOINT_FILE } from '../../../installer/eventsMigration.js';
import { outputOf, PPCTL } from '../../support/ppctl.js';
import { tempDir } from '../../support/tempDir.js';
import { startTestServer } from '../../support/testServer.js';
import { startClickHouse, type ClickHouseCluster } from '../../support/clickhouseCluster.js';

t.setTimeout(300_000);

const bareEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))) as Record<string, string>;
const PROJECTS = [1, 2, 3];
const DAYS = ['2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31'];

const uuidOf = (n: number) => `0000${n.toString(16).padStart(4, '0')}-aaaa-4bbb-8ccc-${n.toString(16).padStart(12, '0')}`;

/** The seeded events: a different number per project and day, some clicks with their element columns, some invalid. */
function seedEvents(): StoredEvent[] {
  const events: StoredEvent[] = [];
  let n = 1;
  for (const project of PROJECTS) {
    DAYS.forEach((day, d) => {
      const count = 15 + project * 7 + d * 5;
      for (let i = 0; i < count; i++, n++) {
        const distinct = `user-${project}-${i % 9}`;
        const click = i % 4 === 0;
        const elements = click ? [{ tag_name: 'button', attr_id: `b${i}`, classes: ['x', 'y'], text: `Go "${i}" ✓`, nth_child: 2 }] : null;
        const ts = new Date(Date.parse(`${day}T00:00:00Z`) + ((i * 997_013) % 86_400_000));
        events.push({
          project_id: project,
          uuid: uuidOf(n),
          ts,
          received_at: new Date(ts.getTime() + 1500),
          event: click ? 'pp.click' : i % 3 ? 'view' : 'signup',
          distinct_id: distinct,
          distinct_key: distinctKey(distinct),
          anonymous_id: distinct,
          user_id: i % 5 === 0 ? `u-${i}` : null,
          session_id: `s-${i % 4}`,
          source: 'web',
          sdk_name: 'pp-browser',
          sdk_version: '1.2.3',
          key_id: 'key-1',
          release: null,
          url: `https://example.com/p/${i}`,
          path: `/p/${i}`,
          referrer: null,
          props: JSON.stringify({ plan: i % 2 ? 'pro' : 'free', n: i, quote: "it's" }),
          revenue: i % 7 === 0 ? i * 1.25 : null,
          elements: elements ? JSON.stringify(elements) : null,
          invalid: i % 11 === 0,
          invalid_reasons: i % 11 === 0 ? ['ts_in_future'] : null,
          ...(click ? elementColumns('pp.click', elements) : {}),
        });
      }
    });
  }
  return events;
}

function seedRejections(): StoredRejection[] {
  return PROJECTS.flatMap((project) =>
    [0, 1, 2].map((i) => ({
      project_id: project,
      received_at: new Date(Date.UTC(2026, 2, 29, 10, 0, i)),
      request_id: `req-${project}-${i}`,
      event_index: i === 2 ? null : i,
      operation: 'batch',
      key_id: 'key-1',
      source: 'web',
      sdk_name: null,
      sdk_version: null,
      event: i === 2 ? null : 'view',
      code: 'invalid_event',
      message: 'event is missing',
    })),
  );
}

/** A DuckDB store seeded through the DuckDB appender (and its identity tables), with a config file naming it. */
async function seedStore(t: Test, leaveOut?: string): Promise<{ dataDir: string; configFile: string; events: StoredEvent[] }> {
  const dir = await tempDir(t, 'pp-move-');
  const dataDir = path.join(dir, 'data');
  const configFile = path.join(dir, 'pp.json');
  writeFileSync(configFile, JSON.stringify({ data_dir: dataDir, log_level: 'warn', events: { memory_limit_mb: 256 } }, null, 2) + '\n', { mode: 0o600 });
  const opened = await openServices(loadConfig({ configFile, env: {} }), { log: createLogger('error') });
  const events = seedEvents().filter((e) => e.uuid !== leaveOut);
  try {
    const engine = opened.services.events;
    for (let at = 0; at < events.length; at += 200)
      await engine.useWriter((conn) => engine.appender.append(conn, { events: events.slice(at, at + 200), rejections: at === 0 ? seedRejections() : [] }));
    for (const project of PROJECTS) {
      await engine.write(
        `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
           SELECT ${project}, 'user-${project}-' || i, 'actor-${project}-' || (i % 3), TIMESTAMPTZ '2026-03-29 12:00:00.123456+00', md5_number_lower('user-${project}-' || i), md5_number_lower('actor-${project}-' || (i % 3)) FROM range(6) t(i)`,
      );
      await engine.write(`INSERT INTO actor_traits VALUES (${project}, 'u-0', '{"email":"a@example.com","n":${project}}', TIMESTAMPTZ '2026-03-30 08:00:00+00')`);
    }
  } finally {
    await opened.close();
  }
  return { dataDir, configFile, events };
}

function expectedDays(events: StoredEvent[]): string {
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.project_id}\t${e.ts.toISOString().slice(0, 10)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}\t${n}\n`).join('');
}

const migrateArgs = (ch: ClickHouseCluster, configFile: string, database: string, ...extra: string[]) => [
  PPCTL,
  'events',
  'migrate',
  '--to',
  'clickhouse',
  '--config',
  configFile,
  '--clickhouse-urls',
  ch.urls.join(','),
  '--clickhouse-database',
  database,
  ...(ch.cluster ? ['--clickhouse-cluster', ch.cluster] : []),
  ...extra,
];

const run = (args: string[]) => outputOf(spawn(process.execPath, args, { env: bareEnv, stdio: ['ignore', 'pipe', 'pipe'] }));

async function heldDays(ch: ClickHouseCluster, database: string): Promise<string> {
  return ch.nodes[0]!.query(
    `SELECT project_id, substring(toString(toStartOfDay(ts)), 1, 10) AS day, count() FROM ${database}.events FINAL GROUP BY project_id, day ORDER BY project_id, day FORMAT TSV`,
  );
}

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

t.test('2 shards × 2 replicas: moved and switched; a store whose counts disagree with ClickHouse is not switched', async (t) => {
  const ch = await startClickHouse(t, 'replicated');
  const moved = await seedStore(t);
  const done = await run(migrateArgs(ch, moved.configFile, 'pp_cluster'));
  t.equal(done.code, 0, done.stderr);
  t.match(done.stdout, /^project 1 2026-03-28: 22 events copied \(22 of \d+\)$/m, 'plain progress lines when not on a terminal');
  t.match(done.stdout, /every count agrees; .* now sets events\.engine clickhouse/);
  t.equal(await heldDays(ch, 'pp_cluster'), expectedDays(moved.events));

  // Another store, one event short of what the database now holds: the counts cannot agree.
  const missing = moved.events.find((e) => e.project_id === 2 && e.ts.toISOString().startsWith(DAYS[2]!))!;
  const short = await seedStore(t, missing.uuid);
  const refused = await run(migrateArgs(ch, short.configFile, 'pp_cluster', '--json'));
  t.equal(refused.code, 1);
  const report = JSON.parse(refused.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  const perDay = expectedDays(moved.events)
    .split('\n')
    .find((l) => l.startsWith(`2\t${DAYS[2]}\t`))!
    .split('\t')[2];
  t.match(report, { switched: false, mismatches: [{ what: 'events', project_id: 2, day: DAYS[2], duckdb: Number(perDay) - 1, clickhouse: Number(perDay) }] });
  t.equal((report.mismatches as unknown[]).length, 1, 'only that day disagrees');
  t.equal(JSON.parse(readFileSync(short.configFile, 'utf8')).events.engine, undefined, 'not switched');
  const text = await run(migrateArgs(ch, short.configFile, 'pp_cluster'));
  t.equal(text.code, 1);
  t.match(text.stdout, `events of project 2 on ${DAYS[2]}: ${Number(perDay) - 1} / ${perDay}`);
  t.match(text.stdout, 'the counts disagree; the installation still uses DuckDB');
});
