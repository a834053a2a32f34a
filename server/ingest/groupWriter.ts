// The one writer of ingest data into DuckDB. Request batches that arrive while a group commits
// form the next group (at most MAX_GROUP_ROWS rows); a group is deduplicated by (project, uuid)
// within itself and against recently stored events (an in-memory filter of stored pairs spares
// reading the table for uuids never seen), and appended (one Appender flush per table) in one
// transaction. Only then are its requests answered and its events published.
// Other ingest writes (identity links, recordings, captures) run as exclusive jobs between
// groups, so none of them ever interleaves with another on the writer connection.

import { INTEGER, LIST, TIMESTAMPTZ, VARCHAR, listValue, timestampTZValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Services } from '../services.js';
import { ServiceUnavailableError } from '../http/errors.js';
import { eventBus, type EventBus } from './eventBus.js';
import { committedEvent, type EventRow } from './normalizeEvent.js';
import type { RejectionRow } from './rejections.js';
import { TableAppender } from './tableAppender.js';
import { StoredKeyFilter, type KeyHash } from './storedKeyFilter.js';

export const MAX_GROUP_ROWS = 5000;

export interface WriteBatch {
  events: EventRow[];
  rejections: RejectionRow[];
}

export interface BatchResult {
  /** Events stored by this batch. */
  stored: number;
  /** Events already stored earlier (or earlier in the same group) under the same uuid. */
  duplicates: number;
}

type Settle<T> = { resolve: (v: T) => void; reject: (e: unknown) => void };
type BatchItem = { kind: 'batch'; batch: WriteBatch } & Settle<BatchResult>;
type JobItem = { kind: 'job'; run: (conn: DuckDBConnection) => Promise<unknown> } & Settle<unknown>;

export interface WriterOptions {
  maxGroupRows: number;
  /** How far back (by received_at) a uuid is looked for; retries come within minutes. */
  dedupWindowMs: number;
  /** Pairs the in-memory filter of stored (project, uuid) pairs holds at most. */
  filterCapacity: number;
  /** Replaces the filter's hash (tests force collisions with it). */
  keyHash?: KeyHash;
}

/** The filter drops a quarter of its capacity at a time, so it holds at least the newest 3/4. */
const FILTER_GENERATIONS = 4;

export class GroupWriter {
  private readonly queue: Array<BatchItem | JobItem> = [];
  private draining: Promise<void> | undefined;
  private closing = false;
  private readonly appenders = new Map<string, TableAppender>();
  private filter: StoredKeyFilter | undefined;
  /** `lookups`: pairs the filter could not rule out, looked up in the table. */
  readonly stats = { groups: 0, stored: 0, duplicates: 0, lookups: 0 };

  constructor(
    private readonly services: Services,
    private readonly bus: EventBus,
    private readonly options: WriterOptions,
  ) {}

  /** Batches and jobs waiting for their turn (not counting the group being committed). */
  get queued(): number {
    return this.queue.length;
  }

  /** Resolves once the batch is committed (or found to be stored already). */
  submit(batch: WriteBatch): Promise<BatchResult> {
    return this.enqueue<BatchResult>((settle) => ({ kind: 'batch', batch, ...settle }));
  }

  /** Runs `run` on the writer connection when no group or other job is in progress. */
  exclusive<T>(run: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.enqueue<T>((settle) => ({ kind: 'job', run, ...(settle as Settle<unknown>) }) as JobItem);
  }

  /** Builds the filter of stored pairs ahead of the first group (it reads up to half its capacity of rows). */
  prepare(): Promise<void> {
    return this.exclusive(async (conn) => {
      await this.keyFilter(conn);
    });
  }

