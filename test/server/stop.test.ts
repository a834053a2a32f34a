// Stopping the server ends the process within the documented bound whatever runs: with a DuckDB
// statement that ignores interrupts, SIGTERM ends it by STOP_DEADLINE_MS, a second signal at once,
// and the next start opens the data folder (no lock left behind).

import t from 'tap';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir } from '../support/tempDir.js';
import { startTestServer } from '../support/testServer.js';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { STOP_DEADLINE_MS } from '../../server/start.js';

const SERVER = path.join(packageRoot(), 'dist', 'test', 'server', 'serveWithStuckRead.js');
/** What a process may take beyond the deadline to end and be reaped on a busy machine. */
const SLACK_MS = 3_000;

interface Stuck {
  signal(name: NodeJS.Signals): void;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  logs: Array<Record<string, unknown>>;
}

/** Starts the server with its stuck read and resolves once the read runs. */
async function startStuck(t: { teardown(fn: () => unknown): void }, dataDir: string): Promise<Stuck> {
  const child = spawn(process.execPath, [SERVER, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const logs: Array<Record<string, unknown>> = [];
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (entry.msg === 'stuck read started') resolve();
    });
    void ended.then(() => reject(new Error('the server ended before its read started')));
  });
  // Past the start of execution, where DuckDB no longer looks at interrupts.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { signal: (name) => child.kill(name), ended, logs };
}

t.test('SIGTERM ends the server within the deadline while a statement ignores interrupts', async (t) => {
  const dataDir = await tempDir(t, 'pp-stop-');
  const stuck = await startStuck(t, dataDir);
  const sent = Date.now();
  stuck.signal('SIGTERM');
  const ended = await stuck.ended;
  t.ok(ended.at - sent < STOP_DEADLINE_MS + SLACK_MS, `ended ${ended.at - sent} ms after SIGTERM`);
  t.equal(ended.signal, 'SIGTERM', 'by the signal, as an unhandled SIGTERM would');
  t.ok(
    stuck.logs.some((l) => l.msg === 'the stop did not finish within 10 s; exiting anyway'),
    'says why',
  );

  const next = await startTestServer(t, { dataDir });
  t.equal((await next.request('GET', '/api/v1/health?ready=1')).status, 200, 'the next start opens the data folder');
});

t.test('a second signal ends the server at once', async (t) => {
  const dataDir = await tempDir(t, 'pp-stop-');
  const stuck = await startStuck(t, dataDir);
  stuck.signal('SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = Date.now();
  stuck.signal('SIGINT');
  const ended = await stuck.ended;
  t.ok(ended.at - second < SLACK_MS, `ended ${ended.at - second} ms after the second signal`);
  t.equal(ended.signal, 'SIGINT');
  t.ok(stuck.logs.some((l) => l.msg === 'a second signal: exiting without finishing the stop'));

  const next = await startTestServer(t, { dataDir });
  t.equal((await next.request('GET', '/api/v1/health?ready=1')).status, 200, 'the next start opens the data folder');
});
