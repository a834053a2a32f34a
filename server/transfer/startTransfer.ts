// Starting an import or an export: the checks both the API and ppctl go through, and the upload of
// an import's file into the data folder (streamed to disk, never held in memory).

import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { Request } from 'express';
import type { Services } from '../http/services.js';
import { PayloadTooLargeError, ValidationError } from '../ground/errors.js';
import { parseMappings } from './csvImport.js';
import { IMPORT_FORMATS, uploadDir, type ImportFormat, type ImportOptions } from './importJob.js';
import { EXPORT_FORMATS, type ExportFormat, type ExportOptions } from './exportJob.js';
import { createTransfer, unfinishedImport } from './transferJobs.js';
import { statementsOf } from '../engine/statements.js';

/** The largest file the API takes in one upload (ppctl reads local files of any size). */
export const UPLOAD_MAX_BYTES = 4 * 1024 ** 3;

/**
 * Streams the request body to a new file in the data folder; answers its path and size. The name
 * holds when it was received, which the sweep reads (transferSweep.ts).
 */
export async function saveUpload(services: Services, req: Request, limit = UPLOAD_MAX_BYTES): Promise<{ path: string; bytes: number }> {
  mkdirSync(uploadDir(services), { recursive: true, mode: 0o700 });
  const file = path.join(uploadDir(services), `upload-${services.clock.now().getTime()}-${randomBytes(6).toString('hex')}`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limit) done(new PayloadTooLargeError(limit));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, counter, createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    rmSync(file, { force: true });
    throw err;
  }
  if (bytes === 0) {
    rmSync(file, { force: true });
    throw new ValidationError('the upload is empty: send the file as the request body', [{ field: 'body', message: 'is empty' }]);
  }
  return { path: file, bytes };
}

export interface ImportRequest {
  projectId: number;
  userId: number | null;
  format: ImportFormat;
  files: Array<{ path: string; name: string }>;
  map: string[];
}

/** Checks the request and queues the import; the same import left unfinished is resumed instead. */
/** The format and mappings of an import, checked before anything is read or saved. */
export function checkImport(format: string, map: readonly string[]): void {
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw new ValidationError(`format must be one of ${IMPORT_FORMATS.join(', ')}`, [{ field: 'format', message: 'unknown format' }]);
  if (map.length > 0 && format !== 'csv') throw new ValidationError('column mappings apply to the csv format only', [{ field: 'map', message: 'csv only' }]);
  parseMappings(map);
}

export function startImport(services: Services, r: ImportRequest): { id: number; resumed: boolean } {
  checkImport(r.format, r.map);
  if (r.files.length === 0) throw new ValidationError('name at least one file', [{ field: 'files', message: 'is empty' }]);
  let total = 0;
  for (const f of r.files) {
    if (!existsSync(f.path) || !statSync(f.path).isFile()) throw new ValidationError(`${f.name} is not a readable file`, [{ field: 'files', message: `${f.name} not found` }]);
    total += statSync(f.path).size;
  }
  const options: ImportOptions = { format: r.format, files: r.files, map: r.map };
  const open = unfinishedImport(services.meta, r.projectId, options);
  if (open) return { id: open.job_id, resumed: true };
  return { id: createTransfer(services, r.projectId, 'import', r.userId, options, total), resumed: false };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function startExport(services: Services, projectId: number, userId: number | null, body: { format?: string; from?: string | null; to?: string | null }): number {
  const format = (body.format ?? 'ndjson') as ExportFormat;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new ValidationError(`format must be one of ${EXPORT_FORMATS.join(', ')}`, [{ field: 'format', message: 'unknown format' }]);
  for (const field of ['from', 'to'] as const) {
    const v = body[field];
    if (v !== undefined && v !== null && (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))) {
      throw new ValidationError(`${field} must be a date (YYYY-MM-DD)`, [{ field, message: 'must be a date' }]);
    }
  }
  if (body.from && body.to && body.from > body.to) throw new ValidationError(`from (${body.from}) is after to (${body.to})`, [{ field: 'from', message: 'is after to' }]);
  const options: ExportOptions = { format, from: body.from ?? null, to: body.to ?? null };
  // Built once here, unused: an engine without exports answers 501 engine_unsupported before any job is made.
  statementsOf(services.events).transfer.exportPlan({ projectId, timezone: 'UTC', from: options.from, to: options.to, format, file: 'unused' });
  return createTransfer(services, projectId, 'export', userId, options);
}
