// `npm run bench [-- --events 1000000,10000000 --only funnel,retention,… --runs 5 --engine clickhouse]`:
// one run that measures pp and ClickHouse on the same generated data: HTTP ingest, every query case
// at each size, memory and storage; checks that both engines return the same numbers; with
// `--engine clickhouse`, also pp keeping its events on ClickHouse (one node and two shards): its
// HTTP ingest on a sample, the whole data set through `ppctl events migrate`, every query case;
// prints the figures and writes docs/benchmarks.json and
// docs/BENCHMARKS.md. Never part of `npm test`.

import { cpSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { loadConfig } from '../../server/ground/config.js';
import { openServices } from '../../server/openServices.js';
import { createLogger } from '../../server/ground/logger.js';
import { CASES, MAIN_PROJECT, ROLLUP_PROPERTIES, figuresDiffer, type BenchCase, type CaseScope } from './cases.js';
import { ClickHouse, EngineCluster, ensureClickHouseInstalled } from './clickhouse.js';
import { existingDataSet, writeDataSet } from './dataSet.js';
import { bulkLoad } from './engineLoad.js';
import { PROJECTS } from './generate.js';
import { generatedTraffic, historyTrackBody, ingestBatches, paced, peerBody, saturate, trackBody, type Batch, type BatchLink, type Target } from './ingestBench.js';
import { createInstallation, existingInstallation, type Installation } from './installation.js';
import { STORE_LAYOUT } from './recordingsWriter.js';
import { PpServer } from './ppServer.js';
import { processCpuMs, processMemory, resetPeak } from './processes.js';
import { loadPeer, peerTableBytes, createPeerSchema } from './peerStore.js';
import { EVENT_TABLE_COLUMNS, EVENT_TABLE_ENGINE } from './peerSql.js';
import { NOT_ON_ENGINE, timeBaseline, timePeer, timePp, type Outcome } from './queryBench.js';
import {
  BENCHMARKS_SKELETON,
  benchmarksJson,
  label,
  markdownBlock,
  storedRate,
  updateBenchmarksMd,
  type CaseReport,
  type EngineCaseReport,
  type EngineClusterReport,
  type EngineIngest,
  type RulesIngest,
  type RunReport,
  type SizeReport,
} from './report.js';
import { benchRules, createRules, timeLabeledRule, waitForRules } from './labeledBench.js';
import { timeDashboard } from './dashboardBench.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000,10000000' },
    only: { type: 'string' },
    runs: { type: 'string', default: '5' },
    warmups: { type: 'string', default: '1' },
    seed: { type: 'string', default: '42' },
    'ingest-events': { type: 'string', default: '300000' },
    'ingest-rounds': { type: 'string', default: '3' },
    clients: { type: 'string', default: '32' },
    'work-dir': { type: 'string', default: path.join(os.tmpdir(), 'pp-bench') },
    'keep-data': { type: 'boolean', default: false },
    'no-peer': { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    engine: { type: 'string', default: 'duckdb' },
    'engine-shards': { type: 'string', default: '1,2' },
  },
});

const sizes = args.events.split(',').map((s) => Number(s.trim()));
if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error(`--events takes event counts of at least 1000, got ${args.events}`);
const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : undefined;
const known = new Set(['ingest', 'labeled', 'dashboard', ...CASES.map((c) => c.kind)]);
for (const k of only ?? []) if (!known.has(k)) throw new Error(`--only: unknown case ${k}; known: ${[...known].join(', ')}`);
const cases = CASES.filter((c) => !only || only.has(c.kind));
const labeledOn = !only || only.has('labeled');
const dashboardOn = !only || only.has('dashboard');
/** Active labeled-event rules per project in the second ingest run. */
const INGEST_RULES = 20;
const runs = Number(args.runs);
const warmups = Number(args.warmups);
const seed = Number(args.seed);
const clients = Number(args.clients);
const ingestEvents = Number(args['ingest-events']);
/** Saturated runs without and with labeled-event rules, alternating: their medians are compared. */
const ingestRounds = Math.max(1, Number(args['ingest-rounds']));
const workDir = args['work-dir'];
const withPeer = !args['no-peer'];
if (args.engine !== 'duckdb' && args.engine !== 'clickhouse') throw new Error(`--engine takes duckdb or clickhouse, got ${args.engine}`);
/** The cases pp over ClickHouse is asked (`--engine clickhouse`): every case pp on DuckDB is asked. */
const engineCases = args.engine === 'clickhouse' ? cases : [];
/** The cluster layouts pp over ClickHouse is measured on: one node, and two shards of one replica each. */
const ENGINE_LAYOUTS = [
  { cluster: 'one node', shards: 1 },
  { cluster: '2 shards', shards: 2 },
].filter((l) => args['engine-shards'].split(',').map(Number).includes(l.shards));
const started = Date.now();
const LARGE_MEMORY_LIMIT_MB = 1024;

