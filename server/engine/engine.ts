// The shape of the seam between the server and the store of events: what ingestion, the analytical
// queries, the behavior reports, labeled events and the background jobs ask of events. DuckDB is the
// first implementation (server/store/eventStore.ts with the statement builders of this folder and
// of queries/<insight>/); a second engine writes its own statement builders behind the same
// interface. Nothing implements or calls it yet: callers still reach EventStore directly.

/** What every engine call about a project's events needs to know besides its parameters. */
export interface EngineContext {
  projectId: number;
  /** IANA zone defining the project's calendar days. */
  timezone: string;
  /** The request's instant; engines never read the clock. */
  now: Date;
  /** Interrupt the work after this long (408 `query_timeout`). */
  timeoutMs: number;
}

/** A page of stored events, newest first, and where the next one starts (null at the end). */
export interface EventPage<E> {
  items: E[];
  next: string | null;
}

/** Work that changes or derives stored events, run to completion under the engine's own rules. */
export type EngineJob =
  | { kind: 'purge'; projectId: number; /** The events to delete, as the engine's own condition builder reads them. */ selection: unknown }
  | { kind: 'derive'; projectId: number; /** A derivation (labeled events) from its rule revision. */ rule: unknown };

/**
 * `E` is a stored event as ingestion validated it, `Q` the analytical questions by name with their
 * parameters and answers (queries/<insight>/types.ts).
 */
export interface EventEngine<E, Q extends Record<string, { params: unknown; answer: unknown }>> {
  /** Stores one batch of events atomically; answers how many were stored. */
  append(batch: readonly E[]): Promise<number>;
  /** One page of a project's events after the opaque position `after`. */
  readPage(ctx: EngineContext, after: string | null, limit: number): Promise<EventPage<E>>;
  /** Answers one analytical question; rows are shaped by the insight, not by the engine. */
  answer<K extends keyof Q>(question: K, params: Q[K]['params'], ctx: EngineContext): Promise<Q[K]['answer']>;
  /** Runs a purge or a derivation job. */
  run(job: EngineJob): Promise<void>;
  /** Bytes and events held, for one project or all. */
  size(projectId?: number): Promise<{ bytes: number; events: number }>;
  /** Moves whenever the project's events may have changed (the result cache keys on it). */
  dataVersion(projectId: number): Promise<string>;
  close(): Promise<void>;
}
