// The figures of one bench run as docs/benchmarks.json and as the generated block of
// docs/BENCHMARKS.md, which replaces the latest one and pushes that under "Previous runs".

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { PhaseResult } from './ingestBench.js';
import type { BulkLoad } from './engineLoad.js';
import { DASHBOARD_TARGET_MS, type DashboardFigures } from './dashboardBench.js';
import { median, NOT_ON_ENGINE } from './queryBench.js';

export interface CaseReport {
  kind: string;
  title: string;
  targetMs: number;
  peerTarget: boolean;
  /** pp's median, or why there is none. */
  pp: { p50Ms: number; runsMs: number[]; cachedP50Ms?: number } | { reason: string };
  peer?: { p50Ms: number; runsMs: number[] } | { reason: string };
  /** 'match', 'mismatch: …', or why nothing was compared. */
  check: string;
}

export interface SizeReport {
  events: number;
  generateMs: number;
  pp: { loadMs: number; fileBytes: number; rssPeakMb: number; rssAfterStartMb: number; baselineMs: number; memoryLimitMb: number };
  peer?: { loadMs: number; bytes: number; rssPeakMb: number };
  cases: CaseReport[];
  /** One labeled-event rule derived over the main project and torn down (labeledBench.ts). */
  labeled?: { derivedEvents: number; materializeMs: number; teardownMs: number };
  /** A dashboard of eight insight tiles opened cold and from the cache (dashboardBench.ts). */
  dashboard?: DashboardFigures;
  /** pp with `events.engine = clickhouse`, per cluster layout (`--engine clickhouse`). */
  engine?: EngineClusterReport[];
}

/** pp with `events.engine = clickhouse` on one cluster layout: ingest on a sample, then the size's data set moved in and queried. */
export interface EngineClusterReport {
  /** The layout, as the report names it: 'one node', '2 shards'. */
  cluster: string;
  /** A sample (`--ingest-events`) sent through HTTP ingest into a database of its own. */
  ingest: {
    saturated: PhaseResult;
    /** From the first request until ClickHouse held every acknowledged event. */
    storedMs: number;
    /** pp's peak RSS during the ingest. */
    rssPeakMb: number;
    /** CPU time per stored event (µs) of the pp server and of the ClickHouse servers, from the first request until all were stored. */
    cpuUsPerEvent: { pp: number; clickhouse: number };
    stored: number;
    distinct: number;
    expected: number;
    /** The data set's identity links sent to `POST /v1/identify`: how many were accepted (and how fast), or why none were. */
    links: { sent: number; accepted: number; perS?: number; reason?: string };
  };
  /** The size's data set moved from DuckDB (`ppctl events migrate`), its storage (bytes, every node) and pp's peak RSS during the queries. */
  load?: BulkLoad & { bytes: number; rssPeakMb: number };
  cases: EngineCaseReport[];
}

export interface EngineCaseReport {
  kind: string;
  title: string;
  /** The case's target at 10M on DuckDB, ms: the target where bare ClickHouse has no peer query. */
  targetMs: number;
  /** pp on DuckDB's median in the same run. */
  duckdbP50Ms?: number;
  /** pp over ClickHouse's median, or why there is none (NOT_ON_ENGINE… when it answered 501 engine_unsupported). */
  pp: { p50Ms: number; runsMs: number[]; cachedP50Ms?: number } | { reason: string };
  /** Bare ClickHouse's median for the case (one node, the same data loaded from files). */
  peerP50Ms?: number;
  /** 'match' (the figures of pp on DuckDB asked the same), 'mismatch: …', or why nothing was compared. */
  check: string;
}

export interface EngineIngest {
  saturated: PhaseResult;
  halfRate?: PhaseResult;
  rssPeakMb: number;
  stored: number;
  distinct: number;
  expected: number;
}

/** The saturated ingest run with `rules` active labeled-event rules per project; `derived`: labels stored. */
export interface RulesIngest extends Omit<EngineIngest, 'halfRate'> {
  rules: number;
  derived: number;
  /** Saturated events/s of alternating rounds without and with the rules (the first is the table's). */
  rounds?: { without: number[]; with: number[] };
}

