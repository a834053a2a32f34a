// CORS for the ingestion surface: any page may call it, since keys, not cookies, authenticate
// (browser tokens are then held to their domains). Preflights need no credential. Mounted before
// the body parser so that even a 413 or 400 is readable by the page that caused it.

import type { RequestHandler } from 'express';

const PREFLIGHT_PATHS = /^\/(?:track|identify|alias|replay|capture|config\/[^/]+)\/?$/;
const ALLOWED_HEADERS = 'Content-Type, X-PP-Tracker, Authorization';
const EXPOSED_HEADERS = 'Deprecation, Retry-After, X-Request-Id';

/** `preflight`: the paths (below the mount point) whose browser preflights are answered here. */
export function ingestCors(preflight: RegExp = PREFLIGHT_PATHS): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    res.vary('Origin');
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (req.method === 'OPTIONS' && preflight.test(req.path)) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '86400');
      res.status(204).end();
      return;
    }
    next();
  };
}
