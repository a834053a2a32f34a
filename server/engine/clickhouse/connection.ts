// pp's connection to ClickHouse: @clickhouse/client over HTTP to the nodes named by
// `clickhouse.urls`, the first that answers, moving on to the next when a node stops answering.
// Statements carry their values as literals (literal.ts): Debian's ClickHouse 18.16 has no query
// parameters, and the client is asked for no setting of its own that 18.16 would not know.

import type { Readable, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseSettings } from '../../ground/config.js';
import { EngineUnreachableError } from '../engine.js';
import { identifier, inInstallation } from './literal.js';

/** A statement ClickHouse refused: its message, and ClickHouse's error code when it gave one. */
export class ClickHouseQueryError extends Error {
  override name = 'ClickHouseQueryError';

  constructor(
    message: string,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

/**
 * ClickHouse's codes for a statement the cluster cannot take now, whatever it says: a timeout
 * waiting for a quorum (TIMEOUT_EXCEEDED), a socket timeout or network error between nodes, no
 * ZooKeeper, a replica read-only until its ZooKeeper session is back, every replica of a shard
 * unreachable (ALL_CONNECTION_TRIES_FAILED), too few live replicas for the quorum, the previous
 * quorum write unfinished, an insert whose quorum status is unknown, a ZooKeeper error.
 */
const CLUSTER_UNAVAILABLE = new Set([159, 209, 210, 225, 242, 279, 285, 286, 319, 999]);

/**
 * The same for a read: a shard none of whose replicas answers (ALL_CONNECTION_TRIES_FAILED), a
 * socket timeout or network error between nodes, ZooKeeper gone. TIMEOUT_EXCEEDED is left out: on
 * a read it is the read's own time limit (`max_execution_time`).
 */
const READ_UNAVAILABLE = new Set([...CLUSTER_UNAVAILABLE].filter((code) => code !== 159));

/** How long a write waits for its quorum (ms; the server's default is 10 minutes, every later batch waiting behind it). */
export const QUORUM_TIMEOUT_MS = 30_000;

/** The settings of a write that must reach two replicas before it answers. */
export const QUORUM_WRITE = { insert_quorum: 2, insert_quorum_timeout: QUORUM_TIMEOUT_MS } as const;

/** No node of `clickhouse.urls` answered. */
export class ClickHouseUnreachableError extends EngineUnreachableError {
  override name = 'ClickHouseUnreachableError';
}

export interface ConnectionOptions {
  /** Time limit of one request, in ms (default 300000: DDL on a cluster waits for every node). */
  requestTimeoutMs?: number;
}

/** Errors of the network rather than of the statement: the next node is tried. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET']);

function isNetworkError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  if (NETWORK_CODES.has(e?.code ?? '') || NETWORK_CODES.has(e?.cause?.code ?? '')) return true;
  const message = String(e?.message ?? '');
  return message === 'socket hang up' || message.startsWith('Timeout error');
}

/** ClickHouse's answer to a refused statement begins `Code: NNN` (18.16: `Code: 60, e.displayText() = DB::Exception: …`). */
function refused(err: unknown): Error {
  if (!(err instanceof Error)) return new ClickHouseQueryError(String(err), undefined);
  const { message } = err;
  let code: number | undefined;
  if (message.startsWith('Code: ')) {
    let end = 6;
    while (end < message.length && message.charCodeAt(end) >= 48 && message.charCodeAt(end) <= 57) end++;
    if (end > 6) code = Number(message.slice(6, end));
  }
  const typed = (err as { code?: string }).code;
  if (code === undefined && typed !== undefined && /^\d+$/.test(typed)) code = Number(typed);
  return new ClickHouseQueryError(message.trim(), code);
}

interface Node {
  url: string;
  /** Statements naming tables without their database run in the installation's. */
  inDatabase: ClickHouseClient;
  /** Before the database exists (its creation, the cluster's description). */
  bare: ClickHouseClient;
}

export class ClickHouseConnection {
  private readonly nodes: Node[];
  /** The node statements go to, until it stops answering. */
  private current = 0;

  constructor(
    readonly settings: ClickHouseSettings,
    options: ConnectionOptions = {},
  ) {
    if (settings.urls.length === 0) throw new ClickHouseUnreachableError('clickhouse.urls names no node');
    const common = {
      username: settings.user,
      password: settings.password ?? '',
      request_timeout: options.requestTimeoutMs ?? 300_000,
      application: 'pp',
      // Plain bodies both ways: no `enable_http_compression` is asked for, and nothing depends on
      // how a server version compresses.
      compression: { request: false, response: false },
      // Failures reach the caller, which reports them; the client's own log would only repeat them on stderr.
      log: { level: ClickHouseLogLevel.OFF },
    };
    this.nodes = settings.urls.map((url) => ({
      url,
      inDatabase: createClient({ ...common, url, database: settings.database }),
      bare: createClient({ ...common, url }),
    }));
  }

  /** The installation's database, as an identifier for statements that must name it (DDL, Distributed tables). */
  get database() {
    return identifier(this.settings.database);
  }

  /** The cluster, or undefined for one node. */
  get cluster(): string | undefined {
    return this.settings.cluster;
  }

  /** The URL statements go to now. */
  get url(): string {
    return this.nodes[this.current]!.url;
  }

  /** Rows of a SELECT, as objects (64-bit integers come as decimal text). */
  async query<T = Record<string, unknown>>(sql: string, options: { bare?: boolean; settings?: Record<string, string | number>; signal?: AbortSignal } = {}): Promise<T[]> {
    try {
      return await this.onSomeNode(async (node) => {
        const result = await (options.bare ? node.bare : node.inDatabase).query({
          query: inInstallation(sql, this.database),
          format: 'JSONEachRow',
          clickhouse_settings: options.settings,
          abort_signal: options.signal,
        });
        return result.json<T>();
      });
    } catch (err) {
      // A node answered but the cluster behind it cannot (a shard down): the read waits like one
      // no node answers (503 to a request; the ingest writer's look-ups hold their batch and try
      // again rather than count toward setting it aside).
      if (err instanceof ClickHouseQueryError && READ_UNAVAILABLE.has(err.code ?? 0)) {
        throw new ClickHouseUnreachableError(`the cluster cannot answer the statement now: ${err.message}`);
      }
      throw err;
    }
  }

  /**
   * The raw answer of a statement ending in `FORMAT …`, piped through `sink()` (made anew when
   * another node is tried). The node holds the answer until it is complete (`wait_end_of_query`),
   * so a statement failing midway is an error, never a truncated answer.
   */
  async download(sql: string, sink: () => [Writable, ...Writable[]], settings: Record<string, string | number> = {}): Promise<void> {
    await this.onSomeNode(async (node) => {
      const { stream } = await node.inDatabase.exec({ query: inInstallation(sql, this.database), clickhouse_settings: { wait_end_of_query: 1, ...settings } });
      await pipeline([stream, ...sink()]);
    });
  }

  /** An `INSERT … FORMAT …` whose data is read from `source()` (made anew when another node is tried). */
  async upload(sql: string, source: () => Readable, settings: Record<string, string | number> = {}): Promise<void> {
    await this.onSomeNode(async (node) => {
      const { stream } = await node.inDatabase.exec({ query: inInstallation(sql, this.database), values: source(), clickhouse_settings: settings });
      stream.resume();
      await finished(stream);
    });
  }

  /** A statement without rows to read (DDL, INSERT … VALUES, SYSTEM …), with settings of its own when given. */
  async command(sql: string, options: { bare?: boolean; settings?: Record<string, string | number> } = {}): Promise<void> {
    try {
      await this.onSomeNode((node) => (options.bare ? node.bare : node.inDatabase).command({ query: inInstallation(sql, this.database), clickhouse_settings: options.settings }));
    } catch (err) {
      // A statement the cluster cannot take now (a shard or a quorum of replicas down, a replica
      // without ZooKeeper) waits, as for a node that does not answer: its caller holds it and tries
      // again. pp's writes are idempotent, so one that partly landed is harmless to repeat.
      if (err instanceof ClickHouseQueryError && CLUSTER_UNAVAILABLE.has(err.code ?? 0)) {
        throw new ClickHouseUnreachableError(`the cluster cannot take the statement now: ${err.message}`);
      }
      throw err;
    }
  }

  /** Whether some node answers (the first that does serves what follows); throws when none does. */
  async ping(): Promise<void> {
    await this.onSomeNode(async (node) => {
      const answer = await node.bare.ping();
      if (!answer.success) throw answer.error;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.flatMap((n) => [n.inDatabase.close(), n.bare.close()]));
  }

  /** Runs `use` on the current node, then on each other in turn while the network fails. */
  private async onSomeNode<T>(use: (node: Node) => Promise<T>): Promise<T> {
    const problems: string[] = [];
    for (let tried = 0; tried < this.nodes.length; tried++) {
      const index = (this.current + tried) % this.nodes.length;
      const node = this.nodes[index]!;
      try {
        const answer = await use(node);
        this.current = index;
        return answer;
      } catch (err) {
        if (!isNetworkError(err)) throw refused(err);
        problems.push(`${node.url}: ${(err as Error).message}`);
      }
    }
    throw new ClickHouseUnreachableError(`no ClickHouse node answered (${problems.join('; ')})`);
  }
}
