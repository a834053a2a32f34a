// The one writer of ingest data into the event engine. A batch is first made durable in the ingest
// journal, and its request answered then; the writer loads journaled batches in groups (at most
// MAX_GROUP_ROWS rows, or the engine's `groupRows`, the batches that arrived while the previous
// group committed). A group is deduplicated by (project, uuid) within itself and against recently
// stored events (an in-memory filter of stored pairs spares reading the table for uuids never
// seen), and appended by the engine's appender in one transaction that also records the journal
// position it loads through, together with the labeled events derived from them (the `derive`
// option), marked as a first attempt unless an earlier load may have stored some of it. Then its
// events are published. Reads wait until what was acknowledged before they started is loaded, so
// an answered event is in every later answer.
// Other ingest writes (identity links, recordings, captures) run as exclusive jobs between
// groups, so none of them ever interleaves with another on the writer connection. At start, what
// the journal holds past the stored position is queued ahead of everything else and may load in
// the background (the replay): batches answered meanwhile are journaled after it and load after it.

import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../http/services.js';
import { EngineUnreachableError, type EngineConnection, type TurnOptions } from '../engine/engine.js';
import { outsideDeadline } from '../ground/deadline.js';
import { AppError, ServiceUnavailableError, StorageFullError } from '../ground/errors.js';
import { isStorageFull } from '../store/storageFull.js';
import type { EventBus } from './eventBus.js';
import { committedEvent, type EventRow } from './normalizeEvent.js';
import type { RejectionRow } from './rejections.js';
import { distinctKeys } from './distinctKey.js';
import { StoredKeyFilter, type KeyHash } from './storedKeyFilter.js';
import { IngestJournal, JOURNAL_DIR, readSetAside, setAsideFiles, type JournalBatch } from './journal.js';

export const MAX_GROUP_ROWS = 5000;
/** Journaled rows not loaded yet beyond which new batches wait: bounds memory when loading falls behind. */
export const MAX_BACKLOG_ROWS = 20_000;
/** How long a read waits for acknowledged events to be loaded before it answers from what is. */
export const READ_WAIT_MS = 5_000;
/** Loading a journaled batch is tried this often (backing off) before it is set aside. */
const LOAD_ATTEMPTS = 5;
const FIRST_RETRY_MS = 100;
/** How often loading is tried again while the engine's store cannot be reached. */
const UNREACHABLE_RETRY_MS = 1000;
/** What a client is told to wait before sending again while the replay leaves no room in the backlog. */
const REPLAY_RETRY_SECONDS = 5;

export type WriteBatch = JournalBatch;

/** What `ppctl ingest retry` did: batches and events loaded, and the files that failed again. */
export interface SetAsideRetry {
  batches: number;
  events: number;
  failed: Array<{ file: string; error: string }>;
}

/** Rows a batch adds to the tables (events and refused attempts). */
const rowsOf = (batch: WriteBatch) => batch.events.length + batch.rejections.length;

type Settle<T> = { resolve: (v: T) => void; reject: (e: unknown) => void };
/** `seq`: the journal record holding the batch; undefined when the writer has no journal. */
type BatchItem = { kind: 'batch'; batch: WriteBatch; seq: number | undefined } & Settle<void>;
type JobItem = { kind: 'job'; run: (conn: EngineConnection) => Promise<unknown>; options: TurnOptions } & Settle<unknown>;

export interface WriterOptions {
  maxGroupRows: number;
  /** How far back (by received_at) a uuid is looked for; retries come within minutes. */
  dedupWindowMs: number;
  /** Pairs the in-memory filter of stored (project, uuid) pairs holds at most. */
  filterCapacity: number;
  /** Replaces the filter's hash (tests force collisions with it). */
  keyHash?: KeyHash;
  /** Where batches are made durable before they are answered; without one, after their commit. */
  journal?: IngestJournal;
  maxBacklogRows?: number;
  /** The first wait before loading a failed journaled batch again (tests shorten it). */
  retryMs?: number;
  /** How long a read waits for the load (default READ_WAIT_MS). */
  readWaitMs?: number;
  /** Events derived from those about to be stored (labeled events), appended in the same transaction. */
  derive?: Derive;
}

