// The DuckDB event engine: one instance per file per process, a writer connection for
// appends and a small pool of reader connections so queries run concurrently on the libuv pool.
// Reads take a time limit and are interrupted when it passes. The writer is used by one caller at
// a time: DuckDB closes a connection's pending result when another statement starts on it, so a
// stray statement in the middle of an ingest transaction would fail that transaction. Work run
// `underDeadline` (ground/deadline.ts: a background job) has every statement it starts interrupted once its signal fires.

import { type DuckDBConnection, DuckDBInstance, type DuckDBMaterializedResult, type DuckDBValue } from '@duckdb/node-api';
import { QueryMemoryError, QueryTimeoutError } from '../../ground/errors.js';
import { currentDeadline } from '../../ground/deadline.js';
import type { EngineConnection, EventEngine, ReadOptions, Row, TurnOptions } from '../engine.js';
import { engineConnection } from './connection.js';
import { DuckDbAppender } from './duckDbAppender.js';
import { DataVersions } from '../dataVersions.js';
import { STORAGE_VERSION } from './storageVersion.js';

export type { ReadOptions, Row, TurnOptions } from '../engine.js';
export type SqlParams = DuckDBValue[] | Record<string, DuckDBValue>;

/** DuckDB's own memory budget; without one it takes up to 80% of the machine's memory. */
export interface StoreOptions {
  memoryLimitMb?: number;
  /** Where intermediate results beyond the budget spill. */
  tempDirectory?: string;
}

/** The settings every DuckDB instance on an events file opens with (the server's, and `ppctl events compact`'s). */
export function storeSettings(options: StoreOptions): Record<string, string> {
  return {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'true',
    threads: '2',
    // Hand freed memory back after any task that held more than this (DuckDB's default is 128 MB):
    // across a run of different queries the server's peak RSS stays about 40 MB lower, at no
    // measurable cost in query time (docs/BENCHMARKS.md).
    allocator_flush_threshold: '32MB',
    ...(options.memoryLimitMb ? { memory_limit: `${options.memoryLimitMb}MB` } : {}),
    ...(options.tempDirectory ? { temp_directory: options.tempDirectory } : {}),
    // The format of a new file, and of the files the instance attaches (a backup's snapshot); an
    // existing file keeps its own (storageVersion.ts).
    storage_compatibility_version: STORAGE_VERSION,
  };
}

const READERS = 3;
/** How DuckDB's errors begin when an operator cannot get memory within the limit (and cannot spill). */
const OUT_OF_MEMORY = 'Out of Memory Error';
const INTERRUPT_REPEAT_MS = 5;

/**
 * Runs `statement` on `conn`; when the deadline `signal` aborts meanwhile, interrupts the
 * connection until the statement ends (an interrupt before execution starts is ignored) and
 * rejects with the signal's reason.
 */
async function interruptible<T>(conn: DuckDBConnection, signal: AbortSignal | undefined, statement: () => Promise<T>): Promise<T> {
  if (!signal) return statement();
  signal.throwIfAborted();
  let repeat: NodeJS.Timeout | undefined;
  const onAbort = () => {
    conn.interrupt();
    repeat = setInterval(() => conn.interrupt(), INTERRUPT_REPEAT_MS);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const answer = await statement();
    signal.throwIfAborted();
    return answer;
  } catch (err) {
    signal.throwIfAborted();
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    clearInterval(repeat);
  }
}

