// Watches an in-process test server's responsiveness while a test loads it: GET /api/v1/health every
// 100 ms from the server's own process, so an event loop held by some work shows as a late or slow
// answer; and the process's resident memory, the server's included. (healthWatch.ts does the same
// for a server in a process of its own, where memory can be told apart.)

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestServer } from './testServer.js';

const EVERY_MS = 100;

export interface InProcessHealth {
  polls: number;
  /** The worst wait: a slow answer, or a poll that started late because the event loop was held. */
  worstMs: number;
  failures: string[];
  /** How far resident memory rose above where it was when watching began. */
  peakRssGrowth: number;
}

export interface HealthWatch {
  stop(): Promise<InProcessHealth>;
}

export function watchHealth(server: TestServer): HealthWatch {
  let stopped = false;
  let polls = 0;
  let worstMs = 0;
  const failures: string[] = [];
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const loop = (async () => {
    let due = performance.now();
    while (!stopped) {
      const started = performance.now();
      const res = await server.request('GET', '/api/v1/health');
      const answered = performance.now();
      polls += 1;
      if (res.status !== 200) failures.push(`health answered ${res.status}`);
      worstMs = Math.max(worstMs, answered - started, started - due);
      peak = Math.max(peak, process.memoryUsage().rss);
      due = started + EVERY_MS;
      await sleep(Math.max(0, due - performance.now()));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { polls, worstMs, failures, peakRssGrowth: peak - baseline };
    },
  };
}
