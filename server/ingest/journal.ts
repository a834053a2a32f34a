// The ingest journal: every accepted batch is appended to a file and made durable (fdatasync)
// before its request is answered. Appends that arrive while one is being synced form the next
// group, so one sync answers many requests. The group writer then loads the batches into the event
// engine in the background and records, in the same transaction, the sequence number it loaded through;
// after a crash the records past that number are loaded again at start.
//
// The journal is a folder of segment files named after the first sequence number they hold. A
// record is `length (u32 LE) | crc32 (u32 LE) | payload`, the payload a JSON array
// `[seq, events, rejections]` with rows as arrays in the column order below. A segment is never
// appended to after a write failed or the process restarted: a torn record can only end a segment.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { syncPath } from '../ground/syncPath.js';
import { crc32 } from 'node:zlib';
import type { Logger } from '../ground/logger.js';
import type { EventRow } from './normalizeEvent.js';
import type { RejectionRow } from './rejections.js';
import { ELEMENT_EVENTS, elementColumns } from './elementColumns.js';

export interface JournalBatch {
  events: EventRow[];
  rejections: RejectionRow[];
}

export interface JournalRecord {
  seq: number;
  batch: JournalBatch;
}

/** The folder of the ingest journal in a data directory. */
export const JOURNAL_DIR = 'ingest-journal';

/** A segment is closed and a new one started once it holds this many bytes (by default). */
export const SEGMENT_BYTES = 32 * 1024 * 1024;
const HEADER_BYTES = 8;
const SEGMENT_NAME = /^(\d{16})\.jnl$/;
const SET_ASIDE_PREFIX = 'unloaded-';

/** A journal file's name: the (first) sequence number it holds, zero-padded so names sort by it. */
const fileName = (seq: number, prefix = '') => `${prefix}${String(seq).padStart(16, '0')}.jnl`;

const EVENT_FIELDS = [
  'project_id',
  'uuid',
  'ts',
  'received_at',
  'event',
  'distinct_id',
  'anonymous_id',
  'user_id',
  'session_id',
  'source',
  'sdk_name',
  'sdk_version',
  'key_id',
  'release',
  'url',
  'path',
  'referrer',
  'props',
  'revenue',
  'elements',
  'invalid',
  'invalid_reasons',
] as const satisfies ReadonlyArray<keyof EventRow>;
const REJECTION_FIELDS = [
  'project_id',
  'received_at',
  'request_id',
  'event_index',
  'operation',
  'key_id',
  'source',
  'sdk_name',
  'sdk_version',
  'event',
  'code',
  'message',
] as const satisfies ReadonlyArray<keyof RejectionRow>;
const DATE_FIELDS = new Set(['ts', 'received_at']);

function encodeRow(row: object, fields: readonly string[]): unknown[] {
  return fields.map((f) => {
    const v = (row as Record<string, unknown>)[f];
    return v instanceof Date ? v.getTime() : v;
  });
}

function decodeRow<T>(values: unknown[], fields: readonly string[]): T {
  const row: Record<string, unknown> = {};
  fields.forEach((f, i) => (row[f] = DATE_FIELDS.has(f) ? new Date(values[i] as number) : values[i]));
  return row as T;
}

export function encodeRecord(seq: number, batch: JournalBatch): Buffer {
  const payload = Buffer.from(JSON.stringify([seq, batch.events.map((r) => encodeRow(r, EVENT_FIELDS)), batch.rejections.map((r) => encodeRow(r, REJECTION_FIELDS))]));
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

function decodePayload(payload: Buffer): JournalRecord {
  const [seq, events, rejections] = JSON.parse(payload.toString('utf8')) as [number, unknown[][], unknown[][]];
  return {
    seq,
    batch: {
      events: events.map((values) => {
        const row = decodeRow<EventRow>(values, EVENT_FIELDS);
        row.props_value = row.props === null ? null : (JSON.parse(row.props) as Record<string, unknown>);
        // Element columns are not journaled: they follow from the chain.
        if (row.elements !== null && ELEMENT_EVENTS.has(row.event)) Object.assign(row, elementColumns(row.event, JSON.parse(row.elements)));
        return row;
      }),
      rejections: rejections.map((values) => decodeRow<RejectionRow>(values, REJECTION_FIELDS)),
    },
  };
}

/** The whole records of one segment's bytes, and where they stop when the rest is torn or damaged. */
export function readRecords(bytes: Buffer): { records: JournalRecord[]; end: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER_BYTES + length;
    if (end > bytes.length) break;
    const payload = bytes.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== bytes.readUInt32LE(at + 4)) break;
    try {
      records.push(decodePayload(payload));
    } catch {
      break;
    }
    at = end;
  }
  return { records, end: at };
}

