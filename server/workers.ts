// Every piece of background work of a running server, in one list: started by start.ts once the app
// is assembled (mounting routes starts nothing), stopped in the reverse of this order through the
// shutdown hook registered as each starts, before the stores close. The workers themselves are
// made with the services (openServices.ts); commands that open the stores without a server
// (ppctl) start none of them, so what they queue waits for the next server.

import type { Services } from './http/services.js';
import type { EngineKind } from './engine/engine.js';
import { ingestWriter } from './ingest/groupWriter.js';
import { startTrialReminders } from './billing/trialReminders.js';
import { resumeDeletions, RULE_SYNC } from './labeled/rules.js';
import { syncRule } from './labeled/sync.js';
import { FORM_PURGE, purgeFormEvents } from './behavior/formPurge.js';
import { PERSON_DELETION, deletePerson } from './persons/personDeletion.js';
import { startReplaySweeps, sweepRecordings } from './replay/replayRetention.js';
import { REPLAY_SWEEP } from './store/replaySweep.js';
import { registerTransferJobs } from './transfer/transferWorkers.js';
import { startTransferSweeps } from './transfer/transferSweep.js';

export interface Worker {
  name: string;
  /** The event engines it runs on (all when unset): work over tables only one engine has. */
  engines?: readonly EngineKind[];
  start(services: Services): void;
}

export const WORKERS: readonly Worker[] = [
  {
    // Built ahead of the first request (it reads up to half its capacity of rows); a failure leaves
    // it to the first group, which then reports it.
    name: 'ingest duplicate filter',
    start: (s) =>
      void ingestWriter(s)
        .prepare()
        .catch((err: unknown) => s.log.warn({ err }, 'duplicate filter not built at start')),
  },
  {
    name: 'actor-day rollups',
    engines: ['duckdb'],
    start: (s) => {
      s.onShutdown(() => s.workers.actorDays.stop());
      s.workers.actorDays.start();
    },
  },
  {
    name: 'jobs',
    start: (s) => {
      const jobs = s.workers.jobs;
      s.onShutdown(() => jobs.stop());
      jobs.register(RULE_SYNC, (job) => syncRule(s, job));
      jobs.register(FORM_PURGE, (job) => purgeFormEvents(s, job));
      jobs.register(REPLAY_SWEEP, () => sweepRecordings(s));
      jobs.register(PERSON_DELETION, (job) => deletePerson(s, job));
      registerTransferJobs(s, jobs);
      jobs.start();
    },
  },
  // Rules left deleting by a stopped server are queued again.
  { name: 'labeled rule deletions', start: resumeDeletions },
  { name: 'recordings sweep', start: startReplaySweeps },
  { name: 'transfer files sweep', start: startTransferSweeps },
  {
    name: 'mail outbox',
    start: (s) => {
      s.onShutdown(() => s.workers.mail.stop());
      s.workers.mail.start();
    },
  },
  {
    name: 'text-message outbox',
    start: (s) => {
      s.onShutdown(() => s.workers.sms.stop());
      s.workers.sms.start();
    },
  },
  { name: 'trial reminders', start: startTrialReminders },
];

export function startWorkers(services: Services, workers: readonly Worker[] = WORKERS): void {
  for (const w of workers) if (!w.engines || w.engines.includes(services.events.kind)) w.start(services);
}
