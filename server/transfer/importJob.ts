// Runs one import: reads its files part by part and record by record, maps each record by the
// format (posthogImport.ts, amplitudeImport.ts, csvImport.ts, or pp's own NDJSON), and stores the
// rows in batches through the bulk path (server/ingest/storeImported.ts). After each batch it saves
// the checkpoint (file, part, byte offset and line of the next record) with the counts, so a job
// stopped anyhow resumes there; rows of a batch stored just before a stop are found again by uuid.
// Identity links and traits carried by the records are applied as identify and alias apply them.
// While a batch is stored (DuckDB appends and commits on threads of its own), the next one is read
// and mapped; batches are stored one after another, and a checkpoint never names a record beyond
// those committed.

import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Services } from '../http/services.js';
import type { Job } from '../store/jobs.js';
import type { EventRow } from '../ingest/normalizeEvent.js';
import { storeImported } from '../ingest/storeImported.js';
import { distinctKeys } from '../ingest/distinctKey.js';
import { applyIdentities, TRAITS_MAX_BYTES, type TraitsUpdate } from '../ingest/identity.js';
import { sizeDefect } from '../ingest/eventSchema.js';
import { ingestPolicy } from '../ingest/behaviorSettings.js';
import { partsOf, type Part } from './sourceParts.js';
import { csvRecords, jsonLines, type Position } from './records.js';
import { posthogCsvRow, posthogRecord } from './posthogImport.js';
import { amplitudeRecord } from './amplitudeImport.js';
import { csvRecord, parseMappings, targetsOf } from './csvImport.js';
import { rowOf, type RowContext } from './importRows.js';
import type { ImportRecord, Traits } from './importRecord.js';
import { cancelRequested, keepRejections, saveProgress, transferRow, type Rejection } from './transferJobs.js';

export const IMPORT_FORMATS = ['posthog', 'amplitude', 'ndjson', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Rows stored per transaction: large enough that a commit's cost vanishes, small enough to resume cheaply. */
export const IMPORT_BATCH_ROWS = 20_000;

/** Distinct ids whose keys an import keeps from batch to batch (about 100 bytes each). */
const DISTINCT_KEYS_HELD = 200_000;

/** Where the API keeps uploaded files until their import is done. */
export function uploadDir(services: Services): string {
  return path.join(services.config.data_dir, 'imports');
}

export interface ImportOptions {
  format: ImportFormat;
  files: Array<{ path: string; name: string }>;
  map: string[];
}

export interface Checkpoint {
  file: number;
  part: number;
  offset: number;
  line: number;
  /** The CSV header of the part being read. */
  header?: string[];
}

class ImportCancelledError extends Error {
  constructor() {
    super('the import was cancelled');
  }
}

interface Counts {
  lines: number;
  stored: number;
  duplicates: number;
  rejected: number;
}

/** One record with where it came from. */
interface Located {
  record: ImportRecord;
  line: number;
  end: Position;
  header?: string[];
}

const firstByte = async (part: Part): Promise<number | undefined> => {
  for await (const chunk of part.open(0).chunks) {
    for (const b of chunk) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf) return b;
  }
  return undefined;
};

/** Strips a UTF-8 byte-order mark from the first header cell (spreadsheets write one). */
const header = (fields: string[]) => fields.map((f, i) => (i === 0 ? f.replace(/^\ufeff/, '') : f).trim());

/** The record of one line of JSON, mapped by the format. */
function jsonRecord(format: ImportFormat, text: string): ImportRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'refuse', reason: 'the line is not valid JSON' };
  }
  if (format === 'amplitude') return amplitudeRecord(value);
  if (format === 'posthog') return posthogRecord(value);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { kind: 'stored', record: value } : { kind: 'refuse', reason: 'a line must be a JSON object' };
}

