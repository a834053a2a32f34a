// Runs the server: opens the installation, listens on one port for both surfaces (HTTPS when
// tls_cert and tls_key are set), serves the admin socket, and on close stops accepting, finishes
// in-flight requests, flushes and closes the stores; on a signal, within a bound whatever runs.

import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ConfigError, type Config } from './ground/config.js';
import { buildApp, type BuiltApp } from './app.js';
import { openServices, type OpenOptions } from './openServices.js';
import type { Services } from './http/services.js';
import { startAdminSocket } from './admin/adminSocket.js';
import { startWorkers } from './workers.js';
import { answerClientErrors } from './http/securityHeaders.js';

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  built: BuiltApp;
  close(): Promise<void>;
}

/** How long in-flight requests get to finish at a stop before their connections are closed. */
const DRAIN_TIMEOUT_MS = 5_000;
/** However a stop goes, a stopping process ends this long after the signal. */
export const STOP_DEADLINE_MS = 10_000;

export interface StartOptions extends OpenOptions {
  /** Stop on SIGTERM and SIGINT (closeOnSignals), set before the listening line is written: a supervisor may signal as soon as it reads it. */
  stopOnSignals?: boolean;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Read before the stores open, so a bad certificate stops the start without touching data.
  const tls = config.tls_cert ? readTlsFiles(config) : undefined;
  // The journal's replay may take minutes: the server listens (and answers not ready) meanwhile.
  const opened = await openServices(config, { ...options, replay: 'background' });
  const { services } = opened;
  let built: BuiltApp;
  const server = tls ? https.createServer({ keepAliveTimeout: 5_000, ...tls }) : http.createServer({ keepAliveTimeout: 5_000 });
  let url: string;
  let port: number;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
    url = `${tls ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // With a system-chosen port, links and the Origin allowlist must name the real one.
    if (config.port === 0 && config.base_url.endsWith(':0')) config.base_url = config.base_url.slice(0, -2) + `:${port}`;
    // And what `ppctl status` reports: the port the server really listens on.
    if (config.port === 0) config.port = port;
    built = buildApp(services);
    startWorkers(services);
    server.on('request', built.app);
    answerClientErrors(server);
  } catch (err) {
    server.close();
    await opened.close();
    throw err;
  }
  const admin = await startAdminSocket(services);
  let closing: Promise<void> | undefined;
  const running: RunningServer = {
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
  if (options.stopOnSignals) closeOnSignals(running);
  // Written once the server answers, its admin socket included, and a signal stops it cleanly.
  services.log.info({ url, base_url: config.base_url, version: services.version, data_dir: config.data_dir }, 'listening');
  for (const m of [...opened.applied.sqlite, ...opened.applied.events]) services.log.info({ migration: m.file }, 'migration applied');
  return running;
}

/**
 * Stops the server on SIGTERM or SIGINT and exits 0 once it is closed. A statement DuckDB cannot
 * interrupt holds the close, and even `process.exit` (which waits for the thread running it): so
 * at STOP_DEADLINE_MS, or at a second signal, the process ends itself by the signal it got, at
 * once. What DuckDB committed is safe in its write-ahead log, and acknowledged events in the
 * ingest journal.
 */
export function closeOnSignals(running: RunningServer): void {
  const { log } = running.services;
  let stopping = false;
  const endNow = (signal: NodeJS.Signals, why: string) => {
    log.error({ signal }, why);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return endNow(signal, 'a second signal: exiting without finishing the stop');
    stopping = true;
    log.info({ signal }, 'stopping');
    setTimeout(() => endNow(signal, `the stop did not finish within ${STOP_DEADLINE_MS / 1000} s; exiting anyway`), STOP_DEADLINE_MS);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The certificate and key named by the settings; a missing file or a mismatched pair stops the start. */
function readTlsFiles(config: Config): { cert: Buffer; key: Buffer } {
  const read = (file: string, setting: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`cannot read ${setting} ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  const pair = { cert: read(config.tls_cert!, 'tls_cert'), key: read(config.tls_key!, 'tls_key') };
  try {
    https.createServer(pair).close();
  } catch (err) {
    throw new ConfigError(`tls_cert and tls_key are not a usable pair: ${(err as Error).message}`);
  }
  return pair;
}
