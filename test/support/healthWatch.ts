// Watches a server while a test loads it: GET /api/v1/health every 100 ms, each poll with its own
// timeout, and the server process's resident memory from /proc. The polls run in a worker thread,
// so the test's own work (building megabyte bodies) can never delay one and read as the server's.

import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Test } from 'tap';

export interface HealthReport {
  /** The slowest answer; a poll that timed out counts as its timeout. */
  maxLatencyMs: number;
  /** Polls slower than the limit, unanswered within the timeout, or failed. */
  breaches: number;
  polls: number;
  /** The most the server process held resident: VmHWM, or a higher VmRSS sample. */
  peakRssBytes: number;
}

export interface HealthWatch {
  stop(): Promise<HealthReport>;
}

export interface WatchOptions {
  /** The server's base URL. */
  url: string;
  /** The server's process id, whose /proc/<pid>/status is read. */
  pid: number;
  intervalMs?: number;
  /** An answer slower than this is a breach. */
  limitMs?: number;
  /** A poll is abandoned (and counted as a breach) after this long. */
  timeoutMs?: number;
}

export const HEALTH_LIMIT_MS = 500;
export const RSS_LIMIT_BYTES = 512 * 1024 * 1024;

interface PollerSettings {
  healthWatch: true;
  url: string;
  pid: number;
  intervalMs: number;
  limitMs: number;
  timeoutMs: number;
}

/** Resolves once the first (unrecorded) poll has answered, so the watch starts warm. */
export async function watchHealth(options: WatchOptions): Promise<HealthWatch> {
  const settings: PollerSettings = {
    healthWatch: true,
    url: options.url,
    pid: options.pid,
    intervalMs: options.intervalMs ?? 100,
    limitMs: options.limitMs ?? HEALTH_LIMIT_MS,
    timeoutMs: options.timeoutMs ?? 1000,
  };
  // Without the test runner's loader hooks, which would cost every watch a second to boot.
  const worker = new Worker(new URL(import.meta.url), { workerData: settings, execArgv: [] });
  let ready!: () => void;
  const warm = new Promise<void>((resolve) => (ready = resolve));
  const report = new Promise<HealthReport>((resolve, reject) => {
    worker.on('message', (m: HealthReport | 'ready') => (m === 'ready' ? ready() : resolve(m)));
    worker.once('error', reject);
  });
  await Promise.race([warm, report]);
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await report;
      await worker.terminate();
      return r;
    },
  };
}

/** Health never waited longer than the limit, and the server stayed under the memory bound. */
export function assertHealthy(t: Test, report: HealthReport, what: string): void {
  t.equal(report.breaches, 0, `${what}: every health poll answered within ${HEALTH_LIMIT_MS} ms (${report.polls} polls, slowest ${Math.round(report.maxLatencyMs)} ms)`);
  t.ok(report.peakRssBytes < RSS_LIMIT_BYTES, `${what}: the server's RSS stayed under 512 MB (peak ${Math.round(report.peakRssBytes / 1048576)} MB)`);
}

/** VmRSS and VmHWM of a process in bytes; zeros once it has gone. */
function residentBytes(pid: number): { rss: number; hwm: number } {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: 0, hwm: 0 };
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function runPoller(s: PollerSettings): Promise<void> {
  const report: HealthReport = { maxLatencyMs: 0, breaches: 0, polls: 0, peakRssBytes: 0 };
  const pending = new Set<Promise<void>>();
  const record = (ms: number, ok: boolean) => {
    report.polls += 1;
    report.maxLatencyMs = Math.max(report.maxLatencyMs, ms);
    if (!ok || ms > s.limitMs) report.breaches += 1;
  };
  const poll = () => {
    const started = performance.now();
    const p = fetch(`${s.url}/api/v1/health`, { signal: AbortSignal.timeout(s.timeoutMs) })
      .then(async (res) => {
        await res.arrayBuffer();
        record(performance.now() - started, res.status === 200);
      })
      .catch(() => record(Math.max(performance.now() - started, s.timeoutMs), false))
      .finally(() => pending.delete(p));
    pending.add(p);
    report.peakRssBytes = Math.max(report.peakRssBytes, residentBytes(s.pid).rss);
  };
  // The first request of a thread loads the HTTP client itself: not the server's time.
  await fetch(`${s.url}/api/v1/health`).then(
    (res) => res.arrayBuffer(),
    () => undefined,
  );
  parentPort!.postMessage('ready');
  // Polls start on the clock, not after the previous answer: a stalled server piles up breaches.
  const timer = setInterval(poll, s.intervalMs);
  poll();
  parentPort!.once('message', async () => {
    clearInterval(timer);
    await Promise.all(pending);
    report.peakRssBytes = Math.max(report.peakRssBytes, residentBytes(s.pid).hwm);
    parentPort!.postMessage(report);
  });
}

if (!isMainThread && (workerData as PollerSettings | undefined)?.healthWatch) void runPoller(workerData as PollerSettings);
