// The admin commands behind `ppctl import` and `ppctl export`, run by a server over the admin socket
// or by ppctl itself when no server holds the data files (transferCli.ts).

import path from 'node:path';
import type { Services } from '../http/services.js';
import { getProject } from '../accounts/projects.js';
import { AppError } from '../ground/errors.js';
import { startExport, startImport } from './startTransfer.js';
import { requestCancel, transferRow } from './transferJobs.js';
import { presentExport, presentImport } from './presentTransfer.js';
import { exportFile, type ExportOptions } from './exportJob.js';
import type { ImportFormat } from './importJob.js';

/** A refusal meant for the operator (the admin socket prints its message). */
export class TransferCommandError extends Error {}

function project(services: Services, raw: unknown): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || !getProject(services.meta, id)) throw new TransferCommandError(`project ${String(raw)} does not exist`);
  return id;
}

function refused<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof AppError) throw new TransferCommandError(err.message);
    throw err;
  }
}

export function importStart(services: Services, args: Record<string, unknown>): { id: number; resumed: boolean } {
  const projectId = project(services, args.project_id);
  const files = (Array.isArray(args.files) ? args.files : []).map((f) => ({ path: path.resolve(String(f)), name: path.basename(String(f)) }));
  const map = Array.isArray(args.map) ? args.map.map(String) : [];
  return refused(() => startImport(services, { projectId, userId: null, format: String(args.format) as ImportFormat, files, map }));
}

export function importStatus(services: Services, args: Record<string, unknown>): unknown {
  const row = transferRow(services.meta, Number(args.id));
  if (row?.direction !== 'import') throw new TransferCommandError(`import ${String(args.id)} does not exist`);
  return presentImport(services, row);
}

export function importCancel(services: Services, args: Record<string, unknown>): unknown {
  importStatus(services, args);
  requestCancel(services, Number(args.id));
  return importStatus(services, args);
}

export function exportStart(services: Services, args: Record<string, unknown>): { id: number } {
  const projectId = project(services, args.project_id);
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return { id: refused(() => startExport(services, projectId, null, { format: text(args.format), from: text(args.from), to: text(args.to) })) };
}

export function exportStatus(services: Services, args: Record<string, unknown>): unknown {
  const row = transferRow(services.meta, Number(args.id));
  if (row?.direction !== 'export') throw new TransferCommandError(`export ${String(args.id)} does not exist`);
  const options = JSON.parse(row.options) as ExportOptions;
  return { ...presentExport(services, row), file: exportFile(services, row.job_id, options.format) };
}
