// ClickHouse for the tests and the bench: Debian's clickhouse-server (and ZooKeeper for replicas),
// installed with apt-get when missing (testTools.ts), run as child processes on free loopback ports
// from a temporary directory with their own minimal configuration (never the system services), and
// stopped afterwards with nothing left behind.
//
// Two topologies: one node, or ZooKeeper plus 2 shards × 2 replicas (four servers with
// `remote_servers`, `macros` and `zookeeper`), the layout pp's ClickHouse engine is written for. The
// test nodes keep memory low, as they run beside the suite on a two-core machine; the bench's node
// keeps ClickHouse's larger caches (its figures were measured so).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { freePort } from './freePort.js';
import os from 'node:os';
import path from 'node:path';
import { CLICKHOUSE_SERVER, CLICKHOUSE_TOOLS, ensureTestTools, ZOOKEEPER_JAR } from './testTools.js';

export { CLICKHOUSE_SERVER } from './testTools.js';
const JAVA = '/usr/bin/java';

/** Installs Debian's clickhouse-server, clickhouse-client and zookeeper when one is missing (the suite's runner does so before any test). */
export function ensureClickHouseInstalled(): void {
  const problem = ensureTestTools(CLICKHOUSE_TOOLS);
  if (problem !== null) throw new Error(problem);
}

/** Where a node of a cluster sits: its shard and replica (the `{shard}` and `{replica}` macros) and the ports of every node. */
export interface ClusterPlace {
  name: string;
  /** Each shard's replicas, by native (TCP) port, all on 127.0.0.1. */
  shards: number[][];
  shard: string;
  replica: string;
  interserverPort: number;
  zookeeperPort: number;
  /** The nodes' ZooKeeper session timeout (ms): how long a killed replica still counts as active. */
  sessionTimeoutMs: number;
}

export interface NodeConfig {
  dir: string;
  httpPort: number;
  tcpPort: number;
  /** Small caches and few background threads, for nodes that run beside the test suite. */
  lean: boolean;
  cluster?: ClusterPlace;
}

