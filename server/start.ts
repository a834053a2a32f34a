// Runs the server: opens the installation, listens on one port for both surfaces, serves the admin
// socket, and on close stops accepting, finishes in-flight requests, flushes and closes the stores.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { buildApp, type BuiltApp } from './http/app.js';
import { openServices, type OpenOptions } from './openServices.js';
import type { Services } from './services.js';
import { startAdminSocket } from './admin/adminSocket.js';

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  built: BuiltApp;
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;

export async function startServer(config: Config, options: OpenOptions = {}): Promise<RunningServer> {
  const opened = await openServices(config, options);
  const { services } = opened;
  let built: BuiltApp;
  let server: http.Server;
  try {
    built = buildApp(services);
    server = http.createServer({ keepAliveTimeout: 5_000 }, built.app);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await opened.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  services.log.info({ url, base_url: config.base_url, version: services.version, data_dir: config.data_dir }, 'listening');
  for (const m of [...opened.applied.sqlite, ...opened.applied.duckdb]) services.log.info({ migration: m.file }, 'migration applied');

  const admin = await startAdminSocket(services);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    services,
    built,
    close() {
      closing ??= (async () => {
        await admin.close();
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, DRAIN_TIMEOUT_MS);
          force.unref();
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        });
        await opened.close();
        services.log.info('stopped');
      })();
      return closing;
    },
  };
}
