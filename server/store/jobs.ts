// Background jobs kept in the metadata store (the jobs table), so that work queued or running when
// the server stops is done once it starts again. A domain registers a handler for its kind and
// queues jobs; the runner runs up to JOB_SLOTS jobs at once, at most one per organization (the
// oldest queued job of an organization with none running), so one organization's long job never
// holds everyone's. A job runs under a time budget: past it, its engine statements are interrupted
// and it fails with an error saying so. A job a stopped process left running is queued again at
// start, so a handler must be safe to run twice. What a job does, and its details, are its domain's.

import type { Clock } from '../ground/clock.js';
import type { Logger } from '../ground/logger.js';
import { underDeadline } from '../ground/deadline.js';
import type { MetaDb } from './sqlite.js';

/** What the job runner uses of the services (http/services.ts's Services, which holds the runner). */
export interface JobServices {
  meta: MetaDb;
  clock: Clock;
  log: Logger;
  workers: { jobs: JobRunner };
}

const POLL_MS = 3_000;
/** How much of a failure's message a job keeps. */
const ERROR_CHARS = 500;
/** Jobs running at once (the appliance's VM has two cores; a job mostly waits on the engine). */
export const JOB_SLOTS = 2;
/** How long a job may run before it is interrupted and failed, unless its kind says otherwise. */
export const JOB_BUDGET_MS = 5 * 60_000;

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

export interface JobKindOptions {
  /** The time budget of one run (default JOB_BUDGET_MS). */
  budgetMs?: number;
}

/** Why a job over its time budget was stopped. */
class JobBudgetError extends Error {
  constructor(budgetMs: number) {
    super(`the job ran over its time budget of ${formatBudget(budgetMs)} and was stopped; what it had not committed was rolled back`);
  }
}

class JobStoppedError extends Error {
  constructor() {
    super('the server is stopping');
  }
}

