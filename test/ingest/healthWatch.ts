// Watches the installation's responsiveness while a test loads it: GET /api/v1/health every 100 ms
// from the server's own process, so an event loop held by some work shows as a late or slow answer.

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestServer } from '../support/testServer.js';

const EVERY_MS = 100;

export interface HealthWatch {
  /** Stops polling; answers how many polls ran and the worst wait: a slow answer, or a poll that started late. */
  stop(): Promise<{ polls: number; worstMs: number; failures: string[] }>;
}

export function watchHealth(server: TestServer): HealthWatch {
  let stopped = false;
  let polls = 0;
  let worstMs = 0;
  const failures: string[] = [];
  const loop = (async () => {
    let due = performance.now();
    while (!stopped) {
      const started = performance.now();
      const res = await server.request('GET', '/api/v1/health');
      const answered = performance.now();
      polls += 1;
      if (res.status !== 200) failures.push(`health answered ${res.status}`);
      worstMs = Math.max(worstMs, answered - started, started - due);
      due = started + EVERY_MS;
      await sleep(Math.max(0, due - performance.now()));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { polls, worstMs, failures };
    },
  };
}
