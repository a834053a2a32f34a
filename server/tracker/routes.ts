// Serves the browser tracker: immutable versioned files with ETags and SRI-friendly headers, and
// the compatibility short URL /v1/t.js (current core, one-hour cache, no ETag). No authentication.

import type { Request, Response } from 'express';
import type { Domain } from '../http/domain.js';
import { NotFoundError } from '../ground/errors.js';
import { errors } from '../http/openapi.js';
import { loadTrackerAssets, type TrackerAsset } from './trackerAssets.js';
import { PUBLIC } from '../access/access.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT_URL_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

const script = (description: string) => ({
  description,
  content: { 'text/javascript': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
});

function sendAsset(res: Response, asset: TrackerAsset, cacheControl: string): void {
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(asset.body);
}

function notFound(res: Response, what: string): never {
  res.setHeader('Cache-Control', 'no-store');
  throw new NotFoundError(what);
}

export const trackerDomain: Domain = {
  name: 'tracker',
  openapi: {
    paths: {
      '/v1/sdk/browser/{version}/{file}': {
        get: {
          operationId: 'getTrackerFile',
          summary: 'A versioned tracker file or its manifest (immutable; ETag is the quoted hex SHA-256)',
          tags: ['tracker'],
          security: [],
          parameters: [
            { name: 'version', in: 'path', required: true, schema: { type: 'string', maxLength: 32 } },
            { name: 'file', in: 'path', required: true, description: 'tracker.js, replay.js, diagnostics.js, picker.js or manifest.json', schema: { type: 'string', maxLength: 64 } },
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: { '200': script('the file, byte for byte'), '304': { description: 'not modified' }, ...errors(404) },
        },
      },
      '/v1/t.js': {
        get: {
          operationId: 'getTrackerShortUrl',
          summary: 'The current tracker core; not version-pinned, cached one hour, no ETag',
          tags: ['tracker'],
          security: [],
          responses: { '200': script('the current core'), ...errors(404) },
        },
      },
    },
  },
  mount(routes) {
    const assets = loadTrackerAssets();
    routes.get('/v1/sdk/browser/{version}/{file}', PUBLIC, (req: Request, res: Response) => {
      const asset = assets.versions.get(String(req.valid.params.version))?.get(String(req.valid.params.file));
      if (!asset) notFound(res, 'no such tracker version or file');
      const etag = `"${asset.sha256}"`;
      res.setHeader('ETag', etag);
      const ifNoneMatch = req.get('if-none-match');
      if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
        res.setHeader('Cache-Control', IMMUTABLE);
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.status(304).end();
        return;
      }
      sendAsset(res, asset, IMMUTABLE);
    });
    routes.get('/v1/t.js', PUBLIC, (_req: Request, res: Response) => {
      const core = assets.current ? assets.versions.get(assets.current)?.get('tracker.js') : undefined;
      if (!core) notFound(res, 'no tracker is installed');
      sendAsset(res, core, SHORT_URL_CACHE);
    });
  },
};