/** What the rules leave of the saturated rate: the medians of the rounds when there are several. */
export function rulesShare(plain: EngineIngest, rules: RulesIngest): { share: number; with: number; without: number } {
  const without = rules.rounds ? median(rules.rounds.without) : plain.saturated.eventsPerS;
  const withRules = rules.rounds ? median(rules.rounds.with) : rules.saturated.eventsPerS;
  return { share: withRules / without, with: withRules, without };
}

export interface RunReport {
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: Record<string, string | number>;
  options: { seed: number; runs: number; warmups: number; clients: number; ingestEvents: number };
  ingest?: { pp: EngineIngest; ppRules?: RulesIngest; peer?: EngineIngest };
  sizes: SizeReport[];
}

const MB = 1024 * 1024;
const has = <T extends object>(x: T | { reason: string } | undefined): x is T => x !== undefined && !('reason' in x);
export const label = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n));
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

export function ratioOf(c: CaseReport): number | undefined {
  return has(c.pp) && has(c.peer) && c.check === 'match' ? c.pp.p50Ms / c.peer.p50Ms : undefined;
}

/** The pp-over-ClickHouse target: its median at most this many times bare ClickHouse's. */
export const ENGINE_TARGETS = { ratio: 1.5, ingestEventsPerS: 50_000 };

/** pp over ClickHouse / bare ClickHouse, when both were timed. */
export function engineRatioOf(c: EngineCaseReport): number | undefined {
  return has(c.pp) && c.peerP50Ms !== undefined ? c.pp.p50Ms / c.peerP50Ms : undefined;
}

/** Events per second from the first request until ClickHouse held them all. */
export const storedRate = (i: EngineClusterReport['ingest']) => i.expected / (i.storedMs / 1000);

/** pp over ClickHouse / pp on DuckDB, when both were timed. */
export function duckdbRatioOf(c: EngineCaseReport): number | undefined {
  return has(c.pp) && c.duckdbP50Ms !== undefined ? c.pp.p50Ms / c.duckdbP50Ms : undefined;
}

/** Events per second `ppctl events migrate` moved. */
export const migrateRate = (l: BulkLoad) => l.events / (l.migrateMs / 1000);

