// What the `ppctl events migrate` tests share: a DuckDB store of several projects and days (with
// refused attempts, identity links and traits), the command's arguments, and what ClickHouse holds
// per day; and the case on 2 shards × 2 replicas, which runs in test/queries/sharded.test.ts on the
// cluster that file starts once (in a database of its own): moved and switched, and a store whose
// counts disagree with what ClickHouse holds is not switched.

import type { Test } from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../server/ground/config.js';
import { openServices } from '../../../server/openServices.js';
import { createLogger } from '../../../server/ground/logger.js';
import { distinctKey } from '../../../server/ingest/distinctKey.js';
import { elementColumns } from '../../../server/ingest/elementColumns.js';
import type { StoredEvent, StoredRejection } from '../../../server/engine/rows.js';
import { outputOf, PPCTL } from '../../support/ppctl.js';
import { tempDir } from '../../support/tempDir.js';
import type { ClickHouseCluster } from '../../support/clickhouseCluster.js';

export const bareEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))) as Record<string, string>;
export const PROJECTS = [1, 2, 3];
export const DAYS = ['2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31'];

const uuidOf = (n: number) => `0000${n.toString(16).padStart(4, '0')}-aaaa-4bbb-8ccc-${n.toString(16).padStart(12, '0')}`;

/** The seeded events: a different number per project and day, some clicks with their element columns, some invalid. */
export function seedEvents(): StoredEvent[] {
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
export async function seedStore(t: Test, leaveOut?: string): Promise<{ dataDir: string; configFile: string; events: StoredEvent[] }> {
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

export function expectedDays(events: StoredEvent[]): string {
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.project_id}\t${e.ts.toISOString().slice(0, 10)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}\t${n}\n`).join('');
}

export const migrateArgs = (ch: ClickHouseCluster, configFile: string, database: string, ...extra: string[]) => [
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

export const run = (args: string[]) => outputOf(spawn(process.execPath, args, { env: bareEnv, stdio: ['ignore', 'pipe', 'pipe'] }));

export async function heldDays(ch: ClickHouseCluster, database: string): Promise<string> {
  return ch.nodes[0]!.query(
    `SELECT project_id, substring(toString(toStartOfDay(ts)), 1, 10) AS day, count() FROM ${database}.events FINAL GROUP BY project_id, day ORDER BY project_id, day FORMAT TSV`,
  );
}

/** The 2 × 2 case, on the cluster `cluster` gives. */
export function eventsMigrationOnCluster(t: Test, cluster: () => Promise<ClickHouseCluster>): void {
  t.test('ppctl events migrate: moved and switched; a store whose counts disagree with ClickHouse is not switched', async (t) => {
    const ch = await cluster();
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
}
