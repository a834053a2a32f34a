// Serves the web console (dist/console, built from console/): hashed assets cached immutably, and
// index.html, never cached and under a strict same-origin CSP, for every other page path so the
// console's router can answer it; the session player's frame under a CSP of its own. The API surfaces (/api/, /v1/) never reach this handler's pages.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';
import { packageRoot } from '../ground/packageRoot.js';
import { acceptedEncoding, type Encoding } from './compression.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const DAY = 'public, max-age=86400';

/**
 * Scripts, styles, fonts and connections only from this origin; images also as data: URLs (the
 * MFA QR code). No inline script or style sheet: the build emits none. Framing is refused.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The session player's frame (replay-frame.html), framed only by the console. Scripts only from
 * this origin, so nothing of a recorded page runs (rrweb also rebuilds it in an iframe sandboxed
 * without scripts); the recorded page's own styles, images and fonts load; it connects nowhere.
 */
export const REPLAY_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline' http: https: data:",
  "img-src 'self' http: https: data: blob:",
  "font-src 'self' http: https: data:",
  'media-src http: https: data: blob:',
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

export const REPLAY_FRAME_PATH = '/replay-frame.html';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** A built file and the compressed twins the build wrote beside it (`.br`, `.gz`). */
interface Body {
  plain: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

export interface ConsoleFiles {
  index: Body;
  /** replay-frame.html, when the build wrote it. */
  frame?: Body;
  /** `/assets/<name>` (hashed, immutable) and `/<name>` (the favicon: cached a day) → file */
  files: Map<string, Body & { contentType: string; cacheControl: string }>;
}

const TWINS: Record<string, Encoding> = { '.br': 'br', '.gz': 'gzip' };

function readBody(full: string): Body {
  const encoded: Body['encoded'] = {};
  for (const [ext, encoding] of Object.entries(TWINS)) if (existsSync(full + ext)) encoded[encoding] = readFileSync(full + ext);
  return { plain: readFileSync(full), encoded };
}

/** Sends `body` in the encoding the request accepts when the build wrote that twin. */
function send(res: Response, body: Body, head: boolean): void {
  res.vary('Accept-Encoding');
  const encoding = acceptedEncoding(res.req.get('Accept-Encoding'));
  const packed = encoding === null ? undefined : body.encoded[encoding];
  if (packed) res.setHeader('Content-Encoding', encoding!);
  const bytes = packed ?? body.plain;
  res.setHeader('Content-Length', bytes.length);
  res.end(head ? undefined : bytes);
}

export function consoleDir(): string {
  return path.join(packageRoot(), 'dist', 'console');
}

/** The built console, read once at start; undefined when it was not built (an API-only checkout). */
export function loadConsoleFiles(dir = consoleDir()): ConsoleFiles | undefined {
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const files: ConsoleFiles['files'] = new Map();
  const add = (folder: string, prefix: string, cacheControl: string) => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (name === 'index.html' || `/${name}` === REPLAY_FRAME_PATH || path.extname(name) in TWINS || !statSync(full).isFile()) continue;
      files.set(`${prefix}${name}`, { ...readBody(full), contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream', cacheControl });
    }
  };
  add(path.join(dir, 'assets'), '/assets/', IMMUTABLE);
  add(dir, '/', DAY);
  const frameFile = path.join(dir, REPLAY_FRAME_PATH.slice(1));
  return { index: readBody(indexFile), frame: existsSync(frameFile) ? readBody(frameFile) : undefined, files };
}

function isApiPath(p: string): boolean {
  return p.startsWith('/api/') || p === '/api' || p.startsWith('/v1/') || p === '/v1';
}

/** A path that names a file (has an extension) is an asset or nothing; page paths get index.html. */
function looksLikeFile(p: string): boolean {
  return /\.[A-Za-z0-9]+$/.test(p);
}

export function consoleSite(files: ConsoleFiles | undefined): RequestHandler {
  return (req, res, next) => {
    if (!files || (req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) return next();
    const asset = files.files.get(req.path);
    if (asset) {
      res.setHeader('Content-Type', asset.contentType);
      res.setHeader('Cache-Control', asset.cacheControl);
      send(res, asset, req.method === 'HEAD');
      return;
    }
    if (req.path === REPLAY_FRAME_PATH && files.frame) {
      sendPage(res, files.frame, { csp: REPLAY_FRAME_CSP, framing: 'SAMEORIGIN', referrer: 'no-referrer' }, req.method === 'HEAD');
      return;
    }
    if (req.path.startsWith('/assets/') || looksLikeFile(req.path)) return next();
    sendPage(res, files.index, { csp: CONSOLE_CSP, framing: 'DENY', referrer: 'same-origin' }, req.method === 'HEAD');
  };
}

/** An HTML page: never cached (it names the hashed assets of this build), under its own policy. */
function sendPage(res: Response, body: Body, policy: { csp: string; framing: 'DENY' | 'SAMEORIGIN'; referrer: string }, head: boolean): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-store, must-revalidate');
  res.setHeader('Content-Security-Policy', policy.csp);
  res.setHeader('X-Frame-Options', policy.framing);
  res.setHeader('Referrer-Policy', policy.referrer);
  send(res, body, head);
}