/** docs/benchmarks.json: the figures the issue names, per size where they depend on it. */
export function benchmarksJson(r: RunReport): unknown {
  const perSize = <T>(f: (s: SizeReport) => T | undefined) => Object.fromEntries(r.sizes.map((s) => [String(s.events), f(s)]).filter(([, v]) => v !== undefined));
  const kinds = [...new Set(r.sizes.flatMap((s) => s.cases.map((c) => c.kind)))];
  const caseOf = (s: SizeReport, kind: string) => s.cases.find((c) => c.kind === kind);
  const ingest = (e: EngineIngest) => ({
    events_per_s: Math.round(e.saturated.eventsPerS),
    p50_ms: round(e.halfRate?.p50Ms ?? e.saturated.p50Ms),
    p99_ms: round(e.halfRate?.p99Ms ?? e.saturated.p99Ms),
    half_rate_events_per_s: e.halfRate ? Math.round(e.halfRate.eventsPerS) : null,
    saturated_p50_ms: round(e.saturated.p50Ms),
    saturated_p99_ms: round(e.saturated.p99Ms),
    rss_peak_mb: Math.round(e.rssPeakMb),
    sent: e.expected,
    stored: e.stored,
    lost: e.expected - e.distinct,
    duplicated: e.stored - e.distinct,
    failed_requests: e.saturated.failures + (e.halfRate?.failures ?? 0),
  });
  const p50 = (x: CaseReport['pp'] | undefined) => (has(x) ? round(x.p50Ms) : undefined);
  return {
    generated_at: r.finishedAt,
    command: r.command,
    machine: r.machine,
    options: r.options,
    ingest: r.ingest
      ? {
          ...ingest(r.ingest.pp),
          with_rules: r.ingest.ppRules
            ? {
                rules_per_project: r.ingest.ppRules.rules,
                ...ingest(r.ingest.ppRules),
                labeled_events: r.ingest.ppRules.derived,
                rounds: r.ingest.ppRules.rounds ? { without: r.ingest.ppRules.rounds.without.map(Math.round), with: r.ingest.ppRules.rounds.with.map(Math.round) } : undefined,
                share_of_rate_without: round(rulesShare(r.ingest.pp, r.ingest.ppRules).share, 3),
              }
            : undefined,
          peer: r.ingest.peer ? ingest(r.ingest.peer) : undefined,
        }
      : undefined,
    dashboard: perSize((s) => (s.dashboard ? { tiles: s.dashboard.tiles, cold_ms: Math.round(s.dashboard.coldMs), warm_ms: round(s.dashboard.warmMs), target_ms: DASHBOARD_TARGET_MS } : undefined)),
    labeled_rule: perSize((s) =>
      s.labeled ? { derived_events: s.labeled.derivedEvents, materialize_ms: Math.round(s.labeled.materializeMs), teardown_ms: Math.round(s.labeled.teardownMs) } : undefined,
    ),
    queries: Object.fromEntries(
      kinds.map((k) => [
        k,
        {
          p50_ms: perSize((s) => p50(caseOf(s, k)?.pp)),
          cached_p50_ms: perSize((s) => mapUndef(cachedOf(caseOf(s, k)), round)),
          check: perSize((s) => caseOf(s, k)?.check),
          target_ms: r.sizes[0]?.cases.find((c) => c.kind === k)?.targetMs,
        },
      ]),
    ),
    peer: {
      ...Object.fromEntries(kinds.map((k) => [k, { p50_ms: perSize((s) => p50(caseOf(s, k)?.peer)) }])),
      rss_peak_mb: perSize((s) => (s.peer ? Math.round(s.peer.rssPeakMb) : undefined)),
      mb_per_million_events: perSize((s) => (s.peer ? round(s.peer.bytes / MB / (s.events / 1e6)) : undefined)),
    },
    ratio: Object.fromEntries(kinds.map((k) => [k, perSize((s) => mapUndef(ratioOf(caseOf(s, k)!), (x) => round(x, 2)))])),
    clickhouse_engine: perSize((s) =>
      s.engine?.map((e) => ({
        cluster: e.cluster,
        ingest: {
          events_per_s: Math.round(e.ingest.saturated.eventsPerS),
          stored_events_per_s: Math.round(storedRate(e.ingest)),
          saturated_p50_ms: round(e.ingest.saturated.p50Ms),
          saturated_p99_ms: round(e.ingest.saturated.p99Ms),
          rss_peak_mb: Math.round(e.ingest.rssPeakMb),
          cpu_us_per_event: { pp: round(e.ingest.cpuUsPerEvent.pp), clickhouse: round(e.ingest.cpuUsPerEvent.clickhouse) },
          sent: e.ingest.expected,
          stored: e.ingest.stored,
          lost: e.ingest.expected - e.ingest.distinct,
          duplicated: e.ingest.stored - e.ingest.distinct,
          identity_links: e.ingest.links,
        },
        load: mapUndef(e.load, (l) => ({
          migrate_s: round(l.migrateMs / 1000),
          migrate_events_per_s: Math.round(migrateRate(l)),
          events: l.events,
          identity_links: l.identityLinks,
          recording_chunks: l.recordingChunks,
          mb_per_million_events: round(l.bytes / MB / (s.events / 1e6)),
          rss_peak_mb: Math.round(l.rssPeakMb),
        })),
        queries: Object.fromEntries(
          e.cases.map((c) => [
            c.kind,
            {
              p50_ms: p50(c.pp),
              reason: has(c.pp) ? undefined : c.pp.reason,
              peer_p50_ms: mapUndef(c.peerP50Ms, round),
              ratio: mapUndef(engineRatioOf(c), (x) => round(x, 2)),
              duckdb_ratio: mapUndef(duckdbRatioOf(c), (x) => round(x, 2)),
              check: c.check,
            },
          ]),
        ),
      })),
    ),
    rss_peak_mb: perSize((s) => Math.round(s.pp.rssPeakMb)),
    http_baseline_ms: perSize((s) => round(s.pp.baselineMs)),
    mb_per_million_events: perSize((s) => round(s.pp.fileBytes / MB / (s.events / 1e6))),
  };
}