export type Derive = (stored: readonly EventRow[]) => EventRow[];

/** The filter drops a quarter of its capacity at a time, so it holds at least the newest 3/4. */
const FILTER_GENERATIONS = 4;

export class GroupWriter {
  private readonly queue: Array<BatchItem | JobItem> = [];
  private draining: Promise<void> | undefined;
  private closing = false;
  private filter: StoredKeyFilter | undefined;
  /** The newest journal record answered, and the newest loaded (or set aside). */
  private ackedSeq = 0;
  private settledSeq = 0;
  /** The last journal record the replay at start loads (0: none). */
  private replayThroughSeq = 0;
  /** The last journal record of a group whose load failed (0: none): it and those before may be partly stored. */
  private failedThroughSeq = 0;
  private backlogRows = 0;
  private readonly settleWaiters: Array<{ seq: number; resolve: () => void }> = [];
  private readonly roomWaiters: Array<() => void> = [];
  private readonly backlogLimit: number;
  /** `lookups`: pairs the filter could not rule out, looked up in the table. */
  readonly stats = { groups: 0, stored: 0, duplicates: 0, lookups: 0, setAside: 0 };

  constructor(
    private readonly services: Services,
    private readonly bus: EventBus,
    private readonly options: WriterOptions,
  ) {
    this.backlogLimit = options.maxBacklogRows ?? MAX_BACKLOG_ROWS;
  }

  /** Batches and jobs waiting for their turn (not counting the group being committed). */
  get queued(): number {
    return this.queue.length;
  }

  /** The most events a group holds. */
  get groupRows(): number {
    return this.options.maxGroupRows;
  }

  /** Journaled rows waiting to be loaded. */
  get backlog(): number {
    return this.backlogRows;
  }

  /** Whether batches answered before the last stop are still being loaded (see `recover`). */
  get replaying(): boolean {
    return this.settledSeq < this.replayThroughSeq;
  }

  /**
   * Resolves once the batch is durable: written to the journal (then loaded in the background),
   * or, without a journal, committed. Duplicates are dropped when it is loaded.
   */
  async submit(batch: WriteBatch): Promise<void> {
    const journal = this.options.journal;
    if (!journal) return this.enqueue<void>((settle) => ({ kind: 'batch', batch, seq: undefined, ...settle }));
    if (this.closing) throw shuttingDown();
    if (rowsOf(batch) === 0) return;
    // A replay may fill the backlog for minutes: better told to come back than held that long.
    if (this.replaying && this.backlogRows >= this.backlogLimit) throw replayBusy();
    while (this.backlogRows >= this.backlogLimit) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    let seq: number;
    try {
      seq = await journal.append(batch);
    } catch (err) {
      this.services.log.error({ err }, 'ingest journal write failed');
      throw notStored(err);
    }
    this.queueLoad(seq, batch);
  }

  /** Journaled rows waiting to be loaded, and batches set aside (in this journal folder, by any process). */
  journalState(): { backlog_events: number; set_aside_batches: number } {
    return { backlog_events: this.backlog, set_aside_batches: this.options.journal?.setAsideCount() ?? 0 };
  }

  /**
   * Loads the batches set aside again (`ppctl ingest retry`), oldest first, each on its own; a batch
   * that loads is removed, one that fails again stays for the next try. Events already stored
   * (a batch partly loaded before) are recognized as duplicates, as for any re-sent event.
   */
  async retrySetAside(): Promise<SetAsideRetry> {
    const result: SetAsideRetry = { batches: 0, events: 0, failed: [] };
    const journal = this.options.journal;
    if (!journal) return result;
    for (const file of setAsideFiles(journal.dir)) {
      const name = path.basename(file);
      const record = readSetAside(file);
      if (!record) {
        result.failed.push({ file: name, error: 'the file is damaged: its record does not check out' });
        continue;
      }
      try {
        await this.enqueue<void>((settle) => ({ kind: 'batch', batch: record.batch, seq: undefined, ...settle }));
      } catch (err) {
        result.failed.push({ file: name, error: err instanceof Error ? err.message : String(err) });
        continue;
      }
      rmSync(file, { force: true });
      this.services.log.info({ file: name, events: record.batch.events.length }, 'a set-aside batch was loaded');
      result.batches += 1;
      result.events += record.batch.events.length;
    }
    return result;
  }