/** Scratch directories to delete once nothing is being measured any more. */
const leftovers: string[] = [];

/** Child servers to stop if the run is interrupted. */
const children = new (class {
  private readonly all = new Set<{ stop(): Promise<void> }>();
  add<T extends { stop(): Promise<void> }>(c: T): T {
    this.all.add(c);
    return c;
  }
  delete(c: { stop(): Promise<void> }): void {
    this.all.delete(c);
  }
  async stopAll(): Promise<void> {
    await Promise.all([...this.all].map((c) => c.stop().catch(() => undefined)));
  }
})();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the servers`);
    void children.stopAll().finally(() => process.exit(1));
  });
}

function log(line: string): void {
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);
}

function machine(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    'load average at start': os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  };
}

function localToday(timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

function fileBytes(file: string): number {
  return [file, `${file}.wal`].filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
}

/**
 * Stored rows and distinct uuids (labeled events aside), and labeled events, of a stopped
 * installation opened as its next start opens it: what the ingest journal still held at the stop
 * (acknowledged, not yet loaded) is loaded first, so nothing acknowledged is counted as lost.
 */
async function countStored(dataDir: string): Promise<{ stored: number; distinct: number; derived: number }> {
  const opened = await openServices(loadConfig({ flags: { data_dir: dataDir }, env: {} }), { replay: 'wait', log: createLogger('silent') });
  try {
    const [row] = await opened.services.events.read(
      'SELECT count(*) FILTER (WHERE rule_id IS NULL) AS n, count(DISTINCT (project_id, uuid)) FILTER (WHERE rule_id IS NULL) AS d, count(rule_id) AS r FROM events',
    );
    return { stored: Number(row!.n), distinct: Number(row!.d), derived: Number(row!.r) };
  } finally {
    await opened.close();
  }
}

// --- ingest --------------------------------------------------------------------------------------

/** /v1/track requests of the batches, each with its project's server key, to one pp server. */
function trackTarget(server: PpServer, inst: Installation, batches: Batch[], bodies: string[]): Target {
  const keys = inst.projects.map((p) => p.serverKey.value);
  return {
    port: server.port,
    request: (i) => ({ path: '/v1/track', headers: { authorization: `Bearer ${keys[batches[i]!.project]!}`, 'content-type': 'application/json', 'x-pp-tracker': 'pp-node/0.3.1' }, body: bodies[i]! }),
    accepted: (status, body) => (status === 202 ? (JSON.parse(body) as { accepted: number }).accepted : 0),
  };
}

/**
 * The server's CPU time per accepted event since `beforeMs`: unlike events/s, it hardly moves when
 * other work shares the machine, so two versions can be compared on a busy one.
 */
function cpuPerEvent(pid: number, beforeMs: number, accepted: number): string {
  return `server CPU ${(((processCpuMs(pid) - beforeMs) * 1000) / Math.max(1, accepted)).toFixed(1)} µs/event`;
}

async function ingestPhase(): Promise<RunReport['ingest']> {
  log(`ingest: generating ${ingestEvents.toLocaleString('en-US')} events as batches of 100`);
  const batches = ingestBatches(seed + 1, ingestEvents);
  const sizesOf = batches.map((b) => b.events.length);
  const indexes = batches.map((_, i) => i);
  // First 2/3 of the batches saturate, the rest go at half the saturated rate.
  const split = Math.floor((batches.length * 2) / 3);
  const inst = await createInstallation(path.join(workDir, 'ingest-pp'), null);
  const bodies = batches.map((b) => trackBody(b, Date.now()));
  const server = children.add(await PpServer.start(inst, path.join(workDir, 'ingest-pp.log')));
  let pp: EngineIngest;
  try {
    const target = trackTarget(server, inst, batches, bodies);
    resetPeak(server.pid);
    log(`ingest pp: ${clients} clients, ${split} batches as fast as acknowledged`);
    const cpuBefore = processCpuMs(server.pid);
    const saturated = await saturate(target, indexes.slice(0, split), sizesOf, clients);
    log(
      `ingest pp: ${Math.round(saturated.eventsPerS)} events/s, p50 ${saturated.p50Ms.toFixed(1)} ms, p99 ${saturated.p99Ms.toFixed(1)} ms, ${saturated.failures} failures; ${cpuPerEvent(server.pid, cpuBefore, saturated.accepted)}`,
    );
    const halfRate = await paced(target, indexes.slice(split), sizesOf, saturated.eventsPerS / 2, 64);
    log(`ingest pp at half rate: ${Math.round(halfRate.eventsPerS)} events/s, p50 ${halfRate.p50Ms.toFixed(1)} ms, p99 ${halfRate.p99Ms.toFixed(1)} ms`);
    const rssPeakMb = server.memory().peakMb;
    await server.stop();
    const counted = await countStored(inst.dataDir);
    pp = { saturated, halfRate, rssPeakMb, ...counted, expected: saturated.accepted + halfRate.accepted };
    children.delete(server);
    log(`ingest pp: sent ${pp.expected}, stored ${counted.stored}, distinct ${counted.distinct}; peak RSS ${Math.round(rssPeakMb)} MB`);
  } finally {
    await server.stop();
  }
  // One saturated run swings by several percent from the next (checkpoints land in it or not), so
  // the share the rules leave is taken from the medians of alternating rounds.
  const ppRules = await saturatedRun(batches, bodies, sizesOf, indexes.slice(0, split), INGEST_RULES);
  ppRules.rounds = { without: [saturated(pp)], with: [saturated(ppRules)] };
  for (let round = 2; round <= ingestRounds; round++) {
    ppRules.rounds.without.push(saturated(await saturatedRun(batches, bodies, sizesOf, indexes.slice(0, split), 0)));
    ppRules.rounds.with.push(saturated(await saturatedRun(batches, bodies, sizesOf, indexes.slice(0, split), INGEST_RULES)));
  }
  log(`ingest pp, saturated rounds without rules ${ppRules.rounds.without.map(Math.round).join(', ')}; with ${ppRules.rounds.with.map(Math.round).join(', ')} events/s`);
  if (!withPeer) return { pp, ppRules };
  // A ClickHouse of its own: thousands of 100-row parts keep it merging (and a DROP waiting) for
  // minutes, which must not overlap the query runs.
  const dir = path.join(workDir, 'clickhouse-ingest');
  rmSync(dir, { recursive: true, force: true });
  const ch = children.add(await ClickHouse.start(dir));
  try {
    return { pp, ppRules, peer: await peerIngest(ch, batches, sizesOf, indexes, split, inst) };
  } finally {
    await ch.stop();
    children.delete(ch);
    // Its tens of thousands of part files take minutes to delete: that waits for the end of the run.
    leftovers.push(dir);
  }
}

const saturated = (e: EngineIngest) => e.saturated.eventsPerS;

/**
 * The saturated run again on a fresh installation whose every project has `rules` active
 * labeled-event rules: what deriving labels as events are stored costs ingestion. With none, a
 * round of the plain run to compare with.
 */
async function saturatedRun(batches: Batch[], bodies: string[], sizesOf: number[], indexes: number[], rules: number): Promise<RulesIngest> {
  const name = rules > 0 ? 'ingest-pp-rules' : 'ingest-pp-round';
  const what = rules > 0 ? `ingest pp with ${rules} rules per project` : 'ingest pp (another round)';
  const inst = await createInstallation(path.join(workDir, name), null);
  const server = children.add(await PpServer.start(inst, path.join(workDir, `${name}.log`)));
  try {
    // Measured with the rules active over all history, their first derivation done (the jobs that
    // derive them hold the writer a moment each, a cost of saving a rule, not of ingesting with it).
    if (rules > 0) for (const p of inst.projects) await waitForRules(server, p.id, await createRules(server, p.id, benchRules(rules)));
    const target = trackTarget(server, inst, batches, bodies);
    resetPeak(server.pid);
    log(`${what}: ${clients} clients, ${indexes.length} batches as fast as acknowledged`);
    const cpuBefore = processCpuMs(server.pid);
    const saturated = await saturate(target, indexes, sizesOf, clients);
    log(
      `${what}: ${Math.round(saturated.eventsPerS)} events/s, p50 ${saturated.p50Ms.toFixed(1)} ms, p99 ${saturated.p99Ms.toFixed(1)} ms, ${saturated.failures} failures; ${cpuPerEvent(server.pid, cpuBefore, saturated.accepted)}`,
    );
    const rssPeakMb = server.memory().peakMb;
    await server.stop();
    const counted = await countStored(inst.dataDir);
    log(`${what}: sent ${saturated.accepted}, stored ${counted.stored}, labeled ${counted.derived}`);
    return { saturated, rssPeakMb, ...counted, expected: saturated.accepted, rules };
  } finally {
    await server.stop();
    children.delete(server);
  }
}

async function peerIngest(ch: ClickHouse, batches: Batch[], sizesOf: number[], indexes: number[], split: number, inst: Installation): Promise<EngineIngest> {
  await ch.query(`CREATE TABLE ingest_events (${EVENT_TABLE_COLUMNS}) ${EVENT_TABLE_ENGINE}`);
  const peerBodies = batches.map((b) => peerBody(b, inst.projects[b.project]!.id, Date.now()));
  const path_ = `/?query=${encodeURIComponent('INSERT INTO ingest_events FORMAT JSONEachRow')}`;
  const target: Target = {
    port: ch.port,
    request: (i) => ({ path: path_, headers: { 'content-type': 'application/x-ndjson' }, body: peerBodies[i]! }),
    accepted: (status, _body, i) => (status === 200 ? sizesOf[i]! : 0),
  };
  resetPeak(ch.pid);
  log(`ingest ClickHouse: ${clients} clients, ${split} batches as fast as acknowledged`);
  const saturated = await saturate(target, indexes.slice(0, split), sizesOf, clients);
  log(`ingest ClickHouse: ${Math.round(saturated.eventsPerS)} events/s, p50 ${saturated.p50Ms.toFixed(1)} ms, p99 ${saturated.p99Ms.toFixed(1)} ms, ${saturated.failures} failures`);
  const halfRate = await paced(target, indexes.slice(split), sizesOf, saturated.eventsPerS / 2, 64);
  log(`ingest ClickHouse at half rate: ${Math.round(halfRate.eventsPerS)} events/s, p99 ${halfRate.p99Ms.toFixed(1)} ms`);
  const rssPeakMb = ch.memory().peakMb;
  const [[stored, distinct]] = (await ch.query('SELECT count(), uniqExact(project_id, uuid) FROM ingest_events')).rows as [[string, string]];
  return { saturated, halfRate, rssPeakMb, stored: Number(stored), distinct: Number(distinct), expected: saturated.accepted + halfRate.accepted };
}

// --- queries ---------------------------------------------------------------------------------

function caseReport(c: BenchCase, pp: Outcome | undefined, peer: Outcome | undefined): CaseReport {
  const side = (o: Outcome | undefined) => (o === undefined ? undefined : o.ok ? { p50Ms: o.timing.p50Ms, runsMs: o.timing.runsMs, cachedP50Ms: o.timing.cachedP50Ms } : { reason: o.reason });
  let check: string;
  if (!pp?.ok) check = pp?.reason.startsWith('not available') ? 'not available' : 'failed';
  else if (!peer) check = 'no peer';
  else if (!peer.ok) check = 'failed (ClickHouse)';
  else check = figuresDiffer(pp.timing.figures, peer.timing.figures) ? `mismatch: ${figuresDiffer(pp.timing.figures, peer.timing.figures)}` : 'match';
  return { kind: c.kind, title: c.title, targetMs: c.targetMs, peerTarget: c.peerTarget, pp: side(pp) ?? { reason: 'not run' }, peer: side(peer), check };
}

async function sizePhase(events: number, ch: ClickHouse | undefined): Promise<SizeReport> {
  const options = { seed, events };
  const dsDir = path.join(workDir, `data-${label(events)}`);
  let ds = args['keep-data'] ? existingDataSet(dsDir, options) : undefined;
  if (ds) log(`${label(events)}: reusing the data set in ${dsDir}`);
  else {
    log(`${label(events)}: generating the data set`);
    ds = writeDataSet(dsDir, options);
    log(`${label(events)}: generated ${ds.events} events, ${ds.links} identity links in ${(ds.generateMs / 1000).toFixed(0)} s`);
  }
  const dataDir = path.join(workDir, `pp-${label(events)}`);
  const generated = { seed, events, version: ds.version, store: STORE_LAYOUT };
  let inst: Installation | undefined = args['keep-data'] ? existingInstallation(dataDir, generated) : undefined;
  let loadMs = 0;
  if (!inst) {
    log(`${label(events)}: loading the pp event store`);
    inst = await createInstallation(dataDir, ds);
    loadMs = inst.load!.ms;
    log(`${label(events)}: pp store holds ${inst.load!.events} events (${(loadMs / 1000).toFixed(0)} s)`);
  }
  if (inst.recordings) log(`${label(events)}: ${inst.recordings.sessions} recorded sessions in ${inst.recordings.chunks} chunks`);
  const main = inst.projects.find((p) => p.key === MAIN_PROJECT.key)!;
  const scope: CaseScope = { projectId: main.id, timezone: main.timezone, today: localToday(main.timezone) };
  // As an operator would for a property the team breaks down by every day: `category` is kept in
  // the per-day property rollup (events.rollup_properties). Other properties read raw events.
  // Beyond 10M events the default memory budget is too small for queries over millions of
  // actors; the bench sets what docs/configuration.md advises, unless the environment sets one.
  const memoryLimitMb = Number(process.env.PP_EVENTS_MEMORY_LIMIT_MB ?? (events > 10_000_000 ? LARGE_MEMORY_LIMIT_MB : loadConfig({ env: {} }).events.memory_limit_mb));
  const server = children.add(
    await PpServer.start(inst, path.join(workDir, `pp-${label(events)}.log`), {
      PP_EVENTS_ROLLUP_PROPERTIES: ROLLUP_PROPERTIES.join(','),
      PP_EVENTS_MEMORY_LIMIT_MB: String(memoryLimitMb),
    }),
  );
  let ppOutcomes: Map<string, Outcome>;
  let rssPeakMb: number;
  let rssAfterStartMb: number;
  let baselineMs: number;
  let dashboard: SizeReport['dashboard'];
  try {
    // Day-level queries read the per-day rollup, which the server folds after start (once per store).
    const foldStarted = performance.now();
    await server.waitForLog('actor days up to date', 30 * 60_000);
    log(`${label(events)}: per-day rollup up to date after ${((performance.now() - foldStarted) / 1000).toFixed(0)} s`);
    await server.accessToken();
    rssAfterStartMb = server.memory().rssMb;
    resetPeak(server.pid);
    log(`${label(events)}: pp queries (${warmups} warm-up, ${runs} runs each), server RSS ${Math.round(rssAfterStartMb)} MB`);
    baselineMs = await timeBaseline(server, scope, { warmups, runs, log });
    log(`${label(events)}: baseline (GET the project, no query) ${baselineMs.toFixed(1)} ms`);
    ppOutcomes = await timePp(server, cases, scope, { warmups, runs, log });
    if (dashboardOn) {
      dashboard = await timeDashboard(server, scope, { warmups, runs });
      log(`${label(events)}: a dashboard of ${dashboard.tiles} tiles opened in ${dashboard.coldMs.toFixed(0)} ms cold, ${dashboard.warmMs.toFixed(0)} ms from the cache`);
    }
    rssPeakMb = server.memory().peakMb;
    log(`${label(events)}: pp peak RSS during queries ${Math.round(rssPeakMb)} MB`);
  } finally {
    await server.stop();
    children.delete(server);
  }
  // Measured after the server stopped: the store then also holds the per-day rollup it folded.
  const fileSize = fileBytes(path.join(dataDir, 'events.duckdb'));
  const report: SizeReport = { events, generateMs: ds.generateMs, pp: { loadMs, fileBytes: fileSize, rssPeakMb, rssAfterStartMb, baselineMs, memoryLimitMb }, cases: [], dashboard };
  if (labeledOn) report.labeled = await labeledPhase(inst, main.id, events);
  let peerOutcomes = new Map<string, Outcome>();
  if (ch) {
    log(`${label(events)}: loading ClickHouse`);
    const projects = inst.projects.map((p) => ({ id: p.id, browserKey: p.browserKey.publicId, serverKey: p.serverKey.publicId }));
    const load = await loadPeer(ch, ds, projects);
    if (load.events !== events) throw new Error(`ClickHouse holds ${load.events} events, expected ${events}`);
    const bytes = (await peerTableBytes(ch, 'events')) + (await peerTableBytes(ch, 'identity_links'));
    resetPeak(ch.pid);
    log(`${label(events)}: ClickHouse queries`);
    peerOutcomes = await timePeer(ch, cases, scope, { warmups, runs, log });
    report.peer = { loadMs: load.ms, bytes, rssPeakMb: processMemory(ch.pid).peakMb };
    await createPeerSchema(ch, projects);
  }
  report.cases = cases.map((c) => caseReport(c, ppOutcomes.get(c.kind), ch ? peerOutcomes.get(c.kind) : undefined));
  for (const c of report.cases) if (c.check.startsWith('mismatch')) log(`${label(events)} ${c.kind}: ${c.check}`);
  if (engineCases.length > 0) {
    const sample = Math.min(ingestEvents, events);
    log(`${label(events)}: generating ${sample.toLocaleString('en-US')} events as batches for pp over ClickHouse's ingest`);
    const traffic = generatedTraffic(seed, sample, true);
    report.engine = [];
    for (const layout of ENGINE_LAYOUTS) report.engine.push(await enginePhase(layout, inst, events, traffic, ppOutcomes, peerOutcomes));
  }
  return report;
}