function mapUndef<T, U>(x: T | undefined, f: (v: T) => U): U | undefined {
  return x === undefined ? undefined : f(x);
}

function cell(x: CaseReport['pp'] | undefined): string {
  if (x === undefined) return '—';
  return has(x) ? ms(x.p50Ms) : x.reason.startsWith('not available') ? 'n/a' : 'failed';
}

/** The generated Markdown block of one run. */
export function markdownBlock(r: RunReport): string {
  const lines: string[] = [];
  lines.push(`### Run of ${r.finishedAt.slice(0, 16).replace('T', ' ')} UTC`, '');
  lines.push(`Command: \`${r.command}\``, '');
  lines.push(
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ')}.`,
    '',
  );
  if (r.ingest) {
    lines.push('**Ingest** (HTTP, batches of 100, durable acknowledgement on pp):', '');
    lines.push('| engine | events/s (saturated) | p50 / p99 ack at saturation, ms | half rate, events/s | p50 / p99 ack at half rate, ms | peak RSS, MB | sent / stored / lost / duplicated |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- |');
    const rules = r.ingest.ppRules;
    for (const [name, e] of [
      ['pp', r.ingest.pp],
      [`pp, ${rules?.rules} labeled-event rules per project`, rules],
      ['ClickHouse', r.ingest.peer],
    ] as const) {
      if (!e) continue;
      const h = 'halfRate' in e ? e.halfRate : undefined;
      lines.push(
        `| ${name} | ${Math.round(e.saturated.eventsPerS).toLocaleString('en-US')} | ${ms(e.saturated.p50Ms)} / ${ms(e.saturated.p99Ms)} | ${h ? Math.round(h.eventsPerS).toLocaleString('en-US') : '—'} | ${h ? `${ms(h.p50Ms)} / ${ms(h.p99Ms)}` : '—'} | ${Math.round(e.rssPeakMb)} | ${e.expected} / ${e.stored} / ${e.expected - e.distinct} / ${e.stored - e.distinct} |`,
      );
    }
    const rounds = rules?.rounds;
    if (rules && rounds && rounds.with.length > 1) {
      const { share, with: w, without } = rulesShare(r.ingest.pp, rules);
      const list = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(', ');
      lines.push(
        '',
        `Saturated rounds, alternating: without rules ${list(rounds.without)} (median ${Math.round(without).toLocaleString('en-US')}); with rules ${list(rounds.with)} (median ${Math.round(w).toLocaleString('en-US')}): ${(share * 100).toFixed(0)} %.`,
      );
    }
    lines.push('');
  }
  const sizes = r.sizes;
  // `--only ingest` runs no query.
  if (sizes.some((s) => s.cases.length > 0)) lines.push(...queryTables(sizes));
  const labeled = sizes.filter((s) => s.labeled);
  if (labeled.length > 0) {
    lines.push('**Labeled events**: one rule (a primary button\'s "Add to cart" clicks) derived over the main project\'s whole history, then deleted:', '');
    lines.push('| events | labeled events | derived in, s | torn down in, s |', '| --- | --- | --- | --- |');
    for (const s of labeled)
      lines.push(`| ${label(s.events)} | ${s.labeled!.derivedEvents.toLocaleString('en-US')} | ${(s.labeled!.materializeMs / 1000).toFixed(1)} | ${(s.labeled!.teardownMs / 1000).toFixed(1)} |`);
    lines.push('');
  }
  if (sizes.some((s) => s.engine)) lines.push(...engineTables(sizes));
  const boards = sizes.filter((s) => s.dashboard);
  if (boards.length > 0) {
    lines.push('**Dashboard**: eight insight tiles opened as a browser opens them, the dashboard then every tile’s answer requested at once (median, ms):', '');
    lines.push('| events | cold (every tile computed) | from the result cache | target |', '| --- | --- | --- | --- |');
    for (const s of boards) lines.push(`| ${label(s.events)} | ${ms(s.dashboard!.coldMs)} | ${ms(s.dashboard!.warmMs)} | ≤ ${DASHBOARD_TARGET_MS} ms |`);
    lines.push('');
  }
  lines.push(...targetLines(r));
  const problems = sizes.flatMap((s) => s.cases.filter((c) => c.check.startsWith('mismatch') || c.check.startsWith('failed')).map((c) => `- ${label(s.events)} ${c.kind}: ${c.check}`));
  if (problems.length > 0) lines.push('', 'Disagreements and failures:', '', ...problems);
  return lines.join('\n');
}

