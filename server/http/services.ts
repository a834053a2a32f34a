// What every domain receives: settings, clock, logger, both stores, the rate limiter and the
// server secret. Built once by start.ts (or by a CLI command working without a server).

import type { Clock } from '../ground/clock.js';
import type { Config } from '../ground/config.js';
import type { Logger } from '../ground/logger.js';
import type { RecentLogLines } from '../ground/recentLogLines.js';
import type { RateLimiter } from './rateLimit.js';
import type { EventStore } from '../store/eventStore.js';
import type { MetaDb } from '../store/sqlite.js';
import type { Entitlement } from '../../license/entitlements.js';
import type { LicenseManager } from '../access/licenseManager.js';

export interface Services {
  config: Config;
  clock: Clock;
  log: Logger;
  /** The last lines `log` wrote, for `ppctl logs` (empty when the logger was handed in). */
  recentLogs: RecentLogLines;
  version: string;
  meta: MetaDb;
  events: EventStore;
  limiter: RateLimiter;
  /** 32 bytes from which signing and encryption keys are derived (see server/ground/secretKeys.ts). */
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