/**
 * What a journal folder holds, read from the outside (`ppctl doctor`): segments, and batches set
 * aside. An empty file (a write the disk had no room for) holds no batch and is not counted.
 */
export function journalFiles(dir: string): { segments: number; setAside: number } {
  const names = namesIn(dir);
  return { segments: names.filter((n) => SEGMENT_NAME.test(n)).length, setAside: setAsideIn(dir, names).length };
}

/** The batches set aside in a journal folder, oldest first (empty files left by a full disk skipped). */
export function setAsideFiles(dir: string): string[] {
  return setAsideIn(dir, namesIn(dir));
}

const namesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

function setAsideIn(dir: string, names: string[]): string[] {
  return names
    .filter((n) => n.startsWith(SET_ASIDE_PREFIX) && n.endsWith('.jnl'))
    .sort()
    .map((n) => path.join(dir, n))
    .filter((file) => sizeOf(file) > 0);
}

/** The batch in a set-aside file, or undefined when the file is damaged. */
export function readSetAside(file: string): JournalRecord | undefined {
  const { records } = readRecords(readFileSync(file));
  return records[0];
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}

/**
 * Writes every byte or throws. A write may store only part of what it was given (a disk with room
 * for a few bytes more stores those and says how many); the rest is written again, and only a
 * write that can store nothing fails, with ENOSPC. Taking the first, short count for the whole
 * would acknowledge a batch the disk does not hold.
 */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
    if (bytesWritten === 0) throw Object.assign(new Error('the journal segment took no bytes'), { code: 'EIO' });
    at += bytesWritten;
  }
}

/** Empty set-aside files and unfinished `.partial` ones (from a full disk) hold nothing: removed at open. */
function removeEmptyLeftovers(dir: string, log: Logger): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const leftover = name.endsWith('.partial') || (name.startsWith(SET_ASIDE_PREFIX) && sizeOf(file) === 0);
    if (!leftover) continue;
    rmSync(file, { force: true });
    log.warn({ file: name }, 'ingest journal: removed an empty file a full disk left behind');
  }
}

interface Segment {
  file: string;
  firstSeq: number;
}

type Pending = { batch: JournalBatch; resolve: (seq: number) => void; reject: (err: unknown) => void };