/** The server's config.xml. The zone is UTC: DateTime text is read and written in UTC; queries name each project's zone. */
export function nodeConfigXml(c: NodeConfig): string {
  const p = (sub: string) => `${path.join(c.dir, sub)}/`;
  // 18.16 has no max_server_memory_usage (newer servers read it, older ones ignore it); the
  // per-query limit in users.xml and the small caches keep it low there.
  const memory = c.lean
    ? `<mark_cache_size>33554432</mark_cache_size>
  <uncompressed_cache_size>0</uncompressed_cache_size>
  <max_server_memory_usage>1073741824</max_server_memory_usage>
  <max_concurrent_queries>20</max_concurrent_queries>`
    : `<mark_cache_size>536870912</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>`;
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${p('log')}server.log</log><errorlog>${p('log')}error.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>${c.httpPort}</http_port>
  <tcp_port>${c.tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${p('data')}</path>
  <tmp_path>${p('tmp')}</tmp_path>
  <user_files_path>${p('user_files')}</user_files_path>
  <format_schema_path>${p('format_schemas')}</format_schema_path>
  ${memory}
  <timezone>UTC</timezone>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
${c.cluster ? clusterXml(c.cluster) : ''}</yandex>
`;
}

function clusterXml(c: ClusterPlace): string {
  const shards = c.shards
    // Replicated tables copy a shard's rows to its replicas themselves; a shard of one node has none (docs/scale-out.md).
    .map(
      (replicas) =>
        `      <shard><internal_replication>${replicas.length > 1}</internal_replication>${replicas.map((port) => `<replica><host>127.0.0.1</host><port>${port}</port></replica>`).join('')}</shard>`,
    )
    .join('\n');
  return `  <interserver_http_port>${c.interserverPort}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <remote_servers>
    <${c.name}>
${shards}
    </${c.name}>
  </remote_servers>
  <zookeeper><node><host>127.0.0.1</host><port>${c.zookeeperPort}</port></node><session_timeout_ms>${c.sessionTimeoutMs}</session_timeout_ms></zookeeper>
  <macros><shard>${c.shard}</shard><replica>${c.replica}</replica></macros>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
`;
}

/** users.xml: the `default` user, no password, loopback only. */
export function usersXml(lean: boolean): string {
  const profile = lean
    ? '<max_memory_usage>1000000000</max_memory_usage><max_threads>2</max_threads><background_pool_size>2</background_pool_size><background_schedule_pool_size>4</background_schedule_pool_size><use_uncompressed_cache>0</use_uncompressed_cache>'
    : '<max_memory_usage>10000000000</max_memory_usage><use_uncompressed_cache>0</use_uncompressed_cache>';
  return `<?xml version="1.0"?>
<yandex>
  <profiles><default>${profile}</default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;
}

/** A child process with the tail of its standard error, stopped by SIGTERM (SIGKILL after a grace period). */
class Child {
  private stderr = '';
  private readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    proc.stderr?.on('data', (c: Buffer) => (this.stderr = (this.stderr + c.toString()).slice(-4000)));
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    LIVE.add(this);
    void this.exited.then(() => LIVE.delete(this));
  }

  get pid(): number {
    return this.proc.pid!;
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  describe(): string {
    return `${this.name} (pid ${this.pid}${this.running ? '' : `, exited ${this.proc.exitCode ?? this.proc.signalCode}`}): ${this.stderr.trim()}`;
  }

  async stop(graceMs = 30_000): Promise<void> {
    if (!this.running) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  async kill(): Promise<void> {
    if (!this.running) return;
    this.proc.kill('SIGKILL');
    await this.exited;
  }
}

/** Every child still running: killed when the test process exits without stopping them (a failed assertion's throw, an interrupt). */
const LIVE = new Set<Child>();
process.once('exit', () => {
  for (const child of LIVE) if (child.running) child.proc.kill('SIGKILL');
});

async function until(what: string, timeoutMs: number, ready: () => Promise<boolean>, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = failed();
    if (problem) throw new Error(`${what}: ${problem}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function httpText(port: number, method: string, urlPath: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own: ClickHouse closes idle kept-alive ones after 3 s, and a request sent on one as it closes hangs up.
    const headers = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: false }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs one statement over HTTP (with settings of its own, as URL parameters) and answers its text, throwing with ClickHouse's message when refused. */
export async function queryText(port: number, sql: string, settings: Record<string, string | number> = {}): Promise<string> {
  const params = new URLSearchParams(Object.entries(settings).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await httpText(port, 'POST', params ? `/?${params}` : '/', sql);
  if (res.status !== 200) throw new Error(`ClickHouse on port ${port} answered ${res.status}: ${res.body.slice(0, 2000)}\n-- for --\n${sql}`);
  return res.body;
}

/** The last lines of a node's error log, for the message of a node that would not start. */
function errorLogTail(dir: string): string {
  try {
    const lines = readFileSync(path.join(dir, 'log', 'error.log'), 'utf8')
      .trim()
      .split('\n');
    // The message, not the stack frames printed after it.
    const messages = lines.filter((line) => line.includes('<Error>') || line.includes('Exception'));
    return `\n${(messages.length > 0 ? messages.slice(-3) : lines.slice(-5)).map((line) => line.slice(0, 600)).join('\n')}`;
  } catch {
    return '';
  }
}

/** One clickhouse-server process. */
export class ClickHouseNode {
  private constructor(
    private readonly child: Child,
    readonly httpPort: number,
    readonly tcpPort: number,
    readonly dir: string,
    private readonly config: NodeConfig,
  ) {}

  get pid(): number {
    return this.child.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  /** Writes the node's configuration into `config.dir` and starts it; resolves once it answers /ping. */
  static async start(config: NodeConfig, timeoutMs = 60_000): Promise<ClickHouseNode> {
    for (const sub of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(path.join(config.dir, sub), { recursive: true });
    writeFileSync(path.join(config.dir, 'config.xml'), nodeConfigXml(config));
    writeFileSync(path.join(config.dir, 'users.xml'), usersXml(config.lean));
    const proc = spawn(CLICKHOUSE_SERVER, [`--config-file=${path.join(config.dir, 'config.xml')}`], { cwd: config.dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const child = new Child(`clickhouse-server on port ${config.httpPort}`, proc);
    try {
      await until(
        child.name,
        timeoutMs,
        async () => (await httpText(config.httpPort, 'GET', '/ping')).status === 200,
        () => (child.running ? undefined : `${child.describe()}${errorLogTail(config.dir)}`),
      );
    } catch (err) {
      await child.stop(0);
      throw err;
    }
    return new ClickHouseNode(child, config.httpPort, config.tcpPort, config.dir, config);
  }

  query(sql: string, settings: Record<string, string | number> = {}): Promise<string> {
    return queryText(this.httpPort, sql, settings);
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  /** Kills the process at once (SIGKILL), as a crash or a lost machine would stop it. */
  kill(): Promise<void> {
    return this.child.kill();
  }

  /**
   * The same node started again (same ports, data and place in the cluster), once it is stopped.
   * A node killed a moment ago may refuse its first start (its ports or files not yet let go):
   * it is tried again, three times at most. A replica killed while it wrote may hold a part
   * ZooKeeper never heard of, and 18.16 then refuses to start ("the local set of parts … doesn't
   * look like the set of parts in ZooKeeper", a small table's one part being all its rows): it is
   * started again as ClickHouse's documentation says, with the flag `force_restore_data`, which
   * sets such parts aside (detached) and takes the others from ZooKeeper.
   */
  async restart(): Promise<ClickHouseNode> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ClickHouseNode.start(this.config);
      } catch (err) {
        if (attempt === 3) throw err;
        if (String((err as Error).message).includes("doesn't look like the set of parts in ZooKeeper")) {
          mkdirSync(path.join(this.dir, 'data', 'flags'), { recursive: true });
          writeFileSync(path.join(this.dir, 'data', 'flags', 'force_restore_data'), '');
        } else {
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }
  }
}

/** A standalone ZooKeeper server (Debian's jar, run with java directly: no service, no admin server). */
export class ZooKeeper {
  private constructor(
    private readonly child: Child,
    readonly port: number,
  ) {}

  get pid(): number {
    return this.child.pid;
  }

  static async start(dir: string, timeoutMs = 60_000): Promise<ZooKeeper> {
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    const port = await freePort();
    const cfg = path.join(dir, 'zoo.cfg');
    writeFileSync(
      cfg,
      [
        'tickTime=500',
        `dataDir=${path.join(dir, 'data')}`,
        `clientPort=${port}`,
        'clientPortAddress=127.0.0.1',
        'admin.enableServer=false',
        '4lw.commands.whitelist=srvr',
        'maxClientCnxns=200',
        // Sessions of up to 30 s (ClickHouse asks for 30 s; the default cap is 20 ticks).
        'maxSessionTimeout=60000',
        '',
      ].join('\n'),
    );
    const proc = spawn(JAVA, ['-Xmx96m', '-Xss512k', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', ZOOKEEPER_JAR, 'org.apache.zookeeper.server.ZooKeeperServerMain', cfg], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const child = new Child(`zookeeper on port ${port}`, proc);
    try {
      await until(
        child.name,
        timeoutMs,
        // Serving, not only listening: a client let in earlier is dropped during its handshake, and
        // 18.16's DDL worker, dropped so at its start, leaves ON CLUSTER statements crashing the node.
        async () => (await fourLetters(port, 'srvr')).includes('Mode: standalone'),
        () => (child.running ? undefined : child.describe()),
      );
    } catch (err) {
      await child.stop(0);
      throw err;
    }
    return new ZooKeeper(child, port);
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}

function fourLetters(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.end(command));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(2000, () => socket.destroy(new Error('timed out')));
  });
}

/**
 * ZooKeeper and `shards` × `replicas` nodes of the cluster TEST_CLUSTER in `dir`, every node seeing
 * ZooKeeper. On a failure, what started is stopped before the error is thrown.
 */
export async function startShards(dir: string, o: { shards: number; replicas: number; lean: boolean; sessionTimeoutMs?: number }): Promise<{ nodes: ClickHouseNode[]; zookeeper: ZooKeeper }> {
  const zookeeper = await ZooKeeper.start(path.join(dir, 'zookeeper'));
  const nodes: ClickHouseNode[] = [];
  try {
    const names = Array.from({ length: o.shards }, (_, i) => String(i + 1).padStart(2, '0'));
    const places: Array<{ shard: string; replica: string; httpPort: number; tcpPort: number; interserverPort: number }> = [];
    for (const shard of names) {
      for (let r = 1; r <= o.replicas; r++) places.push({ shard, replica: `r${r}`, httpPort: await freePort(), tcpPort: await freePort(), interserverPort: await freePort() });
    }
    const shards = names.map((s) => places.filter((p) => p.shard === s).map((p) => p.tcpPort));
    const zookeeperPort = zookeeper.port;
    const attempts = await Promise.allSettled(
      places.map((p) =>
        ClickHouseNode.start({
          dir: path.join(dir, `node-${p.shard}-${p.replica}`),
          httpPort: p.httpPort,
          tcpPort: p.tcpPort,
          lean: o.lean,
          cluster: { name: TEST_CLUSTER, shards, shard: p.shard, replica: p.replica, interserverPort: p.interserverPort, zookeeperPort, sessionTimeoutMs: o.sessionTimeoutMs ?? SESSION_TIMEOUT_MS },
        }),
      ),
    );
    for (const s of attempts) if (s.status === 'fulfilled') nodes.push(s.value);
    const failed = attempts.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Each node has its ZooKeeper session once it can list the root.
    await Promise.all(
      nodes.map((n) =>
        until(
          `clickhouse-server on port ${n.httpPort} reaching ZooKeeper`,
          30_000,
          async () => (await n.query("SELECT count() FROM system.zookeeper WHERE path = '/'")).trim() !== '',
          () => undefined,
        ),
      ),
    );
    return { nodes, zookeeper };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    await zookeeper.stop();
    throw err;
  }
}

export type Topology = 'single' | 'replicated';

/** The nodes' ZooKeeper session timeout unless a test asks for another (ClickHouse's default). */
const SESSION_TIMEOUT_MS = 30_000;

/** How often a start whose port was taken by another process is made again. */
const PORT_ATTEMPTS = 3;

/** The cluster's name in `remote_servers`. */
export const TEST_CLUSTER = 'pp_test';

export interface ClickHouseCluster {
  topology: Topology;
  /** Every node's HTTP URL (the `clickhouse.urls` setting). */
  urls: string[];
  /** The cluster's name (the `clickhouse.cluster` setting), undefined for one node. */
  cluster: string | undefined;
  nodes: ClickHouseNode[];
  zookeeper: ZooKeeper | undefined;
  /** The temporary directory holding every node's configuration and data, removed by `stop`. */
  dir: string;
  /** How long starting took, from the first process to every node answering (and seeing ZooKeeper). */
  startMs: number;
  /**
   * Waits until every replica holds what any replica of `database`'s replicated tables holds (a
   * write waits for two nodes; the others take it a moment later): tests that compare answers call
   * it after writing, so a node read before the copy arrived cannot make them flaky.
   */
  settle(database: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts one node, or ZooKeeper and 2 shards × 2 replicas, in a temporary directory of their own,
 * stopped and removed when the test ends (`t.teardown`). `sessionTimeoutMs`: the replicas'
 * ZooKeeper sessions, shorter for tests that kill replicas and wait for them to count as gone.
 */
export async function startClickHouse(t: { teardown(fn: () => unknown): void }, topology: Topology, options: { sessionTimeoutMs?: number } = {}): Promise<ClickHouseCluster> {
  ensureClickHouseInstalled();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-clickhouse-'));
  const started = performance.now();
  const nodes: ClickHouseNode[] = [];
  let zookeeper: ZooKeeper | undefined;
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await zookeeper?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  t.teardown(stop);
  // Ports are chosen free before the nodes bind them, so another process may take one in between:
  // such a start is made again on fresh ports, in a folder of its own (a failed start stops what it began).
  for (let attempt = 1; ; attempt++) {
    const at = path.join(dir, `start-${attempt}`);
    try {
      if (topology === 'single') {
        nodes.push(await ClickHouseNode.start({ dir: path.join(at, 'node'), httpPort: await freePort(), tcpPort: await freePort(), lean: true }));
      } else {
        const cluster = await startShards(at, { shards: 2, replicas: 2, lean: true, sessionTimeoutMs: options.sessionTimeoutMs });
        nodes.push(...cluster.nodes);
        zookeeper = cluster.zookeeper;
      }
      break;
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !/Address already in use/.test(String((err as Error).message))) throw err;
    }
  }
  return {
    topology,
    urls: nodes.map((n) => n.url),
    cluster: topology === 'single' ? undefined : TEST_CLUSTER,
    nodes,
    zookeeper,
    dir,
    startMs: performance.now() - started,
    async settle(database) {
      if (topology === 'single') return;
      const db = database.replaceAll('`', '');
      const tables = (await nodes[0]!.query(`SELECT table FROM system.replicas WHERE database = '${db}' FORMAT TSV`)).trim().split('\n').filter(Boolean);
      for (const node of nodes) for (const table of tables) await node.query(`SYSTEM SYNC REPLICA \`${db}\`.\`${table}\``);
    },
    stop,
  };
}

export { freePort };
