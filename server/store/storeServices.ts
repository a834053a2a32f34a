// The parts of a running server that the store and engine floors use: settings, clock, logger,
// both stores and the shutdown hook. Services (server/http/services.ts) holds all of them, so code on
// these floors takes one without importing a floor above.

import type { Clock } from '../ground/clock.js';
import type { Config } from '../ground/config.js';
import type { Logger } from '../ground/logger.js';
import type { EventEngine } from '../engine/engine.js';
import type { MetaDb } from './sqlite.js';

export interface StoreServices {
  config: Config;
  clock: Clock;
  log: Logger;
  meta: MetaDb;
  events: EventEngine;
  /** Work to finish before the stores close. */
  onShutdown(hook: () => Promise<void> | void): void;
}