const cachedOf = (c: CaseReport | undefined) => (c && has(c.pp) ? c.pp.cachedP50Ms : undefined);

/** The query table and the memory and storage table of the sizes run. */
function queryTables(sizes: SizeReport[]): string[] {
  const lines: string[] = [];
  lines.push('**Queries** (median of the timed runs after a warm-up, ms, measured over HTTP; ratio = pp / ClickHouse, printed only when both return the same numbers):', '');
  const head = ['case', ...sizes.flatMap((s) => [`pp ${label(s.events)}`, `CH ${label(s.events)}`, `ratio ${label(s.events)}`])];
  // How each engine's time grows from one size to the next.
  const steps = sizes.slice(1).map((_, i) => [i, i + 1] as const);
  for (const [a, b] of steps) head.push(`pp ×, ${label(sizes[a]!.events)}→${label(sizes[b]!.events)}`, `CH ×, ${label(sizes[a]!.events)}→${label(sizes[b]!.events)}`);
  head.push('target', 'same numbers');
  lines.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
  for (const c0 of sizes[0]!.cases) {
    const row = [c0.title];
    const all = sizes.map((s) => s.cases.find((c) => c.kind === c0.kind)!);
    for (const c of all) {
      const ratio = ratioOf(c);
      row.push(cell(c.pp), cell(c.peer), ratio === undefined ? '—' : ratio.toFixed(2));
    }
    for (const [i, j] of steps) {
      const [a, b] = [all[i]!, all[j]!];
      row.push(has(a.pp) && has(b.pp) ? `${(b.pp.p50Ms / a.pp.p50Ms).toFixed(1)}×` : '—', has(a.peer) && has(b.peer) ? `${(b.peer.p50Ms / a.peer.p50Ms).toFixed(1)}×` : '—');
    }
    row.push(`≤ ${c0.targetMs} ms${c0.peerTarget ? ', ratio ≤ 1' : ''}`);
    row.push(all.map((c) => (c.check === 'match' ? 'yes' : c.check.startsWith('mismatch') ? '**no**' : c.check)).join(' / '));
    lines.push(`| ${row.join(' | ')} |`);
  }
  lines.push('');
  lines.push('The timed runs ask for a fresh answer (`Cache-Control: no-cache`). The same request again, with no event changed, comes from the result cache:');
  for (const s of sizes) {
    const cached = s.cases.map(cachedOf).filter((x): x is number => x !== undefined);
    lines.push(
      `- ${label(s.events)}: ${cached.length > 0 ? `${ms(Math.min(...cached))}–${ms(Math.max(...cached))} ms (median per case) for ${cached.length} of ${s.cases.length} cases` : 'no case was answered from the cache'}`,
    );
  }
  lines.push('');
  lines.push('**Memory and storage**:', '');
  lines.push(
    '| events | pp `events.memory_limit_mb` | pp peak RSS during queries, MB | ClickHouse peak RSS during queries, MB | pp MB per million events | ClickHouse MB per million events | load pp / ClickHouse, s | pp request without a query, ms |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const s of sizes) {
    const per = (bytes: number) => (bytes / MB / (s.events / 1e6)).toFixed(1);
    lines.push(
      `| ${label(s.events)} | ${s.pp.memoryLimitMb ?? '—'} | ${Math.round(s.pp.rssPeakMb)} | ${s.peer ? Math.round(s.peer.rssPeakMb) : '—'} | ${per(s.pp.fileBytes)} | ${s.peer ? per(s.peer.bytes) : '—'} | ${(s.pp.loadMs / 1000).toFixed(0)} / ${s.peer ? (s.peer.loadMs / 1000).toFixed(0) : '—'} | ${ms(s.pp.baselineMs)} |`,
    );
  }
  lines.push('');
  return lines;
}

/**
 * The issue's targets: query times, ratios, memory and storage at the largest size up to 10M (10M
 * in a full run); at a size ten times that (100M), no query more than `growth` times its time there.
 */
