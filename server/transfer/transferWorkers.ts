// The job kinds of imports and exports (and the sweep of their files), registered with the job runner (workers.ts at server start,
// ppctl when it imports without a server). An import may take hours: its budget is a day.

import type { Services } from '../http/services.js';
import type { JobRunner } from '../store/jobs.js';
import { runImport } from './importJob.js';
import { runExport } from './exportJob.js';
import { EXPORT_JOB, IMPORT_JOB } from './transferJobs.js';
import { TRANSFER_SWEEP, sweepTransfers } from './transferSweep.js';

export const TRANSFER_BUDGET_MS = 24 * 60 * 60_000;

export function registerTransferJobs(services: Services, jobs: JobRunner): void {
  jobs.register(IMPORT_JOB, (job) => runImport(services, job), { budgetMs: TRANSFER_BUDGET_MS });
  jobs.register(EXPORT_JOB, (job) => runExport(services, job), { budgetMs: TRANSFER_BUDGET_MS });
  jobs.register(TRANSFER_SWEEP, () => sweepTransfers(services));
}
