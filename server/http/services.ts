// What every domain receives: settings, clock, logger, the metadata store and the event engine, the
// rate limiter, the server secret, and the long-lived parts of a running installation (the ingest
// writer, the event bus, caches, the background workers). Built in one place, openServices.ts
// (by start.ts, or by a CLI command working without a server); workers.ts starts and stops the workers.

import type { Clock } from '../ground/clock.js';
import type { Config } from '../ground/config.js';
import type { Logger } from '../ground/logger.js';
import type { RecentLogLines } from '../ground/recentLogLines.js';
import type { RateLimiter } from './rateLimit.js';
import type { EventEngine } from '../engine/engine.js';
import type { MetaDb } from '../store/sqlite.js';
import type { Entitlement } from '../../license/entitlements.js';
import type { LicenseManager } from '../access/licenseManager.js';
import type { GroupWriter } from '../ingest/groupWriter.js';
import type { EventBus } from '../ingest/eventBus.js';
import type { ResultCache } from '../queries/resultCache.js';
import type { ActiveRulesCache } from '../labeled/rules.js';
import type { JobRunner } from '../store/jobs.js';
import type { ActorDayFolder } from '../engine/rollups/actorDayFolder.js';
import type { MailWorker } from '../mail/mailWorker.js';
import type { SmsWorker } from '../sms/smsWorker.js';

/** The background workers: made with the services, started (and stopped) only by workers.ts in a running server. */
export interface Workers {
  jobs: JobRunner;
  actorDays: ActorDayFolder;
  mail: MailWorker;
  sms: SmsWorker;
}

export interface Services {
  config: Config;
  clock: Clock;
  log: Logger;
  /** The last lines `log` wrote, for `ppctl logs` (empty when the logger was handed in). */
  recentLogs: RecentLogLines;
  version: string;
  meta: MetaDb;
  events: EventEngine;
  /** Loads acknowledged events into the engine (opened with the services). */
  ingest: GroupWriter;
  /** Hands stored events to the live streams. */
  bus: EventBus;
  /** Answers of analytical queries by what they depend on (the query routes and saved insights share it). */
  results: ResultCache;
  /** Live event streams open per user id. */
  streams: Map<number, number>;
  /** The active labeled-event rules, read again after each change of rules. */
  labeledRules: ActiveRulesCache;
  /** Password-reset requests accepted but not yet handled; shutdown waits for them. */
  resetRequests: Set<Promise<void>>;
  workers: Workers;
  limiter: RateLimiter;
  /** 32 bytes from which signing and encryption keys are derived (see server/auth/keys). */
  secret: Buffer;
  /** Entitlements granted by the verified license right now (empty without one). */
  entitlements(): ReadonlySet<Entitlement>;
  license: LicenseManager;
  /**
   * Whether events acknowledged before the last stop are still being loaded from the ingest
   * journal (the server listens meanwhile, and answers not ready).
   */
  replaying(): boolean;
  /** Work to finish before the stores close (pending ingest flushes, background jobs). */
  onShutdown(hook: () => Promise<void> | void): void;
}
