// The peer engine: Debian's clickhouse-server (installed with apt-get when missing), run as a child
// process on free loopback ports from a temporary directory with its own minimal configuration
// (never the system service), queried over its HTTP interface, and stopped afterwards.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort, processMemory, type ProcessMemory } from './processes.js';

export const CLICKHOUSE_SERVER = '/usr/sbin/clickhouse-server';

/** Installs Debian's clickhouse-server and clickhouse-client when the server binary is missing. */
export function ensureClickHouseInstalled(log: (line: string) => void): void {
  if (existsSync(CLICKHOUSE_SERVER)) return;
  log('clickhouse-server is missing: installing it with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'clickhouse-server', 'clickhouse-client']]) {
    const r = spawnSync('apt-get', args, { env, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed with status ${r.status}`);
  }
  if (!existsSync(CLICKHOUSE_SERVER)) throw new Error(`apt-get installed clickhouse-server but ${CLICKHOUSE_SERVER} is still missing`);
}

export class ClickHouseError extends Error {}

export interface QueryResult {
  rows: unknown[][];
  ms: number;
}

export class ClickHouse {
  private stopped = false;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dir: string,
    readonly version: string,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  static async start(dir: string): Promise<ClickHouse> {
    for (const sub of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(path.join(dir, sub), { recursive: true });
    const httpPort = await freePort();
    const tcpPort = await freePort();
    writeFileSync(path.join(dir, 'config.xml'), configXml(dir, httpPort, tcpPort));
    writeFileSync(path.join(dir, 'users.xml'), USERS_XML);
    const child = spawn(CLICKHOUSE_SERVER, [`--config-file=${path.join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`clickhouse-server exited with ${child.exitCode}: ${stderr}`);
      const ok = await httpText(httpPort, 'GET', '/ping').then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        await exited;
        throw new Error(`clickhouse-server did not answer on port ${httpPort} within 60 s: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const version = (await httpText(httpPort, 'POST', '/', 'SELECT version()')).body.trim();
    return new ClickHouse(child, httpPort, dir, version);
  }

  /** Runs a statement; rows come back as arrays (JSONCompact) for SELECTs. */
  async query(sql: string): Promise<QueryResult> {
    const isSelect = /^\s*(SELECT|WITH)\b/i.test(sql);
    const started = performance.now();
    const res = await httpText(this.port, 'POST', '/', isSelect ? `${sql}\nFORMAT JSONCompact` : sql);
    const ms = performance.now() - started;
    if (res.status !== 200) throw new ClickHouseError(`ClickHouse answered ${res.status}: ${res.body.slice(0, 2000)}\n-- for --\n${sql}`);
    return { rows: isSelect ? (JSON.parse(res.body) as { data: unknown[][] }).data : [], ms };
  }

  /** Streams a file as the body of `INSERT … FORMAT …`. */
  async insertFile(insert: string, file: string): Promise<void> {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method: 'POST', path: `/?query=${encodeURIComponent(insert)}` }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      createReadStream(file).on('error', reject).pipe(req);
    });
    if (res.status !== 200) throw new ClickHouseError(`ClickHouse refused ${insert}: ${res.body.slice(0, 2000)}`);
  }

  /** Waits until no merge is running (after a load), so queries are not timed against merges. */
  async settle(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const running = Number((await this.query('SELECT count() FROM system.merges')).rows[0]![0]);
      if (running === 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  memory(): ProcessMemory {
    return processMemory(this.pid);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

export function httpText(port: number, method: string, urlPath: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers: body === undefined ? {} : { 'content-length': Buffer.byteLength(body) } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function configXml(dir: string, httpPort: number, tcpPort: number): string {
  const p = (sub: string) => path.join(dir, sub) + '/';
  // UTC server zone: DateTime text is read and written in UTC; queries name each project's zone.
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${p('log')}server.log</log><errorlog>${p('log')}error.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${p('data')}</path>
  <tmp_path>${p('tmp')}</tmp_path>
  <user_files_path>${p('user_files')}</user_files_path>
  <format_schema_path>${p('format_schemas')}</format_schema_path>
  <mark_cache_size>536870912</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
  <timezone>UTC</timezone>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>10000000000</max_memory_usage><use_uncompressed_cache>0</use_uncompressed_cache></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;