// --- pp over ClickHouse ------------------------------------------------------------------------

/** The database pp over ClickHouse's ingest is measured in, apart from the one its queries read. */
const INGEST_DATABASE = 'pp_ingest';
const QUERY_DATABASE = 'pp';

/**
 * pp with `events.engine = clickhouse` on a fresh cluster of `layout`: ingest measured on a sample
 * sent through `POST /v1/track` and `POST /v1/identify` by a fresh installation into a database of
 * its own; the size's whole data set moved from the DuckDB installation `duck` (stopped) by `ppctl
 * events migrate`, with its recordings; then every case, each compared with pp on DuckDB's answer
 * and timed against bare ClickHouse's or, with no peer query, against its target.
 */
async function enginePhase(
  layout: (typeof ENGINE_LAYOUTS)[number],
  duck: Installation,
  events: number,
  traffic: { batches: Batch[]; links: BatchLink[] },
  reference: Map<string, Outcome>,
  peer: Map<string, Outcome>,
): Promise<EngineClusterReport> {
  const name = `pp over ClickHouse, ${layout.cluster}, ${label(events)}`;
  const slug = `clickhouse-engine-${layout.shards}-${label(events)}`;
  const dir = path.join(workDir, slug);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const cluster = children.add(await EngineCluster.start(dir, layout.shards));
  try {
    const ingestInst = await createInstallation(path.join(workDir, `pp-${slug}-ingest`), null);
    const ingestServer = children.add(await PpServer.start(ingestInst, path.join(workDir, `pp-${slug}-ingest.log`), cluster.serverEnv(INGEST_DATABASE)));
    let ingest: EngineClusterReport['ingest'];
    try {
      ingest = await engineIngest(name, ingestServer, ingestInst, cluster, traffic);
    } finally {
      await ingestServer.stop();
      children.delete(ingestServer);
    }
    log(`${name}: moving the data set from DuckDB with ppctl events migrate`);
    const load = await bulkLoad(duck, cluster, QUERY_DATABASE, path.join(workDir, `pp-${slug}-migrate.log`));
    await cluster.settle();
    const bytes = await cluster.bytes(QUERY_DATABASE);
    log(
      `${name}: migrated ${load.events} events, ${load.identityLinks} identity links in ${(load.migrateMs / 1000).toFixed(0)} s (${Math.round(load.events / (load.migrateMs / 1000))} events/s); ${load.recordingChunks} recording chunks in ${(load.recordingsMs / 1000).toFixed(1)} s; ${(bytes / 1024 ** 2 / (events / 1e6)).toFixed(1)} MB per million events`,
    );
    // The DuckDB installation's metadata (projects, keys, path rules) without its event store.
    const inst = { ...duck, dataDir: path.join(workDir, `pp-${slug}`) };
    rmSync(inst.dataDir, { recursive: true, force: true });
    cpSync(duck.dataDir, inst.dataDir, { recursive: true, filter: (from) => !/^(events\.duckdb|events-migration\.json)/.test(path.basename(from)) });
    const server = children.add(await PpServer.start(inst, path.join(workDir, `pp-${slug}.log`), { ...cluster.serverEnv(QUERY_DATABASE), PP_EVENTS_ROLLUP_PROPERTIES: ROLLUP_PROPERTIES.join(',') }));
    try {
      const main = inst.projects.find((p) => p.key === MAIN_PROJECT.key)!;
      const scope: CaseScope = { projectId: main.id, timezone: main.timezone, today: localToday(main.timezone) };
      await server.accessToken();
      resetPeak(server.pid);
      log(`${name}: queries (${warmups} warm-up, ${runs} runs each)`);
      const outcomes = await timePp(server, engineCases, scope, { warmups, runs, log });
      const caseReports = engineCases.map((c) => engineCaseReport(c, outcomes.get(c.kind), reference.get(c.kind), peer.get(c.kind)));
      for (const c of caseReports) if (c.check.startsWith('mismatch')) log(`${name} ${c.kind}: ${c.check}`);
      return { cluster: layout.cluster, ingest, load: { ...load, bytes, rssPeakMb: server.memory().peakMb }, cases: caseReports };
    } finally {
      await server.stop();
      children.delete(server);
      leftovers.push(inst.dataDir);
    }
  } finally {
    await cluster.stop();
    children.delete(cluster);
    // Kept with the data set (`--keep-data`): a node started on `dir` again reads what pp stored.
    if (!args['keep-data']) leftovers.push(dir);
  }
}