export class DuckDbEngine implements EventEngine {
  readonly kind = 'duckdb' as const;
  readonly appender = new DuckDbAppender();
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: Array<{ resolve: (c: DuckDBConnection) => void; reject: (err: Error) => void }> = [];
  private readonly all: DuckDBConnection[] = [];
  /** What must end before the connections close: owners of their own connections, reads running (by connection). */
  private readonly owners: Array<() => Promise<void>> = [];
  private readonly reading = new Map<DuckDBConnection, Promise<unknown>>();
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly versions = new DataVersions();
  private writerTurn: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    private readonly memoryLimitMb: number | undefined,
  ) {}

  static async open(file: string, options: StoreOptions = {}): Promise<DuckDbEngine> {
    const instance = await DuckDBInstance.create(file, storeSettings(options));
    const writer = await instance.connect();
    await writer.run("SET GLOBAL TimeZone = 'UTC'");
    const store = new DuckDbEngine(instance, writer, options.memoryLimitMb);
    for (let i = 0; i < READERS; i++) {
      const c = await instance.connect();
      store.all.push(c);
      store.idle.push(c);
    }
    return store;
  }

  /**
   * Runs a read on a pooled connection with a time limit. DuckDB ignores an interrupt that arrives
   * before execution starts, so once the limit passes the query is interrupted repeatedly until it
   * stops, and the answer is 408 even if it managed to finish.
   */
  async read(sql: string, params: SqlParams = [], options: ReadOptions = {}): Promise<Row[]> {
    return this.timed(options, async (conn) => (await conn.runAndReadAll(sql, params)).getRowObjects() as Row[]);
  }

  /**
   * A read whose answer is too large to become objects: `take` walks the result's chunks (typed
   * vectors) before the connection goes back to the pool. Same time limit as `read`.
   */
  async readChunks<T>(sql: string, params: SqlParams, options: ReadOptions, take: (result: DuckDBMaterializedResult) => T): Promise<T> {
    return this.timed(options, async (conn) => take(await conn.run(sql, params)));
  }

  private async timed<T>(options: ReadOptions, run: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const deadline = currentDeadline();
    if (!options.skipBarrier) await this.versions.loaded();
    const conn = await this.acquire();
    let timedOut = false;
    let repeat: NodeJS.Timeout | undefined;
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            conn.interrupt();
            repeat = setInterval(() => conn.interrupt(), INTERRUPT_REPEAT_MS);
          }, options.timeoutMs)
        : undefined;
    try {
      const running = interruptible(conn, deadline, () => run(conn));
      this.reading.set(conn, running);
      const answer = await running;
      if (timedOut) throw new QueryTimeoutError(options.timeoutMs!);
      return answer;
    } catch (err) {
      if (timedOut) throw new QueryTimeoutError(options.timeoutMs!);
      if (err instanceof Error && err.message.startsWith(OUT_OF_MEMORY)) throw new QueryMemoryError(this.memoryLimitMb);
      throw err;
    } finally {
      clearTimeout(timer);
      clearInterval(repeat);
      this.reading.delete(conn);
      this.release(conn);
    }
  }

  /** What every read waits for before it runs (see `DataVersions.setReadBarrier`). */
  setReadBarrier(barrier: () => Promise<void> | undefined): void {
    this.versions.setReadBarrier(barrier);
  }

  /**
   * A connection of the caller's own, for background work that must not hold a pooled one. It is
   * closed with the store, which first awaits `stop`: that must end every statement on it (a
   * connection closed under a running statement leaves the statement's promise pending forever).
   */
  async connect(stop: () => Promise<void>): Promise<EngineConnection> {
    if (this.closed) throw closedError();
    const c = await this.instance.connect();
    this.all.push(c);
    this.owners.push(stop);
    return engineConnection(c);
  }

  /**
   * Runs `use` with the writer connection once every earlier user is done with it. Everything
   * `use` runs, a whole transaction included, happens with nobody else on the connection; it must
   * not call `write` or `useWriter` itself.
   */
  useWriter<T>(use: (conn: EngineConnection) => Promise<T>, options: TurnOptions = {}): Promise<T> {
    const deadline = currentDeadline();
    const turn = this.writerTurn.then(() => {
      if (this.closed) throw closedError();
      return interruptible(this.writer, deadline, () => use(engineConnection(this.writer))).catch(async (err: unknown) => {
        // The interrupts may have cut the turn's own ROLLBACK short: no transaction outlives it.
        if (deadline?.aborted) await this.writer.run('ROLLBACK').catch(() => undefined);
        throw err;
      });
    });
    const done = turn.finally(() => this.versions.turnEnded(options));
    this.writerTurn = done.catch(() => undefined);
    return done;
  }

  changed(projectIds: Iterable<number>): void {
    this.versions.changed(projectIds);
  }

  changedAfter<T>(projectIds: Iterable<number>, write: () => Promise<T>): Promise<T> {
    return this.versions.changedAfter(projectIds, write);
  }

  /** See `DataVersions.version`. */
  dataVersion(projectId: number): Promise<string> {
    return this.versions.version(projectId);
  }

  /** Runs one statement on the writer connection (DDL, deletes), in its turn. */
  async write(sql: string, params: SqlParams = []): Promise<void> {
    await this.useWriter(() => this.writer.run(sql, params));
  }

  /** Whether the store answers: a readiness check must not wait for ingestion. */
  async ping(): Promise<void> {
    await this.read('SELECT 1', [], { skipBarrier: true });
  }

  async newestReceipt(): Promise<Date | null> {
    const [row] = await this.read('SELECT epoch_ms(max(received_at)) AS t FROM events');
    const t = row?.t;
    return t === null || t === undefined ? null : new Date(Number(t));
  }

  async size(projectId?: number): Promise<{ events: number }> {
    const [row] = projectId === undefined ? await this.read('SELECT count(*) AS n FROM events') : await this.read('SELECT count(*) AS n FROM events WHERE project_id = $1', [projectId]);
    return { events: Number(row?.n ?? 0) };
  }

  async checkpoint(): Promise<void> {
    await this.write('CHECKPOINT');
  }

  /**
   * Refuses new work, stops the owners of their own connections, interrupts the reads running and
   * lets the writer finish its turn; then closes every connection. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(closedError());
    for (const stop of this.owners) await stop().catch(() => undefined);
    // An interrupt that arrives before a statement starts is ignored, so repeat it until all are done.
    const interruptAll = () => this.reading.forEach((_, c) => c.interrupt());
    interruptAll();
    const repeat = setInterval(interruptAll, INTERRUPT_REPEAT_MS);
    await Promise.allSettled(this.reading.values());
    clearInterval(repeat);
    await this.writerTurn;
    this.appender.close();
    for (const c of this.all) c.closeSync();
    this.writer.closeSync();
    this.instance.closeSync();
  }

  private acquire(): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(closedError());
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(conn: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next.resolve(conn);
    else this.idle.push(conn);
  }
}

function closedError(): Error {
  return new Error('event store is closed');
}
