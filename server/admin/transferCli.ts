// What `ppctl import` and `ppctl export` do: start the job through the running server's admin socket
// (the server reads the local files), or, with no server running, in this process with a job runner
// of its own; then follow it, drawing a progress bar with rate and ETA on a terminal and JSON
// progress lines otherwise (the jobs are server/transfer's). A killed import is resumed by running the same command again: the
// unfinished job is found and continues from its checkpoint.

import { copyFileSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../ground/config.js';
import { createLogger } from '../ground/logger.js';
import { openServices } from '../openServices.js';
import { adminCommand } from './adminCommands.js';
import { runAdminCommand } from './adminClient.js';
import { adminSocketPath } from './adminSocket.js';
import { jobRunner } from '../store/jobs.js';
import { registerTransferJobs } from '../transfer/transferWorkers.js';
import type { ImportJobView, ExportJobView } from '../transfer/presentTransfer.js';
import type { ImportFormat } from '../transfer/importJob.js';

const POLL_MS = 250;

export interface Output {
  json: boolean;
  /** Whether standard error is a terminal (then a progress bar is drawn there). */
  tty: boolean;
  out(line: string): void;
  err(text: string): void;
}

interface Channel {
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

function socketAnswers(file: string): Promise<boolean> {
  if (!existsSync(file)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const s = net.connect(file);
    s.once('connect', () => {
      s.end();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** The running server, or this process holding the data files for the length of the command. */
async function channel(config: Config): Promise<Channel> {
  if (await socketAnswers(adminSocketPath(config.data_dir))) {
    return { call: async (name, args) => (await runAdminCommand(config, name, args)).result, close: async () => undefined };
  }
  const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
  // Only this command's job kinds run here: the runner of a stopped installation is started for them.
  const jobs = jobRunner(opened.services);
  registerTransferJobs(opened.services, jobs);
  jobs.start();
  return { call: (name, args) => adminCommand(name)!(opened.services, args), close: () => opened.close() };
}

/** The format a file is written in, from its first bytes, when --format is not given. */
export function detectFormat(file: string): ImportFormat {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(64 * 1024);
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  const head = buf.subarray(0, n);
  if (head[0] === 0x50 && head[1] === 0x4b) return 'amplitude';
  // PostHog's batch exports gzip their files; the other formats here are plain or zipped.
  if (head[0] === 0x1f && head[1] === 0x8b) return 'posthog';
  const text = head
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .trimStart();
  const firstLine = text.split('\n', 1)[0] ?? '';
  if (text.startsWith('{')) {
    if (firstLine.includes('"event_type"')) return 'amplitude';
    if (firstLine.includes('"received_at"') && firstLine.includes('"source"')) return 'ndjson';
    return 'posthog';
  }
  const columns = firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  if (columns.includes('properties') || columns.some((c) => c.startsWith('properties.'))) return 'posthog';
  return 'csv';
}

const human = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}G` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n)));
const duration = (s: number) =>
  !Number.isFinite(s) ? '?' : s >= 3600 ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${Math.round(s)}s`;

/** Rate and ETA from the bytes and events done since following began. */
class Meter {
  private readonly start = Date.now();
  private first: { bytes: number; events: number } | undefined;

  measure(job: ImportJobView): { eventsPerSecond: number; etaSeconds: number } {
    this.first ??= { bytes: job.done_bytes, events: job.stored + job.duplicates + job.rejected };
    const seconds = Math.max(0.001, (Date.now() - this.start) / 1000);
    const events = job.stored + job.duplicates + job.rejected - this.first.events;
    const bytesPerSecond = (job.done_bytes - this.first.bytes) / seconds;
    const left = Math.max(0, job.total_bytes - job.done_bytes);
    return { eventsPerSecond: events / seconds, etaSeconds: left === 0 ? 0 : bytesPerSecond > 0 ? left / bytesPerSecond : Infinity };
  }
}

function bar(job: ImportJobView, m: { eventsPerSecond: number; etaSeconds: number }): string {
  const share = job.total_bytes > 0 ? Math.min(1, job.done_bytes / job.total_bytes) : 0;
  const width = 28;
  const filled = Math.round(share * width);
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${human(job.stored)} stored  ${human(job.rejected)} refused  ${human(m.eventsPerSecond)} events/s  ETA ${duration(m.etaSeconds)}  `;
}

const finished = (state: string) => state === 'succeeded' || state === 'failed' || state === 'cancelled';

export interface ImportArgs {
  project: number;
  files: string[];
  format?: string;
  map: string[];
}

/** Runs `ppctl import`; answers the exit code (0 once the import succeeded, 1 otherwise). */
export async function importCommand(config: Config, args: ImportArgs, o: Output): Promise<number> {
  for (const f of args.files) if (!existsSync(f)) throw new Error(`${f} does not exist`);
  const format = args.format ?? detectFormat(args.files[0]!);
  const ch = await channel(config);
  try {
    const started = (await ch.call('import.start', { project_id: args.project, files: args.files.map((f) => path.resolve(f)), format, map: args.map })) as { id: number; resumed: boolean };
    if (!o.json) o.err(`${started.resumed ? 'resuming' : 'started'} import ${started.id} (${format}) of ${args.files.length} file(s)\n`);
    const meter = new Meter();
    let last = 0;
    for (;;) {
      const job = (await ch.call('import.status', { id: started.id })) as ImportJobView;
      const m = meter.measure(job);
      if (o.json) {
        if (finished(job.state) || Date.now() - last >= 1000) {
          last = Date.now();
          o.out(
            JSON.stringify({
              id: job.id,
              state: job.state,
              done_bytes: job.done_bytes,
              total_bytes: job.total_bytes,
              lines: job.lines,
              stored: job.stored,
              duplicates: job.duplicates,
              rejected: job.rejected,
              events_per_second: Math.round(m.eventsPerSecond),
              eta_seconds: Number.isFinite(m.etaSeconds) ? Math.round(m.etaSeconds) : null,
            }),
          );
        }
      } else if (o.tty) {
        o.err(bar(job, m));
      }
      if (finished(job.state)) {
        if (o.json) o.out(JSON.stringify(job));
        else {
          if (o.tty) o.err('\n');
          o.out(`import ${job.id} ${job.state}: ${job.stored} stored, ${job.duplicates} duplicates skipped, ${job.rejected} refused of ${job.lines} records`);
          for (const r of job.rejections) o.out(`  ${r.file} line ${r.line}: ${r.reason}`);
          if (job.rejected > job.rejections.length) o.out(`  … and ${job.rejected - job.rejections.length} more refused`);
          if (job.error) o.out(`  error: ${job.error}`);
        }
        return job.state === 'succeeded' ? 0 : 1;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await ch.close();
  }
}

export interface ExportArgs {
  project: number;
  format?: string;
  from?: string;
  to?: string;
  output?: string;
}

/** Runs `ppctl export`: waits for the job, then copies its file to --output. */
export async function exportCommand(config: Config, args: ExportArgs, o: Output): Promise<number> {
  const ch = await channel(config);
  try {
    const { id } = (await ch.call('export.start', { project_id: args.project, format: args.format, from: args.from, to: args.to })) as { id: number };
    for (;;) {
      const job = (await ch.call('export.status', { id })) as ExportJobView & { file: string };
      if (finished(job.state)) {
        if (job.state !== 'succeeded') {
          o.out(o.json ? JSON.stringify(job) : `export ${id} ${job.state}${job.error ? `: ${job.error}` : ''}`);
          return 1;
        }
        const output = path.resolve(args.output ?? `project-${args.project}-events.${job.format}`);
        copyFileSync(job.file, output);
        const { file: _file, ...shown } = job;
        o.out(o.json ? JSON.stringify({ ...shown, output }) : `exported ${job.events} events (${human(job.bytes ?? 0)}B) to ${output}`);
        return 0;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await ch.close();
  }
}