/** The records of one part from `start`, mapped by the format, those of each chunk read together. */
async function* recordsOf(part: Part, format: ImportFormat, start: Position, savedHeader: string[] | undefined, map: string[], chunks: AsyncIterable<Buffer>): AsyncIterable<Located[]> {
  const json = format === 'ndjson' || format === 'amplitude' || (format === 'posthog' && (await firstByte(part)) === 0x7b);
  if (json) {
    for await (const lines of jsonLines(chunks, start)) {
      yield lines.map((l) => ({
        record: l.tooLong ? { kind: 'refuse', reason: 'the line is longer than 1 MiB' } : jsonRecord(format, l.text),
        line: l.line,
        end: l.end,
      }));
    }
    return;
  }
  let names = savedHeader;
  const targets = format === 'csv' && names ? targetsOf(names, parseMappings(map)) : undefined;
  let csvTargets = targets;
  for await (const records of csvRecords(chunks, start)) {
    const out: Located[] = [];
    for (const r of records) {
      if (!names) {
        names = header(r.fields);
        if (format === 'csv') csvTargets = targetsOf(names, parseMappings(map));
        out.push({ record: { kind: 'skip' }, line: r.line, end: r.end, header: names });
        continue;
      }
      const record: ImportRecord = r.defect
        ? { kind: 'refuse', reason: `malformed CSV: ${r.defect}` }
        : format === 'posthog'
          ? posthogRecord(posthogCsvRow(names, r.fields))
          : csvRecord(csvTargets!, r.fields);
      out.push({ record, line: r.line, end: r.end, header: names });
    }
    yield out;
  }
}

/** Links and traits of a batch, applied once each per import. */
class IdentityWork {
  /** The links added, by the id linked (a map of sets: no key text made per event). */
  private readonly linked = new Map<string, Set<string>>();
  private readonly traitsSeen = new Map<string, string>();
  private links: Array<{ from: string; to: string }> = [];
  private traits: Traits[] = [];

  add(link: { from: string; to: string } | undefined, traits: Traits | undefined): void {
    if (link) {
      let targets = this.linked.get(link.from);
      if (!targets) this.linked.set(link.from, (targets = new Set()));
      if (!targets.has(link.to)) {
        targets.add(link.to);
        this.links.push(link);
      }
    }
    if (traits) {
      const text = JSON.stringify([traits.set ?? null, traits.setOnce ?? null]);
      if (this.traitsSeen.get(traits.userId) !== text) {
        this.traitsSeen.set(traits.userId, text);
        this.traits.push(traits);
      }
    }
  }

  /** The links and traits added since the last take, to apply once their batch is stored. */
  take(): { links: Array<{ from: string; to: string }>; traits: Traits[] } {
    const taken = { links: this.links, traits: this.traits };
    this.links = [];
    this.traits = [];
    return taken;
  }

  static async apply(services: Services, projectId: number, work: { links: Array<{ from: string; to: string }>; traits: Traits[] }): Promise<void> {
    const links = work.links;
    const updates: TraitsUpdate[] = [];
    for (const t of work.traits) {
      for (const [value, once] of [
        [t.set, false],
        [t.setOnce, true],
      ] as const) {
        if (!value || Object.keys(value).length === 0 || sizeDefect('traits', value, TRAITS_MAX_BYTES)) continue;
        updates.push({ userId: t.userId, traits: value, once });
      }
    }
    await applyIdentities(services, projectId, links, updates);
  }
}

