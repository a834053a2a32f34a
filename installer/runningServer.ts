// Talks to the server holding a data folder, through its admin socket only: the installer must know
// whether a server runs (it holds the DuckDB file) without ever opening the databases itself.

import http from 'node:http';
import { existsSync } from 'node:fs';
import type { Config } from '../server/ground/config.js';
import { adminSocketPath } from '../server/admin/adminSocket.js';
import { InstallerError } from './installation.js';
import { listenOf, type Listen } from './health.js';

/** The command's result, or undefined when no server listens on the data folder's socket. */
export function askRunningServer<T = unknown>(config: Config, name: string, args: Record<string, unknown> = {}, timeoutMs = 600_000): Promise<T | undefined> {
  const socketPath = adminSocketPath(config.data_dir);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: `/commands/${encodeURIComponent(name)}`, method: 'POST', headers: { 'Content-Type': 'application/json' }, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        let parsed: { result?: T; error?: string };
        try {
          parsed = JSON.parse(body) as { result?: T; error?: string };
        } catch {
          return reject(new InstallerError(`the server's answer to ${name} is not JSON`));
        }
        if (res.statusCode !== 200) reject(new InstallerError(parsed.error ?? `admin command ${name} failed`));
        else resolve(parsed.result);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`admin command ${name} did not answer within ${timeoutMs / 1000} s`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file left behind by a server that died: nobody is listening.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(undefined);
      else reject(err);
    });
    req.end(JSON.stringify(args));
  });
}

export interface ServerStatus {
  version: string;
  data_dir: string;
  pid: number;
  uptime_s: number;
  /** Where it listens, which a command started from another shell may not know; an older release does not say. */
  listen?: Listen & { base_url: string };
}

/** Where to reach a server: where it says it listens, else where our settings say it would. */
export function reachable(config: Config, server: ServerStatus | undefined): Listen & { base_url: string } {
  return server?.listen ?? { ...listenOf(config), base_url: config.base_url };
}

export function runningServerStatus(config: Config): Promise<ServerStatus | undefined> {
  return askRunningServer<ServerStatus>(config, 'status', {}, 5000).catch(() => undefined);
}