async function engineIngest(name: string, server: PpServer, inst: Installation, cluster: EngineCluster, traffic: { batches: Batch[]; links: BatchLink[] }): Promise<EngineClusterReport['ingest']> {
  const { batches, links } = traffic;
  const bodies = batches.map(historyTrackBody);
  const sizesOf = batches.map((b) => b.events.length);
  resetPeak(server.pid);
  log(`${name}: ${clients} clients send ${batches.length} batches through /v1/track as fast as acknowledged`);
  const started = performance.now();
  const cpuBefore = processCpuMs(server.pid);
  const clickHouseCpuBefore = cluster.cpuMs();
  const saturated = await saturate(
    trackTarget(server, inst, batches, bodies),
    batches.map((_, i) => i),
    sizesOf,
    clients,
  );
  log(
    `${name}: ${Math.round(saturated.eventsPerS)} events/s acknowledged, p50 ${saturated.p50Ms.toFixed(1)} ms, p99 ${saturated.p99Ms.toFixed(1)} ms, ${saturated.failures} failures${saturated.firstFailure ? ` (first: ${saturated.firstFailure})` : ''}; ${cpuPerEvent(server.pid, cpuBefore, saturated.accepted)}`,
  );
  // Acknowledged means journaled: the loader stores the rest behind the answers.
  let counts = await cluster.counts(INGEST_DATABASE);
  let last = { distinct: counts.distinct, at: performance.now() };
  while (counts.distinct < saturated.accepted && performance.now() - last.at < 60_000) {
    await new Promise((r) => setTimeout(r, 100));
    counts = await cluster.counts(INGEST_DATABASE);
    if (counts.distinct !== last.distinct) last = { distinct: counts.distinct, at: performance.now() };
  }
  const storedMs = performance.now() - started;
  const perEvent = (ms: number) => (ms * 1000) / Math.max(1, counts.distinct);
  const cpuUsPerEvent = { pp: perEvent(processCpuMs(server.pid) - cpuBefore), clickhouse: perEvent(cluster.cpuMs() - clickHouseCpuBefore) };
  const rssPeakMb = server.memory().peakMb;
  const linked = await sendLinks(name, server, inst, links);
  const ingest = { saturated, storedMs, rssPeakMb, cpuUsPerEvent, ...counts, expected: saturated.accepted, links: linked };
  log(
    `${name}: sent ${ingest.expected}, stored ${counts.stored}, distinct ${counts.distinct}: ${Math.round(storedRate(ingest))} events/s stored; CPU per event pp ${cpuUsPerEvent.pp.toFixed(0)} µs, ClickHouse ${cpuUsPerEvent.clickhouse.toFixed(0)} µs; peak RSS ${Math.round(rssPeakMb)} MB; identity links ${linked.reason ?? `${linked.accepted} of ${linked.sent}`}`,
  );
  return ingest;
}