export class IngestJournal {
  private segments: Segment[] = [];
  private nextSeq = 1;
  private handle: FileHandle | undefined;
  private handleBytes = 0;
  private pending: Pending[] = [];
  private syncing: Promise<void> | undefined;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly log: Logger,
    private readonly segmentBytes: number,
  ) {}

  /**
   * Reads the folder's segments. The folder itself is created by the first append, so a command
   * that only opens the data (often as another user than the server's) never creates it.
   */
  static open(dir: string, log: Logger, options: { segmentBytes?: number } = {}): IngestJournal {
    const journal = new IngestJournal(dir, log, options.segmentBytes ?? SEGMENT_BYTES);
    removeEmptyLeftovers(dir, log);
    journal.segments = (existsSync(dir) ? readdirSync(dir) : [])
      .map((name) => SEGMENT_NAME.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ file: path.join(dir, m[0]), firstSeq: Number(m[1]) }))
      .sort((a, b) => a.firstSeq - b.firstSeq);
    return journal;
  }

  /**
   * The records after `loadedThrough`, oldest first, read from every segment; later appends get
   * higher numbers and go to a new segment. Segments holding only loaded records are removed.
   */
  recover(loadedThrough: number): JournalRecord[] {
    const found: JournalRecord[] = [];
    let last = loadedThrough;
    for (const segment of this.segments) {
      const bytes = readFileSync(segment.file);
      const { records, end } = readRecords(bytes);
      if (end < bytes.length) {
        this.log.warn({ segment: path.basename(segment.file), offset: end, bytes: bytes.length }, 'ingest journal: the end of a segment is torn; it was never acknowledged');
      }
      for (const r of records) {
        if (r.seq > last) last = r.seq;
        if (r.seq > loadedThrough) found.push(r);
      }
    }
    // A segment whose first write failed holds no record, but its name is taken.
    this.nextSeq = Math.max(last, ...this.segments.map((s) => s.firstSeq)) + 1;
    this.release(loadedThrough);
    return found;
  }

  /** Resolves with the record's sequence number once it is on disk. */
  append(batch: JournalBatch): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the ingest journal is closed'));
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      this.syncing ??= this.sync();
    });
  }

  /** Resolves once the appends in progress are on disk (or failed). */
  async flush(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /** Waits for the appends in progress and closes the segment; with everything loaded, removes it. */
  async close(loadedThrough: number): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.closeHandle();
    this.release(loadedThrough, true);
  }

  private async sync(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const group = this.pending;
        this.pending = [];
        const buffers = group.map((p, i) => encodeRecord(this.nextSeq + i, p.batch));
        try {
          const handle = await this.writable();
          const bytes = Buffer.concat(buffers);
          await writeAll(handle, bytes);
          await handle.datasync();
          this.handleBytes += bytes.length;
        } catch (err) {
          // What reached the file may end in a torn record: the next group starts a new segment.
          // Their numbers are not used again, so the new segment's name cannot be the torn one's.
          await this.closeHandle().catch(() => undefined);
          this.dropEmptySegment();
          this.nextSeq += group.length;
          for (const p of group) p.reject(err);
          continue;
        }
        group.forEach((p, i) => p.resolve(this.nextSeq + i));
        this.nextSeq += group.length;
        if (this.handleBytes >= this.segmentBytes) await this.closeHandle();
      }
    } finally {
      this.syncing = undefined;
    }
  }

  /** The segment being written; a new one (its directory entry synced) when there is none. */
  private async writable(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    if (!existsSync(this.dir)) {
      mkdirSync(this.dir, { mode: 0o700 });
      syncPath(path.dirname(this.dir));
    }
    const file = path.join(this.dir, fileName(this.nextSeq));
    const handle = await open(file, 'a', 0o600);
    syncPath(this.dir);
    this.segments.push({ file, firstSeq: this.nextSeq });
    this.handle = handle;
    this.handleBytes = 0;
    return handle;
  }

  /** A segment opened for a write that failed before any byte reached it (a full disk) goes away. */
  private dropEmptySegment(): void {
    const last = this.segments.at(-1);
    if (!last || sizeOf(last.file) !== 0) return;
    rmSync(last.file, { force: true });
    this.segments.pop();
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /**
   * Removes the segments whose records are all at or below `loadedThrough`; the last one only when
   * `includingLast` and none is being written.
   */
  release(loadedThrough: number, includingLast = false): void {
    const keep: Segment[] = [];
    this.segments.forEach((segment, i) => {
      const next = this.segments[i + 1];
      const active = next === undefined && (this.handle !== undefined || !includingLast);
      // A segment's records end before the next segment's first; the last one ends at nextSeq - 1.
      const lastSeq = next ? next.firstSeq - 1 : this.nextSeq - 1;
      if (!active && lastSeq <= loadedThrough) rmSync(segment.file, { force: true });
      else keep.push(segment);
    });
    this.segments = keep;
  }

  /** How many batches were set aside (kept until the operator deals with them). */
  setAsideCount(): number {
    return journalFiles(this.dir).setAside;
  }

  /**
   * Writes a batch that could not be loaded next to the journal, for the operator (`ppctl ingest
   * retry` loads it again). Written under a temporary name and renamed, so a disk too full for it
   * leaves no empty or partial set-aside file behind.
   */
  setAside(record: JournalRecord): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, fileName(record.seq, SET_ASIDE_PREFIX));
    const partial = `${file}.partial`;
    try {
      writeFileSync(partial, encodeRecord(record.seq, record.batch), { mode: 0o600, flush: true });
      renameSync(partial, file);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
    return file;
  }
}
