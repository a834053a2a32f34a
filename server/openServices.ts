// Opens an installation's data directory: both stores migrated, the secret loaded, what the ingest
// journal holds loaded (by the server in the background), and every long-lived part of the
// installation made (the one place they are made; workers.ts starts the background ones). Used by
// the server at start and by CLI commands that run while no server holds the files.

import path from 'node:path';
import type { Config } from './ground/config.js';
import { systemClock, type Clock } from './ground/clock.js';
import { createLogger, type Logger } from './ground/logger.js';
import { RecentLogLines } from './ground/recentLogLines.js';
import { RateLimiter } from './http/rateLimit.js';
import { packageVersion } from './ground/packageRoot.js';
import type { Services } from './http/services.js';
import { DuckDbEngine } from './engine/duckdb/duckDbEngine.js';
import { ClickHouseEngine } from './engine/clickhouse/clickHouseEngine.js';
import type { EventEngine } from './engine/engine.js';
import { migrateMeta, type Migration } from './store/migrate.js';
import { migrateEvents } from './engine/duckdb/migrations.js';
import { loadSecret } from './ground/secret.js';
import { openMetaDb } from './store/sqlite.js';
import { prepareDataDir } from './store/dataDir.js';
import { LicenseManager } from './access/licenseManager.js';
import { createIngestWriter, openIngestWriter } from './ingest/groupWriter.js';
import { deriveStored } from './labeled/derive.js';
import { EventBus } from './ingest/eventBus.js';
import { ResultCache } from './queries/resultCache.js';
import { ActiveRulesCache } from './labeled/rules.js';
import { JobRunner } from './store/jobs.js';
import { ActorDayFolder } from './engine/rollups/actorDayFolder.js';
import { createMailWorker } from './mail/mailWorker.js';
import { createSmsWorker } from './sms/smsWorker.js';

export interface OpenOptions {
  clock?: Clock;
  log?: Logger;
  /**
   * Whether the journal's batches a stopped process acknowledged are loaded before this returns
   * (the default, for commands that read the data next) or in the background (the server).
   */
  replay?: 'wait' | 'background';
  /** The terminal shows only where the server listens, warnings and errors (a demo start prints its own short block). */
  quietTerminal?: boolean;
}

export interface OpenedServices {
  services: Services;
  /** Migrations applied at this start: the metadata store's and the event engine's (`events.engine`). */
  applied: { sqlite: Migration[]; events: Migration[] };
  /** Runs shutdown hooks, then closes both stores. */
  close(): Promise<void>;
}

export async function openServices(config: Config, options: OpenOptions = {}): Promise<OpenedServices> {
  prepareDataDir(config.data_dir);
  const clock = options.clock ?? systemClock;
  const recentLogs = new RecentLogLines();
  const log = options.log ?? createLogger(config.log_level, undefined, recentLogs, options.quietTerminal);
  const meta = openMetaDb(path.join(config.data_dir, 'meta.sqlite'));
  let events: EventEngine | undefined;
  try {
    const sqlite = migrateMeta(meta, undefined, clock.now());
    let applied: Migration[];
    if (config.events.engine === 'clickhouse') {
      ({ engine: events, applied } = await ClickHouseEngine.open(config.clickhouse, clock.now()));
    } else {
      const duckdb = await DuckDbEngine.open(path.join(config.data_dir, 'events.duckdb'), {
        memoryLimitMb: config.events.memory_limit_mb,
        tempDirectory: path.join(config.data_dir, 'events.tmp'),
      });
      events = duckdb;
      applied = await migrateEvents(duckdb, undefined, clock.now());
    }
    const hooks: Array<() => Promise<void> | void> = [];
    const license = new LicenseManager(meta, clock, log, config);
    await license.load(await events.newestReceipt());
    // The parts that need the services they belong to are added just below, before anything runs.
    const services = {
      config,
      clock,
      log,
      recentLogs,
      version: packageVersion(),
      meta,
      events,
      limiter: new RateLimiter(clock),
      secret: loadSecret(config.data_dir, config.secret),
      entitlements: () => license.entitlements(),
      license,
      replaying: () => false,
      onShutdown: (hook: () => Promise<void> | void) => void hooks.push(hook),
      bus: new EventBus(log),
      results: new ResultCache(config.query_cache_mb * 1024 * 1024),
      streams: new Map<number, number>(),
      labeledRules: new ActiveRulesCache(meta),
      resetRequests: new Set<Promise<void>>(),
    } as Omit<Services, 'ingest' | 'workers'> as Services;
    services.workers = { jobs: new JobRunner(services), actorDays: new ActorDayFolder(services), mail: createMailWorker(services), sms: createSmsWorker(services) };
    // Labeled events are derived as events are stored, from the first journaled batch loaded on.
    const writer = createIngestWriter(services, (stored) => deriveStored(services, stored));
    services.ingest = writer;
    // Password resets accepted are handled before anything else stops.
    services.onShutdown(async () => {
      await Promise.all(services.resetRequests);
    });
    await openIngestWriter(services, writer, options.replay);
    services.replaying = () => writer.replaying;
    let closed = false;
    const store = events;
    return {
      services,
      applied: { sqlite, events: applied },
      async close() {
        if (closed) return;
        closed = true;
        for (const hook of hooks.reverse()) {
          try {
            await hook();
          } catch (err) {
            log.error({ err }, 'shutdown hook failed');
          }
        }
        await store.checkpoint().catch((err: unknown) => log.warn({ err }, 'checkpoint at shutdown failed'));
        await store.close();
        meta.close();
      },
    };
  } catch (err) {
    await events?.close();
    meta.close();
    throw err;
  }
}