  /** Resolves once every batch answered so far is loaded (or set aside). */
  loaded(): Promise<void> {
    return this.settled(this.ackedSeq);
  }

  /**
   * What a read waits for first: the batches answered before it started, for at most
   * READ_WAIT_MS (a load that keeps failing must not stop every query). Undefined when nothing is
   * outstanding, the common case, so reads pay nothing.
   */
  readBarrier(): Promise<void> | undefined {
    if (this.settledSeq >= this.ackedSeq) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.readWaitMs ?? READ_WAIT_MS)));
    return Promise.race([this.settled(this.ackedSeq), limit]).finally(() => clearTimeout(timer));
  }

  /**
   * Queues the journal records a stopped process had answered but not loaded (those past the
   * position stored with the events) ahead of anything else, so the journal numbers new batches
   * after them; answers with what `loaded` resolves once they are loaded.
   */
  async recover(): Promise<{ loaded: Promise<void> }> {
    const journal = this.options.journal;
    if (!journal) return { loaded: Promise.resolve() };
    const position = await this.services.events.useWriter((conn) => this.services.events.appender.journalPosition(conn));
    this.settledSeq = position;
    this.ackedSeq = position;
    const records = journal.recover(position);
    for (const r of records) this.queueLoad(r.seq, r.batch);
    this.replayThroughSeq = this.ackedSeq;
    if (records.length === 0) return { loaded: Promise.resolve() };
    const events = records.reduce((n, r) => n + r.batch.events.length, 0);
    this.services.log.info({ batches: records.length, events }, 'ingest journal: loading what was acknowledged before the last stop');
    const loaded = this.settled(this.replayThroughSeq).then(() => {
      this.services.log.info({ batches: records.length, events }, 'ingest journal: loaded what was acknowledged before the last stop');
    });
    return { loaded };
  }

  /**
   * Runs `run` on the writer connection when no group or other job is in progress. With `changes:
   * 'reported'`, `run` tells the event store which projects' events it changed (see `useWriter`).
   */
  exclusive<T>(run: (conn: EngineConnection) => Promise<T>, options: TurnOptions = {}): Promise<T> {
    return this.enqueue<T>((settle) => ({ kind: 'job', run, options, ...(settle as Settle<unknown>) }) as JobItem);
  }

  /** Builds the filter of stored pairs ahead of the first group (it reads up to half its capacity of rows). */
  prepare(): Promise<void> {
    return this.exclusive(async (conn) => {
      await this.keyFilter(conn);
    });
  }

  /** Refuses new work, loads what is journaled and queued, closes the journal. */
  async close(): Promise<void> {
    this.closing = true;
    await this.options.journal?.flush();
    while (this.draining) await this.draining;
    await this.options.journal?.close(this.settledSeq);
  }

  private queueLoad(seq: number, batch: WriteBatch): void {
    if (seq > this.ackedSeq) this.ackedSeq = seq;
    this.backlogRows += rowsOf(batch);
    this.queue.push({ kind: 'batch', batch, seq, resolve: () => undefined, reject: () => undefined });
    this.kick();
  }

  private settled(seq: number): Promise<void> {
    if (this.settledSeq >= seq) return Promise.resolve();
    return new Promise<void>((resolve) => this.settleWaiters.push({ seq, resolve }));
  }

  /** Marks journal records up to `seq` as loaded (or set aside): wakes reads and waiting batches. */
  private settle(seq: number, rows: number): void {
    if (seq > this.settledSeq) this.settledSeq = seq;
    this.backlogRows -= rows;
    for (let i = this.settleWaiters.length - 1; i >= 0; i--) {
      const w = this.settleWaiters[i]!;
      if (w.seq <= this.settledSeq) {
        this.settleWaiters.splice(i, 1);
        w.resolve();
      }
    }
    while (this.backlogRows < this.backlogLimit && this.roomWaiters.length > 0) this.roomWaiters.shift()!();
    try {
      this.options.journal?.release(this.settledSeq);
    } catch (err) {
      this.services.log.warn({ err }, 'ingest journal: a loaded segment could not be removed');
    }
  }

  private enqueue<T>(make: (settle: Settle<T>) => BatchItem | JobItem): Promise<T> {
    if (this.closing) return Promise.reject(shuttingDown());
    return new Promise<T>((resolve, reject) => {
      this.queue.push(make({ resolve, reject }));
      this.kick();
    });
  }

  private kick(): void {
    if (this.draining) return;
    // One turn of the event loop first, so requests parsed together commit together. Loading is
    // everyone's: a job that happened to set it going must not lend it its deadline.
    this.draining = outsideDeadline(() =>
      new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.drain())
        .finally(() => {
          this.draining = undefined;
          if (this.queue.length > 0) this.kick();
        }),
    );
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      // Once stopping, journaled batches not begun stay in the journal for the next start: a stop
      // must not wait for a long replay.
      if (this.closing && head.kind === 'batch' && head.seq !== undefined) {
        this.queue.shift();
        continue;
      }
      if (head.kind === 'job') {
        this.queue.shift();
        await this.services.events.useWriter(head.run, head.options).then(head.resolve, head.reject);
        continue;
      }
      // The group is taken once the writer is ours, so batches that arrived meanwhile join it.
      await this.services.events.useWriter((conn) => this.commit(conn, this.takeGroup()), { changes: 'reported' });
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

  private async commit(conn: EngineConnection, group: BatchItem[], attempt = 1): Promise<void> {
    let stored: EventRow[];
    let derived: EventRow[];
    let duplicates: number;
    const seq = group.reduce<number | undefined>((max, item) => (item.seq === undefined ? max : Math.max(max ?? 0, item.seq)), undefined);
    try {
      ({ stored, duplicates } = await this.deduplicate(conn, group));
      // A journal record loaded before (the replay at start, a failed load) may have left events stored.
      const firstAttempt = group.every((item) => item.seq !== undefined && item.seq > Math.max(this.replayThroughSeq, this.failedThroughSeq));
      derived = await this.write(
        conn,
        stored,
        group.flatMap((item) => item.batch.rejections),
        seq,
        firstAttempt,
      );
    } catch (err) {
      // Whether a failed COMMIT stored anything is not certain: the filter is read again from the table.
      this.filter = undefined;
      if (seq !== undefined && seq > this.failedThroughSeq) this.failedThroughSeq = seq;
      // One bad batch must not fail the batches it happened to be grouped with: retry them one by one.
      if (group.length > 1) {
        for (const item of group) await this.commit(conn, [item]);
        return;
      }
      await this.failed(conn, group[0]!, attempt, err);
      return;
    }
    for (const row of stored) this.filter?.add(row.project_id, row.uuid, row.received_at.getTime() * 1000);
    this.stats.groups += 1;
    this.stats.stored += stored.length;
    this.stats.duplicates += duplicates;
    for (const item of group) item.resolve();
    if (seq !== undefined)
      this.settle(
        seq,
        group.reduce((n, item) => n + rowsOf(item.batch), 0),
      );
    // Most of the time nobody watches the live stream: then the events need no second shape.
    if (this.bus.subscriberCount > 0) this.bus.publish([...stored, ...derived].map(committedEvent));
  }

  /** Waits until the event store answers again: false when the writer closes first. */
  private async untilReachable(): Promise<boolean> {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? UNREACHABLE_RETRY_MS));
      if (this.closing) return false;
      const answers = await this.services.events.ping().then(
        () => true,
        () => false,
      );
      if (answers) return true;
    }
  }

  /**
   * A batch that failed to load alone. Without a journal its request is answered 503. A journaled
   * batch was answered already: it is tried again, backing off (the disk may be full for a
   * while), then written aside next to the journal for the operator so loading goes on.
   */
  private async failed(conn: EngineConnection, item: BatchItem, attempt: number, err: unknown): Promise<void> {
    if (item.seq === undefined) {
      this.services.log.error({ err }, 'ingest commit failed');
      item.reject(notStored(err));
      return;
    }
    const journal = this.options.journal!;
    if (err instanceof EngineUnreachableError) {
      // The engine's store is down: the batch waits in the journal however long that lasts (reads
      // stop waiting for it after READ_WAIT_MS), and, once stopping, for the next start.
      // It is asked whether it answers until it does, and the batch loaded then: a load per try
      // would nest one call in the last for as long as the outage lasts.
      if (this.closing) return;
      if (attempt === 1) this.services.log.warn({ err, seq: item.seq }, 'the event store cannot be reached; journaled batches wait for it');
      if (!(await this.untilReachable())) return;
      return this.commit(conn, [item], 2);
    }
    if (attempt < LOAD_ATTEMPTS) {
      this.services.log.warn({ err, seq: item.seq, attempt }, 'loading a journaled batch failed; trying again');
      await new Promise((resolve) => setTimeout(resolve, (this.options.retryMs ?? FIRST_RETRY_MS) * 4 ** (attempt - 1)));
      return this.commit(conn, [item], attempt + 1);
    }
    try {
      const file = journal.setAside({ seq: item.seq, batch: item.batch });
      this.stats.setAside += 1;
      this.services.log.error({ err, seq: item.seq, events: item.batch.events.length, file: path.basename(file) }, 'a journaled batch could not be loaded; set aside');
      this.settle(item.seq, rowsOf(item.batch));
    } catch (asideErr) {
      this.services.log.error({ err: asideErr, seq: item.seq }, 'a journaled batch could not be set aside; trying to load it again');
      return this.commit(conn, [item], LOAD_ATTEMPTS - 1);
    }
  }

  /**
   * Appends the group, its refused attempts and the journal position in one transaction of the
   * engine's appender, committed durably when it resolves.
   */
  private async write(conn: EngineConnection, events: EventRow[], rejections: RejectionRow[], seq: number | undefined, firstAttempt: boolean): Promise<EventRow[]> {
    if (events.length === 0 && rejections.length === 0 && seq === undefined) return [];
    const keyOf = distinctKeys();
    for (const row of events) row.distinct_key = keyOf(row.distinct_id);
    const derived = events.length > 0 && this.options.derive ? this.options.derive(events) : [];
    try {
      await this.services.events.appender.append(conn, { events: derived.length > 0 ? [...events, ...derived] : events, rejections, journalPosition: seq, firstAttempt });
    } finally {
      // Also after a failed COMMIT, which may have stored the rows: cached answers must not outlive them.
      this.services.events.changed(new Set(events.map((row) => row.project_id)));
    }
    return derived;
  }

  /** Keeps the first occurrence of each (project, uuid) that is not stored yet. */
  private async deduplicate(conn: EngineConnection, group: BatchItem[]): Promise<{ stored: EventRow[]; duplicates: number }> {
    const existing = await this.storedKeys(
      conn,
      group.flatMap((item) => item.batch.events),
    );
    const seen = new Set<string>(existing);
    const stored: EventRow[] = [];
    let duplicates = 0;
    for (const item of group) {
      for (const row of item.batch.events) {
        const key = `${row.project_id}/${row.uuid}`;
        if (seen.has(key)) {
          duplicates += 1;
          continue;
        }
        seen.add(key);
        stored.push(row);
      }
    }
    return { stored, duplicates };
  }

  /**
   * Which of these (project, uuid) pairs are stored already. Groups commit one after another, so
   * everything an earlier group stored is in the filter. Only pairs the filter may hold are looked
   * up, and only rows older than what the filter covers (after it dropped a generation) are
   * searched for the rest; the received_at bounds spare the engine reading older events.
   */
  private async storedKeys(conn: EngineConnection, rows: EventRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const filter = await this.keyFilter(conn);
    // The window is counted from receipt: a batch loaded late (after a restart) is judged as it came.
    const receivedMs = rows.reduce((min, r) => Math.min(min, r.received_at.getTime()), Infinity);
    const sinceUs = (receivedMs - this.options.dedupWindowMs) * 1000;
    const suspects = new Set<string>();
    const unseen = new Set<string>();
    for (const r of rows) (filter.mayHold(r.project_id, r.uuid) ? suspects : unseen).add(r.uuid);
    const found = await this.lookUp(conn, [...suspects], sinceUs, Infinity);
    if (filter.coveredFromUs > sinceUs) found.push(...(await this.lookUp(conn, [...unseen], sinceUs, filter.coveredFromUs)));
    this.stats.lookups += suspects.size;
    return found;
  }

  /** Stored pairs among these uuids with received_at (µs) in [fromUs, beforeUs). */
  private lookUp(conn: EngineConnection, uuids: string[], fromUs: number, beforeUs: number): Promise<string[]> {
    return this.services.events.appender.storedPairs(conn, uuids, fromUs, beforeUs);
  }

  /**
   * The filter, built on first use from the pairs received within the window: at most half its
   * capacity, newest first, so that it covers everything from the oldest pair it read on. The
   * uuids come as four words each (no strings), oldest first, so the first generation to go holds
   * the oldest.
   */
  private async keyFilter(conn: EngineConnection): Promise<StoredKeyFilter> {
    if (this.filter) return this.filter;
    const { filterCapacity: capacity } = this.options;
    const sinceUs = (this.services.clock.now().getTime() - this.options.dedupWindowMs) * 1000;
    const limit = Math.max(1, Math.floor(capacity / 2));
    const filter = new StoredKeyFilter({ capacity, generations: FILTER_GENERATIONS, coveredFromUs: sinceUs, hash: this.options.keyHash });
    let read = 0;
    let oldestUs = Infinity;
    await this.services.events.appender.recentKeys(conn, sinceUs, limit, ({ count, projects: p, words: [w0, w1, w2, w3], receivedUs: us }) => {
      for (let i = 0; i < count; i++) {
        const receivedUs = us[i]!;
        filter.addWords(p[i]!, w0[i]!, w1[i]!, w2[i]!, w3[i]!, receivedUs);
        if (receivedUs < oldestUs) oldestUs = receivedUs;
      }
      read += count;
    });
    // A full read may have left out rows received at the same instant as the oldest one it holds.
    if (read >= limit) filter.coverFrom(oldestUs + 1);
    this.filter = filter;
    return filter;
  }
}