export const TARGETS = { ingestWithRules: 0.9, ingestEventsPerS: 100_000, ingestP99Ms: 50, rssMb: 512, mbPerMillion: 25, mainEvents: 10_000_000, growth: 10 };

function targetLines(r: RunReport): string[] {
  const out: string[] = [];
  const verdict = (ok: boolean, text: string) => out.push(`- ${ok ? 'met' : '**missed**'}: ${text}`);
  if (r.ingest) {
    const e = r.ingest.pp;
    const rate = e.saturated.eventsPerS;
    verdict(
      rate >= TARGETS.ingestEventsPerS,
      `ingest ${Math.round(rate).toLocaleString('en-US')} events/s (target ≥ ${TARGETS.ingestEventsPerS.toLocaleString('en-US')}${rate < TARGETS.ingestEventsPerS ? `, ${(TARGETS.ingestEventsPerS / rate).toFixed(1)}× short` : ''})`,
    );
    if (e.halfRate) verdict(e.halfRate.p99Ms <= TARGETS.ingestP99Ms, `p99 acknowledgement at half rate ${ms(e.halfRate.p99Ms)} ms (target ≤ ${TARGETS.ingestP99Ms} ms)`);
    verdict(e.expected === e.distinct && e.stored === e.distinct, `${e.expected - e.distinct} events lost, ${e.stored - e.distinct} stored twice`);
    const rules = r.ingest.ppRules;
    if (rules) {
      const { share, with: withRules } = rulesShare(e, rules);
      const of = rules.rounds && rules.rounds.with.length > 1 ? `median of ${rules.rounds.with.length} alternating rounds` : 'one run';
      verdict(
        share >= TARGETS.ingestWithRules,
        `ingest with ${rules.rules} labeled-event rules per project ${Math.round(withRules).toLocaleString('en-US')} events/s, ${(share * 100).toFixed(0)} % of the figure without (${of}; target ≥ ${TARGETS.ingestWithRules * 100} %)`,
      );
    }
  }
  const s = r.sizes.filter((x) => x.events <= TARGETS.mainEvents).at(-1) ?? r.sizes[0];
  if (!s) return out;
  const size = label(s.events);
  for (const c of s.cases) {
    if (!has(c.pp)) continue;
    const p50 = c.pp.p50Ms;
    verdict(p50 <= c.targetMs, `${c.kind} at ${size}: ${ms(p50)} ms (target ≤ ${c.targetMs} ms${p50 > c.targetMs ? `, ${ms(p50 - c.targetMs)} ms over, ${(p50 / c.targetMs).toFixed(1)}×` : ''})`);
    const ratio = ratioOf(c);
    if (c.peerTarget && ratio !== undefined) verdict(ratio <= 1, `${c.kind} at ${size} against ClickHouse: ratio ${ratio.toFixed(2)} (target ≤ 1.0)`);
  }
  if (s.dashboard)
    verdict(
      s.dashboard.coldMs <= DASHBOARD_TARGET_MS,
      `a dashboard of ${s.dashboard.tiles} tiles at ${size} renders in ${ms(s.dashboard.coldMs)} ms cold, ${ms(s.dashboard.warmMs)} ms warm (target ≤ ${DASHBOARD_TARGET_MS} ms)`,
    );
  verdict(s.pp.rssPeakMb <= TARGETS.rssMb, `server peak RSS during the ${size} queries ${Math.round(s.pp.rssPeakMb)} MB (target ≤ ${TARGETS.rssMb} MB)`);
  const per = s.pp.fileBytes / MB / (s.events / 1e6);
  verdict(per <= TARGETS.mbPerMillion, `storage ${per.toFixed(1)} MB per million events (target ≤ ${TARGETS.mbPerMillion})`);
  for (const big of r.sizes.filter((x) => x.events >= 10 * s.events)) {
    for (const c of big.cases) {
      const base = s.cases.find((x) => x.kind === c.kind);
      if (!base || !has(base.pp)) continue;
      const text = `${c.kind} at ${label(big.events)}`;
      if (!has(c.pp)) verdict(false, `${text}: ${c.pp.reason}`);
      else verdict(c.pp.p50Ms <= TARGETS.growth * base.pp.p50Ms, `${text}: ${ms(c.pp.p50Ms)} ms, ${(c.pp.p50Ms / base.pp.p50Ms).toFixed(1)}× its ${size} time (target ≤ ${TARGETS.growth}×)`);
    }
  }
  return [`Targets (issue 11), at ${size}${r.sizes.some((x) => x.events >= 10 * s.events) ? ' and, for growth, beyond' : ''}:`, '', ...out];
}