const formatBudget = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms} ms`);

/** What jobs are spread by: the job's organization, or the installation for a job of no project. */
type Owner = number | 'installation';

interface Running {
  owner: Owner;
  abort: AbortController;
  done: Promise<void>;
}

export class JobRunner {
  private readonly handlers = new Map<string, { handler: JobHandler; budgetMs: number }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Map<number, Running>();
  private idleWaiters: Array<() => void> = [];
  private started = false;
  private stopped = false;

  constructor(private readonly services: JobServices) {}

  /** Queues again the jobs the last stop left running, then runs jobs as they come (workers.ts). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const requeued = this.services.meta.prepare("UPDATE jobs SET state = 'queued' WHERE state = 'running'").run().changes;
    if (requeued > 0) this.services.log.info({ jobs: requeued }, 'jobs left running by the last stop are queued again');
    this.timer = setInterval(() => void this.kick(), POLL_MS);
    this.timer.unref();
    void this.kick();
  }

  /**
   * Runs jobs of `kind` with `handler` from now on, starting with those already queued. Registering
   * a kind again (an app built twice on the same services) replaces its handler.
   */
  register(kind: string, handler: JobHandler, options: JobKindOptions = {}): void {
    this.handlers.set(kind, { handler, budgetMs: options.budgetMs ?? JOB_BUDGET_MS });
    void this.kick();
  }

  /** Starts the queued jobs that may run now; resolves once no job runs (those started later included). */
  kick(): Promise<void> {
    if (!this.started || this.stopped) return Promise.resolve();
    for (let claimed = this.claim(); claimed; claimed = this.claim()) this.launch(claimed.job, claimed.owner);
    if (this.running.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops the running jobs (their engine statements interrupted, their transactions rolled back)
   * and queues them again for the next start, where the queued ones wait too.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const running = [...this.running.values()];
    for (const r of running) r.abort.abort(new JobStoppedError());
    await Promise.all(running.map((r) => r.done));
  }

  /** The oldest queued job of a registered kind whose organization has none running, marked running. */
  private claim(): { job: Job; owner: Owner } | undefined {
    if (this.handlers.size === 0 || this.running.size >= JOB_SLOTS) return undefined;
    const busy = [...this.running.values()].map((r) => r.owner);
    const row = this.services.meta
      .prepare(`UPDATE jobs SET state = 'running', started_at = ?, attempts = attempts + 1
        WHERE id = (SELECT j.id FROM jobs j LEFT JOIN projects p ON p.id = j.project_id
          WHERE j.state = 'queued' AND j.kind IN (SELECT value FROM json_each(?))
            AND coalesce(p.org_id, 'installation') NOT IN (SELECT value FROM json_each(?))
          ORDER BY j.id LIMIT 1)
        RETURNING ${COLUMNS}, (SELECT org_id FROM projects WHERE id = jobs.project_id) AS org_id`)
      .get(this.services.clock.now().toISOString(), JSON.stringify([...this.handlers.keys()]), JSON.stringify(busy)) as (JobRow & { org_id: number | null }) | undefined;
    if (!row) return undefined;
    const { org_id: orgId, ...job } = row;
    return { job: jobOf(job), owner: orgId ?? 'installation' };
  }

  private launch(job: Job, owner: Owner): void {
    const abort = new AbortController();
    const done = this.run(job, abort).finally(() => {
      this.running.delete(job.id);
      if (!this.stopped) void this.kick();
      if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
    this.running.set(job.id, { owner, abort, done });
  }

  private async run(job: Job, abort: AbortController): Promise<void> {
    const { meta, clock, log } = this.services;
    const { handler, budgetMs } = this.handlers.get(job.kind)!;
    const budget = setTimeout(() => abort.abort(new JobBudgetError(budgetMs)), budgetMs);
    try {
      const result = await underDeadline(abort.signal, () => Promise.race([handler(job), aborted(abort.signal)]));
      meta
        .prepare("UPDATE jobs SET state = 'succeeded', finished_at = ?, result = ?, error = NULL WHERE id = ?")
        .run(clock.now().toISOString(), result === undefined ? null : JSON.stringify(result), job.id);
      log.info({ job_id: job.id, kind: job.kind, result }, 'job succeeded');
    } catch (err) {
      const overBudget = abort.signal.reason instanceof JobBudgetError;
      // Cut short by the shutdown: done again at the next start.
      if (this.stopped && !overBudget) {
        meta.prepare("UPDATE jobs SET state = 'queued' WHERE id = ?").run(job.id);
        log.warn({ err, job_id: job.id, kind: job.kind }, 'job interrupted by the shutdown; queued again');
        return;
      }
      const cause: unknown = overBudget ? abort.signal.reason : err;
      const message = (cause instanceof Error ? cause.message : String(cause)).slice(0, ERROR_CHARS);
      meta.prepare("UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?").run(clock.now().toISOString(), message, job.id);
      log.error({ err, job_id: job.id, kind: job.kind, budget_ms: budgetMs }, 'job failed');
    } finally {
      clearTimeout(budget);
    }
  }
}

/**
 * Rejects with the signal's reason once it aborts, so a handler waiting on something other than
 * the engine (whose statements `underDeadline` interrupts) still gives its slot back.
 */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
}

function jobOf(row: JobRow): Job {
  return { ...row, result: row.result === null ? null : (JSON.parse(row.result) as unknown) };
}

/** The runner of these services (started by workers.ts in a running server). */
export function jobRunner(services: JobServices): JobRunner {
  return services.workers.jobs;
}

/** Queues a job of `kind` with no payload unless one is already waiting (a sweep, a refresh), and wakes the runner. */
export function queueOnce(services: JobServices, kind: string): void {
  const waiting = services.meta.prepare("SELECT 1 FROM jobs WHERE kind = ? AND state = 'queued'").get(kind);
  if (!waiting) queueJob(services.meta, kind, null, services.clock.now());
  kickJobs(services);
}

/** Tells the runner that a job was queued; a no-op where no runner runs (CLI commands). */
export function kickJobs(services: Pick<JobServices, 'workers'>): void {
  void services.workers.jobs.kick();
}