/** The identity links through `POST /v1/identify`, none after the first when the engine does not keep links yet. */
async function sendLinks(name: string, server: PpServer, inst: Installation, links: BatchLink[]): Promise<EngineClusterReport['ingest']['links']> {
  if (links.length === 0) return { sent: 0, accepted: 0 };
  const request = (i: number) => {
    const l = links[i]!;
    return {
      path: '/v1/identify',
      headers: { authorization: `Bearer ${inst.projects[l.project]!.serverKey.value}`, 'content-type': 'application/json', 'x-pp-tracker': 'pp-node/0.3.1' },
      body: JSON.stringify({ anonymous_id: l.distinctId, user_id: l.actorId }),
    };
  };
  const first = request(0);
  const probe = await server.request('POST', first.path, { headers: first.headers, body: first.body });
  if (probe.status === 501 && probe.body.includes('engine_unsupported')) {
    log(`${name}: identify answers 501 engine_unsupported; no identity links sent`);
    return { sent: 1, accepted: 0, reason: NOT_ON_ENGINE };
  }
  const rest = links.map((_, i) => i).slice(1);
  const accepted = (status: number, body: string) => (status === 202 ? (JSON.parse(body) as { accepted: number }).accepted : 0);
  const sent = await saturate(
    { port: server.port, request, accepted },
    rest,
    links.map(() => 1),
    clients,
  );
  log(`${name}: ${links.length} identity links at ${Math.round(sent.eventsPerS)}/s, ${sent.failures + (accepted(probe.status, probe.body) === 1 ? 0 : 1)} refused`);
  return { sent: links.length, accepted: sent.accepted + accepted(probe.status, probe.body), perS: sent.eventsPerS };
}