/** The job handler: imports the files from the saved checkpoint on; answers the counts. */
export async function runImport(services: Services, job: Job): Promise<unknown> {
  const t = transferRow(services.meta, job.id);
  if (!t) throw new Error(`import ${job.id} has no details`);
  if (t.cancel_requested === 1) return { cancelled: true };
  const options = JSON.parse(t.options) as ImportOptions;
  const projectId = t.project_id;
  const ctx: RowContext = { projectId, importedAt: new Date(t.created_at), keptParams: ingestPolicy(services.meta, projectId).keptParams };
  const cp: Checkpoint = t.checkpoint ? (JSON.parse(t.checkpoint) as Checkpoint) : { file: 0, part: 0, offset: 0, line: 1 };
  const counts: Counts = { lines: t.lines, stored: t.stored, duplicates: t.duplicates, rejected: t.rejected };
  const identity = new IdentityWork();
  const keyOf = distinctKeys(DISTINCT_KEYS_HELD);
  let doneBytes = 0;
  for (let f = 0; f < cp.file; f++) doneBytes += fileSize(options.files[f]!.path);

  for (let f = cp.file; f < options.files.length; f++) {
    const file = options.files[f]!;
    if (!existsSync(file.path)) throw new Error(`the file ${file.name} is gone`);
    const parts = partsOf(file.path);
    for (let p = f === cp.file ? cp.part : 0; p < parts.length; p++) {
      const part = parts[p]!;
      const resume = f === cp.file && p === cp.part;
      const start: Position = resume ? { offset: cp.offset, line: cp.line } : { offset: 0, line: 1 };
      const where = part.entry ? `${file.name}:${part.name}` : file.name;
      const opened = part.open(start.offset);
      let rows: EventRow[] = [];
      let rejections: Rejection[] = [];
      // What the batch being read adds to the counts; `counts` holds those of the batches stored.
      let lines = 0;
      let rejected = 0;
      let position = start;
      let head = resume ? cp.header : undefined;
      let storing: Promise<void> | undefined;
      /** Stores one batch, then saves its checkpoint and counts (its records and nothing beyond). */
      const store = async (
        batch: { rows: EventRow[]; rejections: Rejection[]; lines: number; rejected: number; checkpoint: Checkpoint; doneBytes: number },
        work: ReturnType<IdentityWork['take']>,
      ) => {
        const result = await storeImported(services, projectId, batch.rows, keyOf);
        await IdentityWork.apply(services, projectId, work);
        counts.lines += batch.lines;
        counts.rejected += batch.rejected;
        counts.stored += result.stored;
        counts.duplicates += result.duplicates;
        keepRejections(services.meta, job.id, batch.rejections);
        saveProgress(services, job.id, { done_bytes: batch.doneBytes, ...counts, checkpoint: batch.checkpoint });
        if (cancelRequested(services.meta, job.id)) throw new ImportCancelledError();
      };
      /** Hands the batch read so far to storing once the one before it is stored, and reads on meanwhile. */
      const flush = async () => {
        const checkpoint: Checkpoint = { file: f, part: p, offset: position.offset, line: position.line, ...(head ? { header: head } : {}) };
        const batch = { rows, rejections, lines, rejected, checkpoint, doneBytes: doneBytes + Math.min(part.sourceBytes, opened.sourceRead()) };
        const work = identity.take();
        rows = [];
        rejections = [];
        lines = 0;
        rejected = 0;
        await storing;
        storing = store(batch, work);
        // Awaited at the next batch or the part's end; a failure meanwhile is not unhandled.
        storing.catch(() => undefined);
      };
      try {
        for await (const chunk of recordsOf(part, options.format, start, head, options.map, opened.chunks)) {
          for (const located of chunk) {
            position = located.end;
            head = located.header;
            const r = located.record;
            if (r.kind === 'skip') continue;
            lines += 1;
            if (r.kind === 'refuse') {
              rejected += 1;
              rejections.push({ file: where, line: located.line, reason: r.reason });
            } else if (r.kind === 'link') {
              identity.add({ from: r.from, to: r.to }, r.traits);
            } else {
              const made = rowOf(r, ctx);
              if ('reason' in made) {
                rejected += 1;
                rejections.push({ file: where, line: located.line, reason: made.reason });
              } else {
                rows.push(made.row);
                if (r.kind === 'event') identity.add(r.link, r.traits);
              }
            }
            if (rows.length >= IMPORT_BATCH_ROWS || rejections.length >= IMPORT_BATCH_ROWS) await flush();
          }
        }
        await flush();
        await storing;
      } catch (err) {
        // A batch being stored ends (or fails) before the job does.
        await storing?.catch(() => undefined);
        throw err;
      }
      doneBytes += part.sourceBytes;
      // The part is done: a resume starts at the next one.
      saveProgress(services, job.id, { done_bytes: doneBytes, ...counts, checkpoint: { file: f, part: p + 1, offset: 0, line: 1 } });
    }
  }
  saveProgress(services, job.id, { done_bytes: t.total_bytes, ...counts, checkpoint: { file: options.files.length, part: 0, offset: 0, line: 1 } });
  // An uploaded file is the import's own copy: done with, it goes (a local file of ppctl's stays).
  const uploads = options.files.filter((file) => path.dirname(file.path) === uploadDir(services));
  for (const file of uploads) rmSync(file.path, { force: true });
  if (uploads.length > 0) services.meta.prepare('UPDATE transfer_jobs SET file_removed_at = ? WHERE job_id = ?').run(services.clock.now().toISOString(), job.id);
  return counts;
}

function fileSize(file: string): number {
  try {
    return partsOf(file).reduce((n, p) => n + p.sourceBytes, 0);
  } catch {
    return 0;
  }
}
