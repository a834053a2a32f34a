// HTTP routes of the ingestion surface. Each write operation: credential check → schema
// validation → client header → the domain function → 202 after the commit.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { NotFoundError } from '../ground/errors.js';
import { ingestOpenapi } from './ingestOpenapi.js';
import { ingestAuth } from './credentials.js';
import { sdkOf } from './sdkInfo.js';
import { trackEvents } from './track.js';
import { alias, identify } from './identity.js';
import { storeReplayChunk, type ReplayBody } from './replay.js';
import { storeCapture, type CaptureBody } from './capture.js';
import { publicConfigFor } from './publicConfig.js';
import { captureAnswer, noFlags, POSTHOG_CAPTURE_PATHS, POSTHOG_FLAG_PATHS, remoteConfig, remoteConfigScript } from './posthog.js';
import { capturePosthog } from './posthogCapture.js';
import { clientHints } from './clientHints.js';
import { other, PUBLIC } from '../access/access.js';

const context = (req: Request) => ({ credential: req.ingest!, sdk: sdkOf(req), requestId: req.id, client: clientHints(req) });

export const ingestDomain: Domain = {
  name: 'ingest',
  openapi: ingestOpenapi,
  mount(routes, services) {
    routes.post('/v1/track', other('ingest_key', [ingestAuth(services, 'track')]), async (req, res) => {
      res.status(202).json(await trackEvents(services, req.body as Record<string, unknown>, context(req)));
    });
    routes.post('/v1/identify', other('ingest_key', [ingestAuth(services, 'identify')]), async (req, res) => {
      res.status(202).json(await identify(services, req.body as Parameters<typeof identify>[1], context(req)));
    });
    routes.post('/v1/alias', other('ingest_key', [ingestAuth(services, 'alias')]), async (req, res) => {
      res.status(202).json(await alias(services, req.body as Parameters<typeof alias>[1], context(req)));
    });
    routes.post('/v1/replay', other('ingest_key', [ingestAuth(services, 'replay')]), async (req, res) => {
      res.status(202).json(await storeReplayChunk(services, req.body as ReplayBody, context(req)));
    });
    routes.post('/v1/capture', other('ingest_key', [ingestAuth(services, 'capture')]), async (req, res) => {
      res.status(202).json(await storeCapture(services, req.body as CaptureBody, context(req)));
    });
    // PostHog clients name their key in the payload, so these authenticate once the body is read.
    const inPayload = other('payload_key', []);
    for (const path of POSTHOG_CAPTURE_PATHS) {
      routes.post(path, inPayload, async (req, res) => {
        res.json(captureAnswer(await capturePosthog(services, req)));
      });
    }
    for (const path of POSTHOG_FLAG_PATHS) {
      routes.get(path, PUBLIC, (_req, res) => void res.json(noFlags()));
      routes.post(path, PUBLIC, (_req, res) => void res.json(noFlags()));
    }
    routes.get('/array/{token}/config', PUBLIC, (req, res) => void res.json(remoteConfig(String(req.valid.params.token))));
    routes.get('/array/{token}/config.js', PUBLIC, (req, res) => void res.type('application/javascript').send(remoteConfigScript(String(req.valid.params.token))));
    routes.get('/v1/config/{prefix}', PUBLIC, (req, res) => {
      const config = publicConfigFor(services, String(req.valid.params.prefix));
      if (!config) throw new NotFoundError('no collection configuration for this prefix');
      res.set('Cache-Control', 'public, max-age=60').json(config);
    });
  },
};
