// `ppctl migrate`: applies this release's pending migrations to a stopped installation. An upgrade
// runs it with the new release's code before switching over; a running server migrated at its start.

import type { Config } from '../server/ground/config.js';
import { openServices } from '../server/openServices.js';
import { createLogger } from '../server/ground/logger.js';
import { InstallerError } from './installation.js';
import { runningServerStatus } from './runningServer.js';

export async function migrateData(config: Config): Promise<string[]> {
  const running = await runningServerStatus(config);
  if (running) throw new InstallerError(`pp ${running.version} is running on ${config.data_dir} (pid ${running.pid}); it applied its migrations at start. Stop it to migrate with another release.`);
  const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
  await opened.close();
  return [...opened.applied.sqlite.map((m) => `sqlite/${m.file}`), ...opened.applied.events.map((m) => `${opened.services.config.events.engine}/${m.file}`)];
}
