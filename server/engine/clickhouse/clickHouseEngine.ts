// The ClickHouse event engine (docs/scale-out.md): the installation's events on a ClickHouse node
// or cluster, through one connection (connection.ts) that moves between the nodes. Reads take a
// time limit, enforced twice: the server is told (`max_execution_time`) and the request is
// abandoned when it passes, answering 408 either way. Writer turns run one at a time, like
// DuckDB's, so the ingest writer's groups and its jobs never interleave; ClickHouse has no
// transactions, so what a turn stores is made idempotent by its writer (the appender, by uuid).
// Reads the engine has no builders for answer 501 `engine_unsupported` (engine/unsupported.ts).

import { QueryTimeoutError, ServiceUnavailableError } from '../../ground/errors.js';
import type { ClickHouseSettings } from '../../ground/config.js';
import type { Migration } from '../../store/migrate.js';
import type { ChunkedResult, EngineConnection, EventEngine, ReadOptions, Row, SqlParams, TurnOptions } from '../engine.js';
import { ClickHouseAppender } from './clickHouseAppender.js';
import { ClickHouseConnection, ClickHouseQueryError, ClickHouseUnreachableError } from './connection.js';
import { engineConnection } from './engineConnection.js';
import { literal } from './literal.js';
import { migrateClickHouse, topologyOf } from './migrations.js';
import { DataVersions } from '../dataVersions.js';

/** ClickHouse's error code for a statement stopped by `max_execution_time`. */
const TIMEOUT_EXCEEDED = 159;

export class ClickHouseEngine implements EventEngine {
  readonly kind = 'clickhouse' as const;
  /** A DateTime ends at 2106-02-07 06:28:15 UTC (18.16 has no DateTime64). */
  readonly instantsBefore = 2 ** 32 * 1000;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** What must end before the connection closes: owners of background work. */
  private readonly owners: Array<() => Promise<void>> = [];
  private readonly reading = new Set<AbortController>();
  private readonly versions = new DataVersions();
  private writerTurn: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly conn: ClickHouseConnection,
    readonly appender: ClickHouseAppender,
  ) {}

  /** Connects, creates or migrates the installation's tables, and answers the engine with what was applied. */
  static async open(settings: ClickHouseSettings, now = new Date()): Promise<{ engine: ClickHouseEngine; applied: Migration[] }> {
    const conn = new ClickHouseConnection(settings);
    try {
      const applied = await migrateClickHouse(conn, undefined, now);
      const topology = await topologyOf(conn);
      return { engine: new ClickHouseEngine(conn, new ClickHouseAppender({ replicas: topology.replicas })), applied };
    } catch (err) {
      await conn.close();
      throw err;
    }
  }

  /**
   * Rows of one statement, within the time limit: past it the server stops the statement
   * (`max_execution_time`), the request is abandoned, and the answer is 408. Statements carry
   * their values as literals: `params` stays empty.
   */
  async read(sql: string, params: SqlParams = [], options: ReadOptions = {}): Promise<Row[]> {
    if (this.closed) throw closedError();
    noBoundValues(params);
    if (!options.skipBarrier) await this.versions.loaded();
    const abort = new AbortController();
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          abort.abort();
        }, options.timeoutMs)
      : undefined;
    this.reading.add(abort);
    try {
      const settings = options.timeoutMs ? { max_execution_time: Math.max(1, Math.ceil(options.timeoutMs / 1000)) } : undefined;
      return await this.conn.query<Row>(sql, { settings, signal: abort.signal });
    } catch (err) {
      if (timedOut || (err instanceof ClickHouseQueryError && err.code === TIMEOUT_EXCEEDED && options.timeoutMs)) throw new QueryTimeoutError(options.timeoutMs!);
      if (this.closed) throw closedError();
      if (err instanceof ClickHouseUnreachableError) throw new ServiceUnavailableError('the event store (ClickHouse) cannot be reached; retry the request');
      throw err;
    } finally {
      clearTimeout(timer);
      this.reading.delete(abort);
    }
  }

  /** This engine's chunked result is the rows themselves (`Row[]`): its builders' readers take them so. */
  async readChunks<T>(sql: string, params: SqlParams, options: ReadOptions, take: (result: ChunkedResult) => T): Promise<T> {
    return take(await this.read(sql, params, options));
  }

  /** Runs one statement (DDL, deletes), in the writer's turn; its values are written into it (literal.ts), never bound. */
  async write(sql: string, params: SqlParams = []): Promise<void> {
    noBoundValues(params);
    await this.useWriter(() => this.conn.command(sql));
  }

  /** Runs `use` with the connection once every earlier writer turn is done. */
  useWriter<T>(use: (conn: EngineConnection) => Promise<T>, options: TurnOptions = {}): Promise<T> {
    const turn = this.writerTurn.then(() => {
      if (this.closed) throw closedError();
      return use(engineConnection(this.conn));
    });
    const done = turn.finally(() => this.versions.turnEnded(options));
    this.writerTurn = done.catch(() => undefined);
    return done;
  }

  /** The engine's connection (it serves any number of callers); `stop` is awaited before it closes. */
  async connect(stop: () => Promise<void>): Promise<EngineConnection> {
    if (this.closed) throw closedError();
    this.owners.push(stop);
    return engineConnection(this.conn);
  }

  changed(projectIds: Iterable<number>): void {
    this.versions.changed(projectIds);
  }

  changedAfter<T>(projectIds: Iterable<number>, write: () => Promise<T>): Promise<T> {
    return this.versions.changedAfter(projectIds, write);
  }

  setReadBarrier(barrier: () => Promise<void> | undefined): void {
    this.versions.setReadBarrier(barrier);
  }

  dataVersion(projectId: number): Promise<string> {
    return this.versions.version(projectId);
  }

  /** Whether some node answers; throws (`ClickHouseUnreachableError`) when none does. */
  async ping(): Promise<void> {
    await this.conn.ping();
  }

  async newestReceipt(): Promise<Date | null> {
    const [row] = await this.read('SELECT count() AS n, toString(max(toUInt64(received_at) * 1000000 + received_us)) AS us FROM events');
    return Number(row?.n ?? 0) === 0 ? null : new Date(Math.floor(Number(row!.us) / 1000));
  }

  /** Events held, each once (`FINAL`: a row stored twice before its parts merged counts once). */
  async size(projectId?: number): Promise<{ events: number }> {
    // Project 0 holds only the purge job's markers (deleteEvents.ts), which are no one's events.
    const where = projectId === undefined ? ' WHERE project_id != 0' : ` WHERE project_id = ${literal(projectId)}`;
    const [row] = await this.read(`SELECT count() AS n FROM events FINAL${where}`);
    return { events: Number(row?.n ?? 0) };
  }

  /** ClickHouse makes every INSERT durable itself. */
  async checkpoint(): Promise<void> {}

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    for (const stop of this.owners) await stop().catch(() => undefined);
    for (const abort of this.reading) abort.abort();
    await this.writerTurn;
    await this.conn.close();
  }
}

/** A builder's statement for ClickHouse holds its values as literals (literal.ts): a bound value would be dropped unseen. */
function noBoundValues(params: SqlParams): void {
  if ((Array.isArray(params) ? params.length : Object.keys(params).length) > 0) throw new Error('ClickHouse statements take no bound values: write them with literal()');
}

function closedError(): Error {
  return new Error('event store is closed');
}
