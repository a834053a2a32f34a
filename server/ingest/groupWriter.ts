// The one writer of ingest data into DuckDB. Request batches that arrive while a group commits
// form the next group (at most MAX_GROUP_ROWS rows); a group is deduplicated by (project, uuid)
// within itself and against recently stored events, and appended (one Appender flush per table)
// in one transaction. Only then are its requests answered and its events published.
// Other ingest writes (identity links, recordings, captures) run as exclusive jobs between
// groups, so none of them ever interleaves with another on the writer connection.

import { LIST, TIMESTAMPTZ, VARCHAR, listValue, timestampTZValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Services } from '../services.js';
import { ServiceUnavailableError } from '../http/errors.js';
import { eventBus, type EventBus } from './eventBus.js';
import { committedEvent, type EventRow } from './normalizeEvent.js';
import type { RejectionRow } from './rejections.js';
import { TableAppender } from './tableAppender.js';

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
}

export class GroupWriter {
  private readonly queue: Array<BatchItem | JobItem> = [];
  private draining: Promise<void> | undefined;
  private closing = false;
  private readonly appenders = new Map<string, TableAppender>();
  readonly stats = { groups: 0, stored: 0, duplicates: 0 };

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

  /** Refuses new work, finishes what is queued and closes the appenders. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.draining) await this.draining;
    for (const a of this.appenders.values()) a.close();
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
        await head.run(this.services.events.writer).then(head.resolve, head.reject);
        continue;
      }
      await this.commit(this.takeGroup());
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

  private async commit(group: BatchItem[]): Promise<void> {
    let stored: EventRow[];
    let results: BatchResult[];
    try {
      ({ stored, results } = await this.deduplicate(group));
      await this.write(stored, group.flatMap((item) => item.batch.rejections));
    } catch (err) {
      // One bad batch must not fail the requests it happened to be grouped with: retry them one by one.
      if (group.length > 1) {
        for (const item of group) await this.commit([item]);
        return;
      }
      this.services.log.error({ err }, 'ingest commit failed');
      group[0]!.reject(new ServiceUnavailableError('the events could not be stored; retry the request'));
      return;
    }
    this.stats.groups += 1;
    this.stats.stored += stored.length;
    this.stats.duplicates += results.reduce((n, r) => n + r.duplicates, 0);
    group.forEach((item, i) => item.resolve(results[i]!));
    this.bus.publish(stored.map(committedEvent));
  }

  /**
   * Appends the group inside one explicit transaction. The flushes then only move rows into the
   * transaction; the COMMIT (write-ahead log and fsync) runs off the JavaScript thread, so
   * requests keep being read while the previous group is made durable.
   */
  private async write(events: EventRow[], rejections: RejectionRow[]): Promise<void> {
    if (events.length === 0 && rejections.length === 0) return;
    const conn = this.services.events.writer;
    await conn.run('BEGIN TRANSACTION');
    try {
      for (const [table, rows] of [['events', events], ['ingest_rejections', rejections]] as const) {
        if (rows.length === 0) continue;
        const appender = await this.appender(table);
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
  private async deduplicate(group: BatchItem[]): Promise<{ stored: EventRow[]; results: BatchResult[] }> {
    const existing = await this.storedKeys(group.flatMap((item) => item.batch.events));
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
   * everything an earlier group stored is visible here. The received_at bound lets DuckDB skip
   * old row groups by their min/max instead of scanning every uuid ever stored.
   */
  private async storedKeys(rows: EventRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const since = this.services.clock.now().getTime() - this.options.dedupWindowMs;
    const reader = await this.services.events.writer.runAndReadAll(
      `SELECT project_id, uuid::VARCHAR AS uuid FROM events
        WHERE received_at >= $1 AND uuid IN (SELECT unnest($2::VARCHAR[])::UUID)`,
      [timestampTZValue(BigInt(since) * 1000n), listValue([...new Set(rows.map((r) => r.uuid))])],
      [TIMESTAMPTZ, LIST(VARCHAR)],
    );
    return reader.getRowObjects().map((r) => `${Number(r.project_id)}/${String(r.uuid)}`);
  }

  private async appender(table: string): Promise<TableAppender> {
    let a = this.appenders.get(table);
    if (!a) {
      a = await TableAppender.open(this.services.events.writer, table);
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
    });
    writers.set(services, w);
    services.onShutdown(() => w.close());
    writer = w;
  }
  return writer;
}
