// Every piece of background work of a running server, in one list: started by start.ts once the app
// is assembled (mounting routes starts nothing), each stopping through the shutdown hook it
// registers, so they stop in the reverse of this order before the stores close. Commands that open
// the stores without a server (ppctl) start none of them.

import type { Services } from './http/services.js';
import { jobRunner } from './store/jobs.js';
import { ingestWriter } from './ingest/groupWriter.js';
import { actorDayFolder } from './engine/rollups/actorDayFolder.js';
import { startMailWorker } from './mail/mailWorker.js';
import { startSmsWorker } from './sms/smsWorker.js';
import { startTrialReminders } from './billing/trialReminders.js';
import { resumeDeletions, RULE_SYNC } from './labeled/rules.js';
import { syncRule } from './labeled/sync.js';
import { FORM_PURGE, purgeFormEvents } from './behavior/formPurge.js';
import { REPLAY_SWEEP, startReplaySweeps, sweepRecordings } from './replay/replayRetention.js';

export interface Worker {
  name: string;
  start(services: Services): void;
}

export const WORKERS: readonly Worker[] = [
  {
    // Built ahead of the first request (it reads up to half its capacity of rows); a failure leaves
    // it to the first group, which then reports it.
    name: 'ingest duplicate filter',
    start: (s) => void ingestWriter(s).prepare().catch((err: unknown) => s.log.warn({ err }, 'duplicate filter not built at start')),
  },
  { name: 'actor-day rollups', start: (s) => void actorDayFolder(s) },
  {
    name: 'jobs',
    start: (s) => {
      const jobs = jobRunner(s);
      jobs.register(RULE_SYNC, (job) => syncRule(s, job));
      jobs.register(FORM_PURGE, (job) => purgeFormEvents(s, job));
      jobs.register(REPLAY_SWEEP, () => sweepRecordings(s));
    },
  },
  // Rules left deleting by a stopped server are queued again.
  { name: 'labeled rule deletions', start: resumeDeletions },
  { name: 'recordings sweep', start: startReplaySweeps },
  { name: 'mail outbox', start: (s) => void startMailWorker(s) },
  { name: 'text-message outbox', start: (s) => void startSmsWorker(s) },
  { name: 'trial reminders', start: startTrialReminders },
];

export function startWorkers(services: Services, workers: readonly Worker[] = WORKERS): void {
  for (const w of workers) w.start(services);
}
