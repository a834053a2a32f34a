// The bench report for a run of ingestion alone (`--only ingest`) and for a run with one size:
// which tables appear and which targets are judged met or missed.

import t from 'tap';
import { benchmarksJson, markdownBlock, type EngineIngest, type RunReport, type SizeReport } from './report.js';

const phase = (eventsPerS: number, p99Ms: number) => ({ batches: 10, events: 1000, accepted: 1000, failures: 0, seconds: 1000 / eventsPerS, eventsPerS, p50Ms: p99Ms / 4, p99Ms, maxMs: p99Ms * 2 });

function ingest(stored: number): EngineIngest {
  return { saturated: phase(30_000, 600), halfRate: phase(15_000, 40), rssPeakMb: 400, stored, distinct: 1000, expected: 1000 };
}

function report(sizes: SizeReport[], stored = 1000): RunReport {
  return {
    startedAt: '2026-11-22T04:00:00.000Z',
    finishedAt: '2026-11-22T04:10:00.000Z',
    command: 'npm run bench',
    machine: { cpu: 2 },
    options: { seed: 42, runs: 5, warmups: 1, clients: 32, ingestEvents: 1000 },
    ingest: { pp: ingest(stored) },
    sizes,
  };
}

t.test('a run of ingestion alone has the ingest table and verdicts and no query table', async (t) => {
  const block = markdownBlock(report([], 1001));
  t.match(block, /\| pp \| 30,000 \| 150 \/ 600 \| 15,000 \| 10\.0 \/ 40\.0 \| 400 \| 1000 \/ 1001 \/ 0 \/ 1 \|/);
  t.notMatch(block, /\*\*Queries\*\*/);
  t.match(block, /- \*\*missed\*\*: ingest 30,000 events\/s \(target ≥ 100,000, 3\.3× short\)/);
  t.match(block, /- met: p99 acknowledgement at half rate 40\.0 ms/);
  t.match(block, /- \*\*missed\*\*: 0 events lost, 1 stored twice/);
  const json = benchmarksJson(report([]));
  t.match(json, { ingest: { events_per_s: 30_000 }, queries: {} });
});

t.test('a run with a size judges the query, memory and storage targets', async (t) => {
  const size: SizeReport = {
    events: 10_000_000,
    generateMs: 1,
    pp: { loadMs: 1000, fileBytes: 300 * 1024 * 1024, rssPeakMb: 600, rssAfterStartMb: 100, baselineMs: 1, memoryLimitMb: 192 },
    peer: { loadMs: 1000, bytes: 700 * 1024 * 1024, rssPeakMb: 300 },
    cases: [{ kind: 'funnel', title: 'Funnel', targetMs: 300, peerTarget: true, pp: { p50Ms: 90, runsMs: [90], cachedP50Ms: 1.24 }, peer: { p50Ms: 60, runsMs: [60] }, check: 'match' }],
  };
  const block = markdownBlock(report([size]));
  t.match(block, /\| Funnel \| 90\.0 \| 60\.0 \| 1\.50 \|/);
  t.match(block, /- 10M: 1\.2–1\.2 ms \(median per case\) for 1 of 1 cases/);
  t.match(block, /- met: funnel at 10M: 90\.0 ms/);
  t.match(block, /- \*\*missed\*\*: funnel at 10M against ClickHouse: ratio 1\.50/);
  t.match(block, /- \*\*missed\*\*: server peak RSS during the 10M queries 600 MB/);
  t.match(block, /- \*\*missed\*\*: storage 30\.0 MB per million events/);
  t.match(benchmarksJson(report([size])), { queries: { funnel: { p50_ms: { '10000000': 90 }, cached_p50_ms: { '10000000': 1.2 } } }, ratio: { funnel: { '10000000': 1.5 } } });
});

