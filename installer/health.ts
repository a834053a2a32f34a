// Asks a local server whether it is ready (GET /api/v1/health?ready=1: both databases answer) and
// which version it runs; used after every start, by status and by doctor.

import http from 'node:http';
import https from 'node:https';
import type { Config } from '../server/ground/config.js';

export type Health = { ok: true; version: string } | { ok: false; error: string };

/** Where a server listens: what its settings say, or what a running server reports (admin `status`). */
export interface Listen {
  host: string;
  port: number;
  tls: boolean;
}

export function listenOf(config: Config): Listen {
  return { host: config.host, port: config.port, tls: Boolean(config.tls_cert) };
}

/** The URL this machine reaches the server on, whatever address it listens on. */
export function localUrl(at: Listen): string {
  let host = at.host;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::') host = '::1';
  return `${at.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${at.port}`;
}

export function checkHealth(at: Listen, timeoutMs = 3000): Promise<Health> {
  const url = new URL('/api/v1/health?ready=1', localUrl(at));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    // Our own process on this host, asked only whether it is up: no secret goes over this
    // connection, so the certificate (often self-signed or named for the public host) is not checked.
    const req = client.get(url, { timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          const parsed = JSON.parse(body) as { version?: string; error?: { message?: string } };
          if (res.statusCode === 200 && parsed.version) resolve({ ok: true, version: parsed.version });
          else resolve({ ok: false, error: `HTTP ${res.statusCode}: ${parsed.error?.message ?? body.slice(0, 200)}` });
        } catch {
          resolve({ ok: false, error: `HTTP ${res.statusCode}: not a health answer` });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, error: err.code ?? err.message }));
  });
}

export interface WaitOptions {
  timeoutMs?: number;
  /** Fail unless the server reports this version (an upgrade must not be fooled by the old one). */
  version?: string;
  /** Stop waiting early when the process we started is gone. */
  alive?: () => boolean;
}

export async function waitForHealth(config: Config, options: WaitOptions = {}): Promise<Health> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last: Health = { ok: false, error: 'not checked' };
  while (Date.now() < deadline) {
    last = await checkHealth(listenOf(config));
    if (last.ok && (options.version === undefined || last.version === options.version)) return last;
    if (last.ok) last = { ok: false, error: `version ${last.version} answers, expected ${options.version}` };
    if (options.alive && !options.alive()) return { ok: false, error: `the server exited (${last.error})` };
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ok: false, error: `not ready after ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s: ${last.error}` };
}
