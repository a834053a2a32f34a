// Starts the real server for a test: real app on port 0, a temporary data directory, real SQLite and
// DuckDB, a clock the test moves, and the log lines kept for inspection. Closed in teardown.

import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Test } from 'tap';
import { loadConfig } from '../../server/ground/config.js';
import { createLogger } from '../../server/ground/logger.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { openMetaDb } from '../../server/store/sqlite.js';
import { migrateMeta } from '../../server/store/migrate.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { migrateEvents } from '../../server/engine/duckdb/migrations.js';
import { ManualClock } from './manualClock.js';
import { testKeysDir } from './license.js';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  dataDir: string;
  clock: ManualClock;
  running: RunningServer;
  logs: Array<Record<string, unknown>>;
  request<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Settings by config key, as a config file would give them. */
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  now?: Date;
  dataDir?: string;
}

/**
 * The runner's data folder holding both databases with every migration applied and nothing else (no
 * rows, no secret), made by the first server of the run that needs it (runTests.ts names its place)
 * and copied into each new server's folder: applying every migration to empty databases took about
 * a second of each server's start, a few hundred times a run. A server given its own folder, and a
 * test file run by itself, migrate as before.
 */
let template: Promise<string | undefined> | undefined;
function migratedTemplate(): Promise<string | undefined> {
  template ??= (async () => {
    const dir = process.env.TEST_DATA_TEMPLATE;
    if (!dir) return undefined;
    if (existsSync(dir)) return dir;
    // Made beside it and renamed into place, so a server of another file never copies half of it.
    const stage = await mkdtemp(`${dir}-`);
    const meta = openMetaDb(path.join(stage, 'meta.sqlite'));
    migrateMeta(meta);
    meta.close();
    const events = await DuckDbEngine.open(path.join(stage, 'events.duckdb'));
    await migrateEvents(events);
    await events.close();
    try {
      renameSync(stage, dir);
    } catch {
      rmSync(stage, { recursive: true, force: true }); // another file's server made it first
    }
    return dir;
  })();
  return template;
}

export async function startTestServer(t: Test, options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'pp-test-')));
  const config = loadConfig({ env: { ...options.env }, flags: { port: 0, host: '127.0.0.1', data_dir: dataDir, log_level: 'info', 'license.trusted_keys_dir': testKeysDir(), ...options.settings } });
  const migrated = options.dataDir === undefined ? await migratedTemplate() : undefined;
  if (migrated) {
    for (const file of readdirSync(migrated)) {
      // A server on ClickHouse keeps no events file.
      if (config.events.engine === 'clickhouse' && file.startsWith('events.')) continue;
      copyFileSync(path.join(migrated, file), path.join(dataDir, file));
    }
  }
  const clock = new ManualClock(options.now ?? new Date('2026-11-02T12:00:00Z'));
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      if (process.env.PP_TEST_LOG) process.stderr.write(chunk);
      done();
    },
  });
  const log = createLogger(config.log_level, sink);
  const running = await startServer(config, { clock, log });
  let closed = false;
  const server: TestServer = {
    url: running.url,
    dataDir,
    clock,
    running,
    logs,
    request: (method, urlPath, opts = {}) => request(running.url, method, urlPath, opts),
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
    },
  };
  t.teardown(async () => {
    await server.close();
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return server;
}

export async function request<T = any>(base: string, method: string, urlPath: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.raw;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + urlPath, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