t.test('the share the rules leave is judged on the medians of the alternating rounds', async (t) => {
  const run = report([]);
  const rules = { ...ingest(1000), halfRate: undefined, rules: 20, derived: 130, saturated: phase(20_000, 700) };
  run.ingest!.ppRules = { ...rules, rounds: { without: [30_000, 25_000, 26_000], with: [20_000, 24_000, 23_500] } };
  const block = markdownBlock(run);
  t.match(block, /without rules 30,000, 25,000, 26,000 \(median 26,000\); with rules 20,000, 24,000, 23,500 \(median 23,500\): 90 %/);
  t.match(block, /- met: ingest with 20 labeled-event rules per project 23,500 events\/s, 90 % of the figure without \(median of 3 alternating rounds/);
  t.match(benchmarksJson(run), { ingest: { with_rules: { share_of_rate_without: 0.904, rounds: { with: [20_000, 24_000, 23_500] } } } });
  run.ingest!.ppRules = rules;
  t.match(markdownBlock(run), /- \*\*missed\*\*: ingest with 20 labeled-event rules per project 20,000 events\/s, 67 % of the figure without \(one run/);
});

t.test('pp over ClickHouse: ingest and bulk load per cluster, each case against bare ClickHouse or its target, checked against DuckDB, and cases the engine does not answer yet', async (t) => {
  const engineIngest = (eventsPerS: number) => ({
    saturated: phase(eventsPerS, 200),
    storedMs: 1000,
    rssPeakMb: 300,
    cpuUsPerEvent: { pp: 30.44, clickhouse: 12.2 },
    stored: 60_000,
    distinct: 60_000,
    expected: 60_000,
    links: { sent: 10, accepted: 10, perS: 1234.4 },
  });
  const size: SizeReport = {
    events: 100_000,
    generateMs: 1,
    pp: { loadMs: 1000, fileBytes: 1024 * 1024, rssPeakMb: 300, rssAfterStartMb: 100, baselineMs: 1, memoryLimitMb: 192 },
    cases: [],
    engine: [
      {
        cluster: 'one node',
        ingest: engineIngest(70_000),
        load: { migrateMs: 4000, events: 100_000, identityLinks: 500, recordingChunks: 900, recordingsMs: 100, bytes: 6 * 1024 * 1024, rssPeakMb: 250 },
        cases: [
          { kind: 'funnel', title: 'Funnel', targetMs: 300, duckdbP50Ms: 60, pp: { p50Ms: 30, runsMs: [30] }, peerP50Ms: 25, check: 'match' },
          { kind: 'retention', title: 'Retention', targetMs: 400, pp: { reason: 'not on this engine yet: retention' }, peerP50Ms: 40, check: 'not on this engine yet' },
          { kind: 'lifecycle', title: 'Lifecycle', targetMs: 300, pp: { p50Ms: 20, runsMs: [20] }, peerP50Ms: 10, check: 'mismatch: 1 of 4 figures differ: x: DuckDB 1 vs ClickHouse 2' },
          { kind: 'web', title: 'Web page', targetMs: 500, duckdbP50Ms: 400, pp: { p50Ms: 600, runsMs: [600] }, check: 'match' },
          { kind: 'forms', title: 'Forms', targetMs: 300, duckdbP50Ms: 200, pp: { p50Ms: 100, runsMs: [100] }, check: 'match' },
        ],
      },
      {
        cluster: '2 shards',
        ingest: { ...engineIngest(40_000), storedMs: 2000, stored: 59_999, distinct: 59_999, links: { sent: 1, accepted: 0, reason: 'not on this engine yet' } },
        cases: [
          { kind: 'funnel', title: 'Funnel', targetMs: 300, pp: { p50Ms: 40, runsMs: [40] }, peerP50Ms: 25, check: 'match' },
          { kind: 'retention', title: 'Retention', targetMs: 400, pp: { reason: 'failed: GET answered 500' }, peerP50Ms: 40, check: 'failed' },
        ],
      },
    ],
  };
  const block = markdownBlock(report([size]));
  t.match(block, /\*\*pp over ClickHouse\*\*/);
  t.match(block, /\| one node \| 60k \| 70,000 \| 50\.0 \/ 200 \| 60,000 \| 30 \/ 12 \| 300 \| 60000 \/ 60000 \/ 0 \/ 0 \| 10 \/ 10 accepted, 1,234\/s \|/);
  t.match(block, /\| 2 shards \| 60k \| 40,000 \| 50\.0 \/ 200 \| 30,000 \| 30 \/ 12 \| 300 \| 60000 \/ 59999 \/ 1 \/ 0 \| not on this engine yet \(1 sent\) \|/);
  t.match(block, /\| one node \| 100k \| 4 \| 25,000 \| 500 \| 900 \| 60\.0 \| 250 \|/);
  t.match(block, /\| Funnel \| ≤ 1\.5× CH \| 30\.0 \| 1\.20 \| 0\.50 \| yes \| 40\.0 \| 1\.60 \| — \| yes \|/);
  // Not answered yet is neither a number nor a failure; a case one layout did not run is blank.
  t.match(block, /\| Retention \| ≤ 1\.5× CH \| not on this engine yet \| — \| — \| — \| failed \| — \| — \| failed \|/);
  t.match(block, /\| Lifecycle \| ≤ 1\.5× CH \| 20\.0 \| 2\.00 \| — \| \*\*no\*\* \| — \| — \| — \| — \|/);
  // With no bare ClickHouse query, the case is held to its target.
  t.match(block, /\| Web page \| ≤ 500 ms \| 600 \| — \| 1\.50 \| yes \|/);
  t.match(block, /- \*\*missed\*\*: web on one node at 100k: 600 ms \(no bare ClickHouse query; target ≤ 500 ms\), same answer as DuckDB/);
  t.match(block, /- met: forms on one node at 100k: 100 ms \(no bare ClickHouse query; target ≤ 300 ms\)/);
  t.match(block, /- met: ingest into one node at 100k: 60,000 events\/s stored, 0 lost/);
  t.match(block, /- \*\*missed\*\*: ingest into 2 shards at 100k: 30,000 events\/s stored, 1 lost/);
  t.match(block, /- met: funnel on one node at 100k: 30\.0 ms, ratio 1\.20 to bare ClickHouse \(target ≤ 1\.5\), same answer as DuckDB/);
  t.match(block, /- \*\*missed\*\*: funnel on 2 shards at 100k: 40\.0 ms, ratio 1\.60/);
  t.match(block, /- \*\*missed\*\*: lifecycle on one node at 100k: 20\.0 ms, ratio 2\.00 to bare ClickHouse \(target ≤ 1\.5\), answer not the same as DuckDB/);
  t.match(block, /- not on this engine yet on one node at 100k: retention\n/);
  t.notMatch(block, /retention on one node/);
  t.match(block, /- retention on 2 shards at 100k: failed: GET answered 500/);
  t.match(benchmarksJson(report([size])), {
    clickhouse_engine: {
      '100000': [
        {
          cluster: 'one node',
          ingest: { events_per_s: 70_000, stored_events_per_s: 60_000, cpu_us_per_event: { pp: 30.4, clickhouse: 12.2 }, lost: 0 },
          load: { migrate_s: 4, migrate_events_per_s: 25_000, mb_per_million_events: 60, recording_chunks: 900 },
          queries: {
            funnel: { p50_ms: 30, ratio: 1.2, duckdb_ratio: 0.5, check: 'match' },
            retention: { p50_ms: undefined, reason: 'not on this engine yet: retention', check: 'not on this engine yet' },
          },
        },
        { cluster: '2 shards', ingest: { lost: 1, identity_links: { reason: 'not on this engine yet' } } },
      ],
    },
  });
});
