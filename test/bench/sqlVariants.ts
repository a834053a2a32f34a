// Prototypes of query-engine changes, measured without touching server/: the SQL server/queries
// builds for each bench case runs directly in DuckDB on a store a bench run left behind
// (`--keep-data`), next to the same SQL with one change applied, and the answers must be identical.
//
//   node dist/test/bench/sqlVariants.js --data-dir /tmp/pp-bench/pp-10M [--memory]
//
// With --memory, each variant also runs in a fresh process per DuckDB memory_limit, reporting its
// peak RSS.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { BuiltSql } from '../../server/engine/sql.js';
import type { QueryContext } from '../../server/queries/context.js';
import { buildFunnelSql } from '../../server/queries/funnel/statements.js';
import { buildRetentionSql } from '../../server/queries/retention/statements.js';
import { buildRetentionActorsSql } from '../../server/queries/retentionActors/statements.js';
import { buildSegmentationSql } from '../../server/queries/segmentation/statements.js';
import { buildLifecycleSql } from '../../server/queries/lifecycle/statements.js';
import { buildStickinessSql } from '../../server/queries/stickiness/statements.js';
import { buildActivitySummarySql } from '../../server/queries/activitySummary/statements.js';
import { buildRevenueSummarySql } from '../../server/queries/revenueSummary/statements.js';
import { CASES, MAIN_PROJECT } from './cases.js';
import { median } from './queryBench.js';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '3' },
    memory: { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});

/** The request bodies of the bench cases with the defaults the server's schemas fill in. */
function builtSql(ctx: QueryContext): Record<string, BuiltSql> {
  const body = (kind: string) => CASES.find((c) => c.kind === kind)!.pp({ projectId: ctx.projectId, timezone: ctx.timezone, today: '' }).body as any;
  const range = (b: any) => ({ date_from: b.date_from, date_to: b.date_to });
  const funnel = { count_by: 'actors', value: 'actors', dropped_limit: 50, ...body('funnel') };
  const retention = { value: 'actors', ...body('retention') };
  return {
    funnel: buildFunnelSql(funnel, range(funnel), ctx).aggregate,
    retention: buildRetentionSql(retention, range(retention), ctx),
    retention_actors: buildRetentionActorsSql(body('retention_actors'), ctx, undefined),
    segmentation: buildSegmentationSql(body('segmentation'), range(body('segmentation')), ctx),
    segmentation_property: buildSegmentationSql(body('segmentation_property'), range(body('segmentation_property')), ctx),
    lifecycle: buildLifecycleSql(body('lifecycle'), ctx),
    stickiness: buildStickinessSql(body('stickiness'), ctx),
    activity_summary: buildActivitySummarySql(body('activity_summary'), ctx),
    revenue_summary: buildRevenueSummarySql(body('revenue_summary'), ctx),
  };
}

const VARIANTS: Record<string, (q: BuiltSql, tz: string) => string> = {
  'as built': (q) => q.sql,
};

const canonical = (rows: unknown[][]) => JSON.stringify(rows.map((r) => r.map((x) => (typeof x === 'bigint' ? Number(x) : typeof x === 'number' ? Math.round(x * 1e6) / 1e6 : String(x)))).sort());

async function open(dataDir: string, memoryLimit?: string): Promise<DuckDBConnection> {
  const options: Record<string, string> = { access_mode: 'READ_ONLY', threads: '2' };
  if (memoryLimit) options.memory_limit = memoryLimit;
  const conn = await (await DuckDBInstance.create(path.join(dataDir, 'events.duckdb'), options)).connect();
  await conn.run("SET TimeZone = 'UTC'");
  return conn;
}

async function projectOf(conn: DuckDBConnection, dataDir: string): Promise<QueryContext> {
  const inst = JSON.parse(readFileSync(path.join(dataDir, 'bench-installation.json'), 'utf8')) as { projects: Array<{ id: number; key: string; timezone: string }> };
  const main = inst.projects.find((p) => p.key === MAIN_PROJECT.key)!;
  void conn;
  return { projectId: main.id, timezone: main.timezone, currency: 'USD', now: new Date(), timeoutMs: 0, segments: new Map(), pathCleaning: { rules: [], revision: 0, updated_at: null } };
}

async function timings(dataDir: string): Promise<void> {
  const conn = await open(dataDir);
  const ctx = await projectOf(conn, dataDir);
  const runs = Number(args.runs);
  process.stdout.write(
    `| case | ${Object.keys(VARIANTS)
      .map((v) => `${v}, ms`)
      .join(' | ')} | same answer |\n|${' --- |'.repeat(Object.keys(VARIANTS).length + 2)}\n`,
  );
  for (const [kind, q] of Object.entries(builtSql(ctx))) {
    const cells: string[] = [];
    const answers = new Set<string>();
    for (const rewrite of Object.values(VARIANTS)) {
      const sql = rewrite(q, ctx.timezone);
      const times: number[] = [];
      let rows: unknown[][] = [];
      for (let i = 0; i <= runs; i++) {
        const t0 = performance.now();
        rows = (await conn.runAndReadAll(sql, q.params)).getRows();
        if (i > 0) times.push(performance.now() - t0);
      }
      cells.push(median(times).toFixed(0));
      answers.add(canonical(rows));
    }
    process.stdout.write(`| ${kind} | ${cells.join(' | ')} | ${answers.size === 1 ? 'yes' : '**no**'} |\n`);
  }
}

/** Runs every case once per variant in this (fresh) process and prints the peak RSS. */
async function memoryChild(spec: string): Promise<void> {
  const [variant, limit] = spec.split('@') as [string, string];
  const conn = await open(args['data-dir']!, limit === 'default' ? undefined : limit);
  const ctx = await projectOf(conn, args['data-dir']!);
  const started = performance.now();
  for (const q of Object.values(builtSql(ctx))) await conn.runAndReadAll(VARIANTS[variant]!(q, ctx.timezone), q.params);
  const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
  process.stdout.write(`| ${variant} | ${limit} | ${Math.round(peak)} | ${Math.round(performance.now() - started)} |\n`);
}

async function main(): Promise<void> {
  if (args.child) return memoryChild(args.child);
  const dataDir = args['data-dir'];
  if (!dataDir) throw new Error('--data-dir DIR: a pp data directory a bench run kept (npm run bench -- --keep-data)');
  await timings(dataDir);
  if (!args.memory) return;
  process.stdout.write('\n| variant | DuckDB memory_limit | peak RSS, MB | all nine cases, ms |\n| --- | --- | --- | --- |\n');
  for (const spec of ['as built@default', 'as built@256MB', 'as built@128MB']) {
    const r = spawnSync(process.execPath, [process.argv[1]!, '--data-dir', dataDir, '--child', spec], { encoding: 'utf8' });
    process.stdout.write(r.stdout + r.stderr);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
