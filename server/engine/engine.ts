// The seam between the server and the store of events: what ingestion, the analytical queries, the
// behavior reports, labeled events, recordings and the background jobs ask of events. An engine runs
// statements that its own builders wrote (engine/<kind>/ for the features outside queries/, and
// each insight's statements.ts for the insights, one builder per engine kind); the rows it answers
// are turned into answers by code that knows no engine. DuckDB (engine/duckdb/) is the first.

/** The engines there are; an insight's builders are a `ByEngine` record, so a new kind here makes tsc name every builder still to write. */
export const ENGINE_KINDS = ['duckdb'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** One value for each engine kind: how insights and features hold their per-engine statement builders. */
export type ByEngine<T> = Record<EngineKind, T>;

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

/**
 * The engine's own connection, handed to a writer turn. Only engine code reads it (the ingest
 * writer's commit, the rollup folds and the jobs of engine/<kind>/), each knowing its engine's
 * type; everything else passes it on untouched.
 */
// biome-ignore lint/suspicious/noExplicitAny: each engine's code reads its own connection type.
export type EngineConnection = any;

/** The engine's own result of a chunked read, handed to the insight builder that wrote the statement. */
export type ChunkedResult = unknown;

export interface EventEngine {
  readonly kind: EngineKind;
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