/** The answer to a request whose events could not be stored: a full disk says so, anything else is 503. */
function notStored(err: unknown): ServiceUnavailableError | StorageFullError {
  return isStorageFull(err) ? new StorageFullError() : new ServiceUnavailableError('the events could not be stored; retry the request');
}

function replayBusy(): AppError {
  return new AppError(
    503,
    'unavailable',
    'the server is still loading the events acknowledged before its last stop; retry the request',
    { retry_after: REPLAY_RETRY_SECONDS },
    { 'Retry-After': String(REPLAY_RETRY_SECONDS) },
  );
}

function shuttingDown(): ServiceUnavailableError {
  return new ServiceUnavailableError('the server is shutting down; retry the request');
}

/** The writer of an installation over its journal: made by openServices.ts, then opened with `openIngestWriter`. */
export function createIngestWriter(services: Services, derive?: Derive): GroupWriter {
  const journal = IngestJournal.open(path.join(services.config.data_dir, JOURNAL_DIR), services.log);
  // An engine may take larger groups (ClickHouse: a part per INSERT); the backlog holds two of them.
  const groupRows = services.events.appender.groupRows ?? MAX_GROUP_ROWS;
  return new GroupWriter(services, services.bus, {
    maxGroupRows: groupRows,
    maxBacklogRows: Math.max(MAX_BACKLOG_ROWS, 2 * groupRows),
    dedupWindowMs: Math.max(1, services.config.ingest.dedup_window_hours) * 3_600_000,
    filterCapacity: Math.max(1000, services.config.ingest.dedup_filter_events),
    journal,
    derive,
  });
}

/**
 * Opens the writer: what its journal holds that the last process answered but did not load is
 * queued to load first: loaded before this returns, or, with `replay: 'background'` (the server,
 * which listens meanwhile), after (see `replaying`). Reads wait for the writer from then on. It is
 * flushed and closed at shutdown.
 */
export async function openIngestWriter(services: Services, writer: GroupWriter, replay: 'wait' | 'background' = 'wait'): Promise<void> {
  services.onShutdown(() => writer.close());
  services.events.setReadBarrier(() => writer.readBarrier());
  const { loaded } = await writer.recover();
  if (replay === 'wait') await loaded;
}

/** The writer of one running server (opened with the services). */
export function ingestWriter(services: Services): GroupWriter {
  return services.ingest;
}
