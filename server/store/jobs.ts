// Background jobs kept in the metadata store (the jobs table), so that work queued or running when
// the server stops is done once it starts again. A domain registers a handler for its kind and
// queues jobs; the runner takes the oldest queued job of a registered kind, one at a time, right
// after a job is queued and every few seconds. A job a stopped process left running is queued again
// at start, so a handler must be safe to run twice. What a job does, and its details, are its
// domain's.

import type { Services } from '../services.js';
import type { MetaDb } from './sqlite.js';

const POLL_MS = 3_000;
/** How much of a failure's message a job keeps. */
const ERROR_CHARS = 500;

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface Job {
  id: number;
  kind: string;
  project_id: number | null;
  state: JobState;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  error: string | null;
  result: unknown;
}

/** Does the work of one job; what it resolves to is kept as the job's result (JSON), a throw fails it. */
export type JobHandler = (job: Job) => Promise<unknown>;

type JobRow = Omit<Job, 'result'> & { result: string | null };

const COLUMNS = 'id, kind, project_id, state, created_at, started_at, finished_at, attempts, error, result';

/** Queues a job, inside the caller's transaction if one is open; `kickJobs` once it is committed. */
export function queueJob(meta: MetaDb, kind: string, projectId: number | null, now: Date): number {
  const run = meta.prepare("INSERT INTO jobs (kind, project_id, state, created_at) VALUES (?, ?, 'queued', ?)").run(kind, projectId, now.toISOString());
  return Number(run.lastInsertRowid);
}

export function getJob(meta: MetaDb, id: number): Job | undefined {
  const row = meta.prepare(`SELECT ${COLUMNS} FROM jobs WHERE id = ?`).get(id) as JobRow | undefined;
  return row && jobOf(row);
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly services: Services) {
    const requeued = services.meta.prepare("UPDATE jobs SET state = 'queued' WHERE state = 'running'").run().changes;
    if (requeued > 0) services.log.info({ jobs: requeued }, 'jobs left running by the last stop are queued again');
    this.timer = setInterval(() => void this.kick(), POLL_MS);
    this.timer.unref();
  }

  /**
   * Runs jobs of `kind` with `handler` from now on, starting with those already queued. Registering
   * a kind again (an app built twice on the same services) replaces its handler.
   */
  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
    void this.kick();
  }

  /** Runs the queued jobs now (or right after the current pass) and resolves when none is left. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        for (let job = this.claim(); job; job = this.stopped ? undefined : this.claim()) await this.run(job);
      } while (this.again && !this.stopped);
    })().catch((err: unknown) => this.services.log.error({ err }, 'job runner pass failed')).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Lets the job in progress finish; queued jobs wait for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** The oldest queued job of a registered kind, marked running. */
  private claim(): Job | undefined {
    if (this.handlers.size === 0) return undefined;
    const row = this.services.meta
      .prepare(`UPDATE jobs SET state = 'running', started_at = ?, attempts = attempts + 1
        WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1)
        RETURNING ${COLUMNS}`)
      .get(this.services.clock.now().toISOString(), JSON.stringify([...this.handlers.keys()])) as JobRow | undefined;
    return row && jobOf(row);
  }

  private async run(job: Job): Promise<void> {
    const { meta, clock, log } = this.services;
    try {
      const result = await this.handlers.get(job.kind)!(job);
      meta.prepare("UPDATE jobs SET state = 'succeeded', finished_at = ?, result = ?, error = NULL WHERE id = ?")
        .run(clock.now().toISOString(), result === undefined ? null : JSON.stringify(result), job.id);
      log.info({ job_id: job.id, kind: job.kind, result }, 'job succeeded');
    } catch (err) {
      // Cut short by the shutdown (the stores closing under it): done again at the next start.
      if (this.stopped) {
        meta.prepare("UPDATE jobs SET state = 'queued' WHERE id = ?").run(job.id);
        log.warn({ err, job_id: job.id, kind: job.kind }, 'job interrupted by the shutdown; queued again');
        return;
      }
      const message = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_CHARS);
      meta.prepare("UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?").run(clock.now().toISOString(), message, job.id);
      log.error({ err, job_id: job.id, kind: job.kind }, 'job failed');
    }
  }
}

function jobOf(row: JobRow): Job {
  return { ...row, result: row.result === null ? null : (JSON.parse(row.result) as unknown) };
}

const runners = new WeakMap<Services, JobRunner>();

/** The runner of a running server, started on first use and stopped (after its current job) at shutdown. */
export function jobRunner(services: Services): JobRunner {
  let runner = runners.get(services);
  if (!runner) {
    const r = new JobRunner(services);
    runners.set(services, r);
    services.onShutdown(() => r.stop());
    runner = r;
  }
  return runner;
}

/** Tells the runner that a job was queued; a no-op where no runner runs (CLI commands). */
export function kickJobs(services: Services): void {
  void runners.get(services)?.kick();
}