function engineCaseReport(c: BenchCase, pp: Outcome | undefined, duckdb: Outcome | undefined, peer: Outcome | undefined): EngineCaseReport {
  let check: string;
  if (!pp) check = 'not run';
  else if (!pp.ok) check = pp.reason.startsWith(NOT_ON_ENGINE) ? NOT_ON_ENGINE : 'failed';
  else if (!duckdb?.ok) check = 'no DuckDB answer';
  else check = mapMismatch(figuresDiffer(duckdb.timing.figures, pp.timing.figures));
  return {
    kind: c.kind,
    title: c.title,
    targetMs: c.targetMs,
    duckdbP50Ms: duckdb?.ok ? duckdb.timing.p50Ms : undefined,
    pp: pp?.ok ? { p50Ms: pp.timing.p50Ms, runsMs: pp.timing.runsMs, cachedP50Ms: pp.timing.cachedP50Ms } : { reason: pp?.reason ?? 'not run' },
    peerP50Ms: peer?.ok ? peer.timing.p50Ms : undefined,
    check,
  };
}

/** figuresDiffer's text names its sides pp and ClickHouse; here they are pp on DuckDB and pp over ClickHouse. */
const mapMismatch = (diff: string | undefined) => (diff === undefined ? 'match' : `mismatch: ${diff.replaceAll(': pp ', ': DuckDB ')}`);