const engineCell = (x: EngineCaseReport['pp']) => (has(x) ? ms(x.p50Ms) : x.reason.startsWith(NOT_ON_ENGINE) ? 'not on this engine yet' : 'failed');
const sameCell = (check: string) => (check === 'match' ? 'yes' : check.startsWith('mismatch') ? '**no**' : check.startsWith(NOT_ON_ENGINE) ? '—' : check);

/** The "pp over ClickHouse" section: ingest and bulk load into each cluster, every case's time, ratios and check, and the verdicts. */
export function engineTables(sizes: SizeReport[]): string[] {
  const runs = sizes.flatMap((s) => (s.engine ?? []).map((e) => ({ size: s, e })));
  const lines: string[] = [];
  lines.push(
    "**pp over ClickHouse** (`--engine clickhouse`: pp with `events.engine = clickhouse`. Ingest: a sample of the generator's events sent through `POST /v1/track` with their own times, and its identity links through `POST /v1/identify`, into a database of its own. Queries: the size's whole data set moved from the DuckDB store above by `ppctl events migrate --to clickhouse`, its recordings copied into `replay_chunks`):",
    '',
  );
  lines.push(
    '| cluster | events sent | events/s acknowledged (saturated) | p50 / p99 ack, ms | events/s stored in ClickHouse | CPU per event, pp / ClickHouse, µs | pp peak RSS, MB | sent / stored / lost / duplicated | identity links |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { e } of runs) {
    const i = e.ingest;
    const rate = i.links.perS === undefined ? '' : `, ${Math.round(i.links.perS).toLocaleString('en-US')}/s`;
    const links = i.links.reason ? `${i.links.reason} (${i.links.sent} sent)` : `${i.links.accepted} / ${i.links.sent} accepted${rate}`;
    lines.push(
      `| ${e.cluster} | ${label(i.expected)} | ${Math.round(i.saturated.eventsPerS).toLocaleString('en-US')} | ${ms(i.saturated.p50Ms)} / ${ms(i.saturated.p99Ms)} | ${Math.round(storedRate(i)).toLocaleString('en-US')} | ${i.cpuUsPerEvent.pp.toFixed(0)} / ${i.cpuUsPerEvent.clickhouse.toFixed(0)} | ${Math.round(i.rssPeakMb)} | ${i.expected} / ${i.stored} / ${i.expected - i.distinct} / ${i.stored - i.distinct} | ${links} |`,
    );
  }
  lines.push('');
  const loaded = runs.filter(({ e }) => e.load);
  if (loaded.length > 0) {
    lines.push(
      '| cluster | events | moved by `ppctl events migrate` in, s | events/s moved | identity links | recording chunks copied | MB per million events (all nodes, one replica) | pp peak RSS during queries, MB |',
    );
    lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const { size, e } of loaded) {
      const l = e.load!;
      lines.push(
        `| ${e.cluster} | ${label(size.events)} | ${(l.migrateMs / 1000).toFixed(0)} | ${Math.round(migrateRate(l)).toLocaleString('en-US')} | ${l.identityLinks} | ${l.recordingChunks} | ${(l.bytes / MB / (size.events / 1e6)).toFixed(1)} | ${Math.round(l.rssPeakMb)} |`,
      );
    }
    lines.push('');
  }
  lines.push('Ratios: pp over ClickHouse / bare ClickHouse on one node (× CH), and / pp on DuckDB in the same run (× DuckDB).', '');
  const head = ['case', 'target', ...runs.flatMap(({ size, e }) => [`${e.cluster} ${label(size.events)}, ms`, '× CH', '× DuckDB', 'same as DuckDB'])];
  lines.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
  const kinds = [...new Set(runs.flatMap(({ e }) => e.cases.map((c) => c.kind)))];
  const ratio = (x: number | undefined) => mapUndef(x, (r) => r.toFixed(2)) ?? '—';
  for (const kind of kinds) {
    const all = runs.map(({ e }) => e.cases.find((c) => c.kind === kind));
    const first = all.find((c) => c)!;
    const row = [first.title, first.peerP50Ms === undefined ? `≤ ${first.targetMs} ms` : `≤ ${ENGINE_TARGETS.ratio}× CH`];
    for (const c of all) {
      if (!c) row.push('—', '—', '—', '—');
      else row.push(engineCell(c.pp), ratio(engineRatioOf(c)), ratio(duckdbRatioOf(c)), sameCell(c.check));
    }
    lines.push(`| ${row.join(' | ')} |`);
  }
  lines.push('', 'Targets (pp over ClickHouse):', '');
  const verdict = (ok: boolean, text: string) => lines.push(`- ${ok ? 'met' : '**missed**'}: ${text}`);
  for (const { size, e } of runs) {
    const at = `${e.cluster} at ${label(size.events)}`;
    const rate = storedRate(e.ingest);
    verdict(
      rate >= ENGINE_TARGETS.ingestEventsPerS && e.ingest.expected === e.ingest.distinct,
      `ingest into ${at}: ${Math.round(rate).toLocaleString('en-US')} events/s stored, ${e.ingest.expected - e.ingest.distinct} lost (target ≥ ${ENGINE_TARGETS.ingestEventsPerS.toLocaleString('en-US')}, none lost)`,
    );
    for (const c of e.cases) {
      if (!has(c.pp)) continue;
      const same = c.check === 'match';
      const answer = same ? ', same answer as DuckDB' : `, answer ${c.check.startsWith('mismatch') ? 'not the same as DuckDB' : c.check}`;
      const ratio = engineRatioOf(c);
      if (ratio !== undefined)
        verdict(ratio <= ENGINE_TARGETS.ratio && same, `${c.kind} on ${at}: ${ms(c.pp.p50Ms)} ms, ratio ${ratio.toFixed(2)} to bare ClickHouse (target ≤ ${ENGINE_TARGETS.ratio})${answer}`);
      else verdict(c.pp.p50Ms <= c.targetMs && same, `${c.kind} on ${at}: ${ms(c.pp.p50Ms)} ms (no bare ClickHouse query; target ≤ ${c.targetMs} ms)${answer}`);
    }
    const waiting = e.cases.filter((c) => !has(c.pp) && c.pp.reason.startsWith(NOT_ON_ENGINE)).map((c) => c.kind);
    if (waiting.length > 0) lines.push(`- not on this engine yet on ${at}: ${waiting.join(', ')}`);
    for (const c of e.cases) if (c.check.startsWith('mismatch') || c.check.startsWith('failed')) lines.push(`- ${c.kind} on ${at}: ${has(c.pp) ? c.check : c.pp.reason}`);
  }
  lines.push('');
  return lines;
}

const LATEST_START = '<!-- bench:latest:start -->';
const LATEST_END = '<!-- bench:latest:end -->';
const PREVIOUS = '<!-- bench:previous -->';

/** Puts the new block in place of the latest one and keeps the old one beneath, under "Previous runs". */
export function updateBenchmarksMd(file: string, block: string, skeleton: string): void {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : skeleton;
  if (!text.includes(LATEST_START) || !text.includes(PREVIOUS)) text = `${text.trimEnd()}\n\n${skeleton}`;
  const start = text.indexOf(LATEST_START) + LATEST_START.length;
  const end = text.indexOf(LATEST_END);
  const old = text.slice(start, end).trim();
  text = `${text.slice(0, start)}\n${block}\n${text.slice(end)}`;
  if (old) text = text.replace(PREVIOUS, `${PREVIOUS}\n\n${old.replace(/^### /m, '#### ')}\n`);
  writeFileSync(file, text);
}

/** What BENCHMARKS.md starts from when it has no markers yet. */
export const BENCHMARKS_SKELETON = `## Latest run

${LATEST_START}
${LATEST_END}

## Previous runs

${PREVIOUS}
`;