  /** Refuses new work, finishes what is queued and closes the appenders. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.draining) await this.draining;
    await this.services.events.useWriter(async () => {
      for (const a of this.appenders.values()) a.close();
    });
    this.appenders.clear();
  }

  private enqueue<T>(make: (settle: Settle<T>) => BatchItem | JobItem): Promise<T> {
    if (this.closing) return Promise.reject(new ServiceUnavailableError('the server is shutting down; retry the request'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push(make({ resolve, reject }));
      this.kick();
    });
  }

  private kick(): void {
    if (this.draining) return;
    // One turn of the event loop first, so requests parsed together commit together.
    this.draining = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.draining = undefined;
        if (this.queue.length > 0) this.kick();
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.kind === 'job') {
        this.queue.shift();
        await this.services.events.useWriter(head.run).then(head.resolve, head.reject);
        continue;
      }
      // The group is taken once the writer is ours, so batches that arrived meanwhile join it.
      await this.services.events.useWriter((conn) => this.commit(conn, this.takeGroup()));
    }
  }

  private takeGroup(): BatchItem[] {
    const group: BatchItem[] = [];
    let rows = 0;
    while (this.queue[0]?.kind === 'batch') {
      const item = this.queue[0];
      const n = item.batch.events.length;
      if (group.length > 0 && rows + n > this.options.maxGroupRows) break;
      group.push(item);
      this.queue.shift();
      rows += n;
    }
    return group;
  }

  private async commit(conn: DuckDBConnection, group: BatchItem[]): Promise<void> {
    let stored: EventRow[];
    let results: BatchResult[];
    try {
      ({ stored, results } = await this.deduplicate(conn, group));
      await this.write(conn, stored, group.flatMap((item) => item.batch.rejections));
    } catch (err) {
      // Whether a failed COMMIT stored anything is not certain: the filter is read again from the table.
      this.filter = undefined;
      // One bad batch must not fail the requests it happened to be grouped with: retry them one by one.
      if (group.length > 1) {
        for (const item of group) await this.commit(conn, [item]);
        return;
      }
      this.services.log.error({ err }, 'ingest commit failed');
      group[0]!.reject(new ServiceUnavailableError('the events could not be stored; retry the request'));
      return;
    }
    for (const row of stored) this.filter?.add(row.project_id, row.uuid, row.received_at.getTime() * 1000);
    this.stats.groups += 1;
    this.stats.stored += stored.length;
    this.stats.duplicates += results.reduce((n, r) => n + r.duplicates, 0);
    group.forEach((item, i) => item.resolve(results[i]!));
    // Most of the time nobody watches the live stream: then the events need no second shape.
    if (this.bus.subscriberCount > 0) this.bus.publish(stored.map(committedEvent));
  }

  /**
   * Appends the group inside one explicit transaction. The flushes then only move rows into the
   * transaction; the COMMIT (write-ahead log and fsync) runs off the JavaScript thread, so
   * requests keep being read while the previous group is made durable.
   */
  private async write(conn: DuckDBConnection, events: EventRow[], rejections: RejectionRow[]): Promise<void> {
    if (events.length === 0 && rejections.length === 0) return;
    await conn.run('BEGIN TRANSACTION');
    try {
      for (const [table, rows] of [['events', events], ['ingest_rejections', rejections]] as const) {
        if (rows.length === 0) continue;
        const appender = await this.appender(conn, table);
        for (const row of rows) appender.append(row);
        appender.flush();
      }
      await conn.run('COMMIT');
    } catch (err) {
      this.discardAppenders();
      await conn.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /** Keeps the first occurrence of each (project, uuid) that is not stored yet. */
  private async deduplicate(conn: DuckDBConnection, group: BatchItem[]): Promise<{ stored: EventRow[]; results: BatchResult[] }> {
    const existing = await this.storedKeys(conn, group.flatMap((item) => item.batch.events));
    const seen = new Set<string>(existing);
    const stored: EventRow[] = [];
    const results = group.map((item) => {
      const result = { stored: 0, duplicates: 0 };
      for (const row of item.batch.events) {
        const key = `${row.project_id}/${row.uuid}`;
        if (seen.has(key)) {
          result.duplicates += 1;
          continue;
        }
        seen.add(key);
        stored.push(row);
        result.stored += 1;
      }
      return result;
    });
    return { stored, results };
  }

  /**
   * Which of these (project, uuid) pairs are stored already. Groups commit one after another, so
   * everything an earlier group stored is in the filter. Only pairs the filter may hold are looked
   * up, and only rows older than what the filter covers (after it dropped a generation) are
   * searched for the rest; the received_at bounds let DuckDB skip row groups by their min/max.
   */
  private async storedKeys(conn: DuckDBConnection, rows: EventRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const filter = await this.keyFilter(conn);
    const sinceUs = (this.services.clock.now().getTime() - this.options.dedupWindowMs) * 1000;
    const suspects = new Set<string>();
    const unseen = new Set<string>();
    for (const r of rows) (filter.mayHold(r.project_id, r.uuid) ? suspects : unseen).add(r.uuid);
    const found = await this.lookUp(conn, [...suspects], sinceUs, Infinity);
    if (filter.coveredFromUs > sinceUs) found.push(...(await this.lookUp(conn, [...unseen], sinceUs, filter.coveredFromUs)));
    this.stats.lookups += suspects.size;
    return found;
  }

  /** Stored pairs among these uuids with received_at (µs) in [fromUs, beforeUs). */
  private async lookUp(conn: DuckDBConnection, uuids: string[], fromUs: number, beforeUs: number): Promise<string[]> {
    if (uuids.length === 0) return [];
    const bounded = Number.isFinite(beforeUs);
    const reader = await conn.runAndReadAll(
      `SELECT project_id, uuid::VARCHAR AS uuid FROM events
        WHERE received_at >= $1 ${bounded ? 'AND received_at < $3' : ''} AND uuid IN (SELECT unnest($2::VARCHAR[])::UUID)`,
      [timestampTZValue(BigInt(fromUs)), listValue(uuids), ...(bounded ? [timestampTZValue(BigInt(beforeUs))] : [])],
      [TIMESTAMPTZ, LIST(VARCHAR), ...(bounded ? [TIMESTAMPTZ] : [])],
    );
    return reader.getRowObjects().map((r) => `${Number(r.project_id)}/${String(r.uuid)}`);
  }

  /**
   * The filter, built on first use from the pairs received within the window: at most half its
   * capacity, newest first, so that it covers everything from the oldest pair it read on. The
   * uuids come as four words each (no strings), oldest first, so the first generation to go holds
   * the oldest.
   */
  private async keyFilter(conn: DuckDBConnection): Promise<StoredKeyFilter> {
    if (this.filter) return this.filter;
    const { filterCapacity: capacity } = this.options;
    const sinceUs = (this.services.clock.now().getTime() - this.options.dedupWindowMs) * 1000;
    const limit = Math.max(1, Math.floor(capacity / 2));
    const word = (from: number, to: number) => `('0x' || u[${from}:${to}])::UINTEGER`;
    const result = await conn.stream(
      `WITH recent AS (
         SELECT project_id, replace(uuid::VARCHAR, '-', '') AS u, epoch_us(received_at) AS us FROM events
          WHERE received_at >= $1 ORDER BY received_at DESC LIMIT $2)
       SELECT project_id, ${word(1, 8)}, ${word(9, 16)}, ${word(17, 24)}, ${word(25, 32)}, us FROM recent ORDER BY us`,
      [timestampTZValue(BigInt(sinceUs)), limit],
      [TIMESTAMPTZ, INTEGER],
    );
    const filter = new StoredKeyFilter({ capacity, generations: FILTER_GENERATIONS, coveredFromUs: sinceUs, hash: this.options.keyHash });
    let read = 0;
    let oldestUs = Infinity;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [p, w0, w1, w2, w3, us] = chunk.getColumns() as [number[], number[], number[], number[], number[], bigint[]];
      for (let i = 0; i < chunk.rowCount; i++) {
        const receivedUs = Number(us[i]);
        filter.addWords(p[i]!, w0[i]!, w1[i]!, w2[i]!, w3[i]!, receivedUs);
        if (receivedUs < oldestUs) oldestUs = receivedUs;
      }
      read += chunk.rowCount;
    }
    // A full read may have left out rows received at the same instant as the oldest one it holds.
    if (read >= limit) filter.coverFrom(oldestUs + 1);
    this.filter = filter;
    return filter;
  }

  private async appender(conn: DuckDBConnection, table: string): Promise<TableAppender> {
    let a = this.appenders.get(table);
    if (!a) {
      a = await TableAppender.open(conn, table);
      this.appenders.set(table, a);
    }
    return a;
  }

  private discardAppenders(): void {
    for (const a of this.appenders.values()) {
      try {
        a.discard();
      } catch (err) {
        this.services.log.warn({ err }, 'closing a failed appender');
      }
    }
    this.appenders.clear();
  }
}

const writers = new WeakMap<Services, GroupWriter>();

/** The writer of one running server; created on first use, flushed and closed at shutdown. */
export function ingestWriter(services: Services): GroupWriter {
  let writer = writers.get(services);
  if (!writer) {
    const w = new GroupWriter(services, eventBus(services), {
      maxGroupRows: MAX_GROUP_ROWS,
      dedupWindowMs: Math.max(1, services.config.ingest.dedup_window_hours) * 3_600_000,
      filterCapacity: Math.max(1000, services.config.ingest.dedup_filter_events),
    });
    writers.set(services, w);
    services.onShutdown(() => w.close());
    // A failure leaves the filter to be built by the first group, which then reports it.
    w.prepare().catch((err: unknown) => services.log.warn({ err }, 'duplicate filter not built at start'));
    writer = w;
  }
  return writer;
}
