// CORS for the main API: only configured origins (plus the base URL) may call with credentials.
// The ingestion surface sets its own open CORS headers.

import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Cache-Control, X-Request-Id, Idempotency-Key, X-Confirm-Purge';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

export function mainApiCors(origins: () => Set<string>): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    res.vary('Origin');
    if (origin && origins().has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After, Idempotency-Replayed, X-PP-Cache');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
        return;
      }
    }
    next();
  };
}
