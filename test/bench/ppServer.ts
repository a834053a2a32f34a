// The server under test: the real `ppctl serve` as a child process on a prepared data directory,
// with its log written to a file (the default log level, as an installation runs it), signed in
// through the real login route, and its memory read from /proc.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { packageRoot } from '../../server/ground/packageRoot.js';
import type { Installation } from './installation.js';
import { freePort, processMemory, type ProcessMemory } from './processes.js';

export const PPCTL = path.join(packageRoot(), 'dist', 'bin', 'ppctl.js');

/** A keep-alive agent per server; the ingest clients get their own sockets from it. */
function agentFor(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 64 });
}

export interface HttpResponse {
  status: number;
  body: string;
  ms: number;
  headers: http.IncomingHttpHeaders;
}

export class PpServer {
  private token: { value: string; at: number } | undefined;
  private stopped = false;
  readonly agent = agentFor();

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly inst: Installation,
    readonly logFile: string,
    private readonly logStart: number,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  static async start(inst: Installation, logFile: string, env: Record<string, string> = {}): Promise<PpServer> {
    const port = await freePort();
    const logStart = existsSync(logFile) ? statSync(logFile).size : 0;
    const log = openSync(logFile, 'a');
    // PP_BENCH_PROFILE_DIR: each server writes a CPU profile there when it stops.
    const profile = process.env.PP_BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PP_BENCH_PROFILE_DIR}`] : [];
    const child = spawn(process.execPath, [...profile, PPCTL, 'serve', '--data-dir', inst.dataDir, '--port', String(port)], {
      env: {
        ...process.env,
        PP_LICENSE_TRUSTED_KEYS: inst.licenseKeysDir,
        PP_LOG_LEVEL: 'info',
        // The bench signs in once and sends hundreds of queries a minute from one address.
        PP_RATE_LIMIT_IP_PER_MINUTE: '1000000',
        PP_RATE_LIMIT_USER_PER_MINUTE: '1000000',
        PP_QUERY_TIMEOUT_MS: '300000',
        ...env,
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const server = new PpServer(child, port, inst, logFile, logStart);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`ppctl serve exited with ${child.exitCode}; see ${logFile}`);
      const ok = await server.request('GET', '/api/v1/health').then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return server;
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`ppctl serve did not answer within 120 s; see ${logFile}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Waits until the server's log holds `text` (written after this server started). */
  async waitForLog(text: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!readFileSync(this.logFile).subarray(this.logStart).toString('utf8').includes(text)) {
      if (this.child.exitCode !== null) throw new Error(`ppctl serve exited with ${this.child.exitCode}; see ${this.logFile}`);
      if (Date.now() > deadline) throw new Error(`"${text}" did not appear in ${this.logFile} within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  request(method: string, urlPath: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...options.headers };
      if (options.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        headers['content-length'] = Buffer.byteLength(options.body);
      }
      const started = performance.now();
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path: urlPath, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** An access token of the owner; signs in again before the 15-minute lifetime runs out. */
  async accessToken(): Promise<string> {
    if (this.token && Date.now() - this.token.at < 10 * 60_000) return this.token.value;
    const res = await this.request('POST', '/api/v1/auth/login', { body: JSON.stringify({ email: this.inst.email, password: this.inst.password }) });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
    this.token = { value: (JSON.parse(res.body) as { access_token: string }).access_token, at: Date.now() };
    return this.token.value;
  }

  /** A request with the owner's access token. */
  async api(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const token = await this.accessToken();
    return this.request(method, urlPath, { body: body === undefined ? undefined : JSON.stringify(body), headers: { ...headers, authorization: `Bearer ${token}` } });
  }

  memory(): ProcessMemory {
    return processMemory(this.pid);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.agent.destroy();
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
}
