// The seam between the server and the store of events: what ingestion, the analytical queries, the
// behavior reports, labeled events, recordings and the background jobs ask of events. An engine runs
// statements that its own builders wrote (engine/<kind>/ for the features outside queries/, and
// each insight's statements.ts for the insights, one builder per engine kind); the rows it answers
// are turned into answers by code that knows no engine. DuckDB (engine/duckdb/) is the first.

import type { StoredEvent, StoredRejection } from './rows.js';

/** The engines there are; an insight's builders are a `ByEngine` record, so a new kind here makes tsc name every builder still to write. */
export const ENGINE_KINDS = ['duckdb', 'clickhouse'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** One value for each engine kind: how insights and features hold their per-engine statement builders. */
export type ByEngine<T> = Record<EngineKind, T>;

/**
 * The engine's store cannot be reached (every node of a cluster down): ingestion holds what it
 * acknowledged in its journal and loads it once the store answers again, instead of setting it aside.
 */
export class EngineUnreachableError extends Error {
  override name = 'EngineUnreachableError';
}

/** A value bound to a statement's placeholder. */
export type BoundValue = unknown;
export type SqlParams = BoundValue[] | Record<string, BoundValue>;

/** A result row, column name to value: counts may come as bigint, sums as numbers (read through engine/sql.ts's `num`). */
// biome-ignore lint/suspicious/noExplicitAny: values are read by the code that wrote the statement.
export type Row = Record<string, any>;

/** A built statement: its text in the engine's dialect and the values bound to its placeholders. */
export interface Statement {
  sql: string;
  params: SqlParams;
}

export interface ReadOptions {
  /** Interrupt the statement after this many milliseconds and answer 408 `query_timeout`. */
  timeoutMs?: number;
  /** Run at once, without waiting for acknowledged events to be loaded (for reads that do not look at them). */
  skipBarrier?: boolean;
}

export interface TurnOptions {
  /**
   * Whose stored events the turn may change: every project's (the default, counted when the turn
   * ends), or those the turn reports through `changed` once they are committed (none, for writes
   * that no query reads).
   */
  changes?: 'all' | 'reported';
}

declare const engineConnection: unique symbol;

/**
 * The engine's own connection, handed to a writer turn: opaque outside the engine's folder, where
 * its code turns it back into its own type (engine/duckdb/connection.ts). Everything else only
 * passes it on, to the engine's builders and jobs (`statementsOf`) and to its `appender`.
 */
export interface EngineConnection {
  readonly [engineConnection]: true;
}

/** What one call of `EventAppender.append` stores, in one transaction. */
export interface AppendBatch {
  events: readonly StoredEvent[];
  rejections: readonly StoredRejection[];
  /** The ingest journal record loaded through, recorded with the rows (see `journalPosition`). */
  journalPosition?: number;
  /**
   * True when no earlier attempt can have stored any of these events (journal records loaded for
   * the first time, after the replay at start and after every load that failed): an engine without
   * transactions need not look for them in its table.
   */
  firstAttempt?: boolean;
}

/** One column-wise chunk of stored (project, uuid) pairs: the uuid as four 32-bit words, its receipt in µs. */
export interface KeyChunk {
  count: number;
  projects: ArrayLike<number>;
  words: readonly [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  receivedUs: ArrayLike<number>;
}

/**
 * How ingestion stores events: the one way rows enter `events` and `ingest_rejections`, and the
 * reads its deduplication and its journal need. Every call runs on the connection of a writer turn
 * (`EventEngine.useWriter`); the appender may keep what it prepared from one call to the next.
 */
export interface EventAppender {
  /**
   * Appends the rows and records the journal position in one transaction, committed durably when
   * it resolves. When it rejects nothing was stored, unless the commit itself failed (then the
   * rows may be stored: the caller reads its state of them again).
   */
  append(conn: EngineConnection, batch: AppendBatch): Promise<void>;
  /** The events the engine takes best in one append (the ingest writer's group), when not the writer's default. */
  readonly groupRows?: number;
  /** How far the ingest journal is loaded: the position committed with the events (0 when none is). */
  journalPosition(conn: EngineConnection): Promise<number>;
  /** Stored (project, uuid) pairs among these uuids received in [fromUs, beforeUs) (µs), as `project/uuid`. */
  storedPairs(conn: EngineConnection, uuids: readonly string[], fromUs: number, beforeUs: number): Promise<string[]>;
  /** The newest `limit` pairs received since `sinceUs`, handed to `take` oldest first, a chunk at a time. */
  recentKeys(conn: EngineConnection, sinceUs: number, limit: number, take: (chunk: KeyChunk) => void): Promise<void>;
  /** Which of these uuids (canonical text) the project holds already, whenever received (an import leaves them out). */
  heldUuids(conn: EngineConnection, projectId: number, uuids: readonly string[]): Promise<Set<string>>;
}

/** The engine's own result of a chunked read, handed to the insight builder that wrote the statement. */
/** (DuckDB: its materialized result; ClickHouse: the rows, `Row[]`.) */
export type ChunkedResult = unknown;

export interface EventEngine {
  readonly kind: EngineKind;
  /**
   * The first instant (epoch ms) the engine cannot store an event at, when it has one below the
   * event times ingestion accepts: ingestion refuses later events on this engine instead of
   * acknowledging what could never be loaded.
   */
  readonly instantsBefore?: number;
  /** How ingestion stores events, in its writer turns. */
  readonly appender: EventAppender;
  /** Rows of one statement written by this engine's builders, on a pooled reader. */
  read(sql: string, params?: SqlParams, options?: ReadOptions): Promise<Row[]>;
  /** A read whose answer is too large to become objects: `take` walks the engine's own result (see `ChunkedResult`). */
  readChunks<T>(sql: string, params: SqlParams, options: ReadOptions, take: (result: ChunkedResult) => T): Promise<T>;
  /** Runs one statement on the writer (DDL, deletes), in its turn. */
  write(sql: string, params?: SqlParams): Promise<void>;
  /** Runs `use` with the writer once every earlier user is done with it (see `EngineConnection`). */
  useWriter<T>(use: (conn: EngineConnection) => Promise<T>, options?: TurnOptions): Promise<T>;
  /** A connection of the caller's own for background engine work, closed with the engine after `stop`. */
  connect(stop: () => Promise<void>): Promise<EngineConnection>;
  /** Reported by a writer turn whose changes are `reported`, once they are committed. */
  changed(projectIds: Iterable<number>): void;
  changedAfter<T>(projectIds: Iterable<number>, write: () => Promise<T>): Promise<T>;
  /** What every read waits for first (the ingest writer's acknowledged events). */
  setReadBarrier(barrier: () => Promise<void> | undefined): void;
  /** The latest time of receipt of any stored event (null when none is), a floor for trusted time. */
  newestReceipt(): Promise<Date | null>;
  /** Events held, for one project or all. */
  size(projectId?: number): Promise<{ events: number }>;
  /** Moves whenever the project's events may have changed (the result cache keys on it). */
  dataVersion(projectId: number): Promise<string>;
  /** Whether the engine answers; a readiness check must not wait for ingestion. */
  ping(): Promise<void>;
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}
