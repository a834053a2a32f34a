// The peer engine: Debian's clickhouse-server (installed with apt-get when missing), run as a child
// process on free loopback ports from a temporary directory with its own minimal configuration
// (never the system service), queried over its HTTP interface, and stopped afterwards.

import { createReadStream } from 'node:fs';
import http from 'node:http';
import { ClickHouseNode, freePort, httpText, startShards, TEST_CLUSTER, type ZooKeeper } from '../support/clickhouseCluster.js';
import { processCpuMs, processMemory, type ProcessMemory } from './processes.js';

export { ensureClickHouseInstalled } from '../support/clickhouseCluster.js';

export class ClickHouseError extends Error {}

export interface QueryResult {
  rows: unknown[][];
  ms: number;
}

export class ClickHouse {
  private constructor(
    private readonly node: ClickHouseNode,
    readonly version: string,
  ) {}

  get pid(): number {
    return this.node.pid;
  }

  get port(): number {
    return this.node.httpPort;
  }

  /** One node with ClickHouse's larger caches (the bench's figures were measured so), in `dir`. */
  static async start(dir: string): Promise<ClickHouse> {
    const node = await ClickHouseNode.start({ dir, httpPort: await freePort(), tcpPort: await freePort(), lean: false });
    return new ClickHouse(node, (await node.query('SELECT version()')).trim());
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

  stop(): Promise<void> {
    return this.node.stop();
  }
}

/**
 * The ClickHouse a pp server keeps its events on (`--engine clickhouse`): one node, or ZooKeeper and
 * shards of one replica each, all with the bench's larger caches, in `dir`.
 */
export class EngineCluster {
  private constructor(
    readonly nodes: ClickHouseNode[],
    private readonly zookeeper: ZooKeeper | undefined,
    /** The cluster's name in `remote_servers` (`clickhouse.cluster`), undefined for one node. */
    readonly cluster: string | undefined,
  ) {}

  static async start(dir: string, shards: number): Promise<EngineCluster> {
    if (shards === 1) return new EngineCluster([await ClickHouseNode.start({ dir, httpPort: await freePort(), tcpPort: await freePort(), lean: false })], undefined, undefined);
    const { nodes, zookeeper } = await startShards(dir, { shards, replicas: 1, lean: false });
    return new EngineCluster(nodes, zookeeper, TEST_CLUSTER);
  }

  /** The `PP_…` settings of a pp server keeping its events here, in `database`. */
  serverEnv(database: string): Record<string, string> {
    return {
      PP_EVENTS_ENGINE: 'clickhouse',
      PP_CLICKHOUSE_URLS: this.nodes.map((n) => n.url).join(','),
      PP_CLICKHOUSE_DATABASE: database,
      ...(this.cluster ? { PP_CLICKHOUSE_CLUSTER: this.cluster } : {}),
    };
  }

  /** Rows of `database`'s events table (all shards) and distinct (project, uuid) pairs among them. */
  async counts(database: string): Promise<{ stored: number; distinct: number }> {
    const text = await this.nodes[0]!.query(`SELECT count(), uniqExact(project_id, uuid) FROM ${database}.events FORMAT TabSeparated`).catch(() => '0\t0');
    const [stored, distinct] = text.trim().split('\t').map(Number);
    return { stored: stored ?? 0, distinct: distinct ?? 0 };
  }

  /** Compressed bytes of the active parts of every table of `database`, summed over the nodes. */
  async bytes(database: string): Promise<number> {
    let sum = 0;
    for (const n of this.nodes) sum += Number((await n.query(`SELECT sum(bytes) FROM system.parts WHERE active AND database = '${database}' FORMAT TabSeparated`)).trim());
    return sum;
  }

  /** Waits until no node merges (after a load), so queries are not timed against merges. */
  async settle(timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const n of this.nodes) {
      while (Date.now() < deadline && Number((await n.query('SELECT count() FROM system.merges FORMAT TabSeparated')).trim()) > 0) await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** CPU time (user and system) of every ClickHouse server of the cluster so far, ms. */
  cpuMs(): number {
    return this.nodes.reduce((n, node) => n + processCpuMs(node.pid), 0);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.stop()));
    await this.zookeeper?.stop();
  }
}