/**
 * One labeled-event rule derived over the main project's whole history and torn down, on the store
 * the queries ran on, after its size was measured (the labels and their deletion leave space behind).
 */
async function labeledPhase(inst: Installation, projectId: number, events: number): Promise<SizeReport['labeled']> {
  const server = children.add(await PpServer.start(inst, path.join(workDir, `pp-${label(events)}-labeled.log`)));
  try {
    await server.waitForLog('actor days up to date', 30 * 60_000);
    const figures = await timeLabeledRule(server, projectId);
    log(`${label(events)}: a labeled-event rule derived ${figures.derivedEvents} events in ${(figures.materializeMs / 1000).toFixed(1)} s, torn down in ${(figures.teardownMs / 1000).toFixed(1)} s`);
    return figures;
  } finally {
    await server.stop();
    children.delete(server);
  }
}

// --- main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  mkdirSync(workDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
  log(`work directory ${workDir}; sizes ${sizes.map(label).join(', ')}; projects ${PROJECTS.length}; cases ${cases.map((c) => c.kind).join(', ')}`);
  if (withPeer || engineCases.length > 0) ensureClickHouseInstalled();
  const report: RunReport = {
    startedAt,
    finishedAt: '',
    command,
    machine: machine(),
    options: { seed, runs, warmups, clients, ingestEvents },
    sizes: [],
  };
  let ch: ClickHouse | undefined;
  try {
    if (!only || only.has('ingest')) report.ingest = await ingestPhase();
    if (withPeer && cases.length > 0) {
      const dir = path.join(workDir, 'clickhouse');
      rmSync(dir, { recursive: true, force: true });
      ch = children.add(await ClickHouse.start(dir));
      log(`ClickHouse ${ch.version} on 127.0.0.1:${ch.port} (pid ${ch.pid})`);
    }
    // `--only ingest` measures ingestion alone: no data set, no query run.
    if (cases.length > 0 || labeledOn || dashboardOn) for (const n of sizes) report.sizes.push(await sizePhase(n, ch));
  } finally {
    await children.stopAll();
    for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
    if (!args['keep-data']) rmSync(workDir, { recursive: true, force: true });
  }
  report.machine['load average at end'] = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  if (ch) report.machine.clickhouse = ch.version;
  report.finishedAt = new Date().toISOString();
  const block = markdownBlock(report);
  process.stdout.write(`\n${block}\n`);
  if (!args['no-docs']) {
    const docs = path.join(packageRoot(), 'docs');
    writeFileSync(path.join(docs, 'benchmarks.json'), JSON.stringify(benchmarksJson(report), null, 2) + '\n');
    updateBenchmarksMd(path.join(docs, 'BENCHMARKS.md'), block, BENCHMARKS_SKELETON);
    log('wrote docs/benchmarks.json and docs/BENCHMARKS.md');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
