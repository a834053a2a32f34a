// HTTP routes of key management (admin or owner), release tokens (admin+) and the deploy marker
// (release token only). Logic lives in ingestKeys.ts, releaseTokens.ts and deployMarkers.ts.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { NotFoundError } from '../ground/errors.js';
import { other, project } from '../access/access.js';
import { keysOpenapi } from './keysOpenapi.js';
import { issueIngestKey, listIngestKeys, presentIngestKey, revokeIngestKey, rotateIngestKey, type KeyInput, type RotateInput } from './ingestKeys.js';
import { issueReleaseToken, listReleaseTokens, presentReleaseToken, revokeReleaseToken } from './releaseTokens.js';
import { checkIdempotencyKey, presentDeployMarker, recordDeployMarker, type DeployInput } from './deployMarkers.js';
import { releaseTokenAuth, releaseTokenProject } from './releaseAuth.js';

const projectOf = (req: Request) => req.project!.id;
const idParam = (req: Request, name: string) => Number(req.valid.params[name]);

export const keysDomain: Domain = {
  name: 'keys',
  openapi: keysOpenapi,
  mount(routes, services) {
    const admin = project('admin');
    const now = () => services.clock.now();

    routes.get('/api/v1/projects/{id}/keys', admin, (req, res) => {
      res.json({ items: listIngestKeys(services.meta, projectOf(req)).map((k) => presentIngestKey(k, now())), next_cursor: null });
    });
    routes.post('/api/v1/projects/{id}/keys', admin, (req, res) => {
      const issued = issueIngestKey(services, projectOf(req), req.body as KeyInput, req.auth!.userId);
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...presentIngestKey(issued.key, now()), value: issued.value });
    });
    routes.post('/api/v1/projects/{id}/keys/{keyID}/rotate', admin, (req, res) => {
      const issued = rotateIngestKey(services, projectOf(req), idParam(req, 'keyID'), req.body as RotateInput, req.auth!.userId);
      if (!issued) throw new NotFoundError('key not found');
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...presentIngestKey(issued.key, now()), value: issued.value });
    });
    routes.delete('/api/v1/projects/{id}/keys/{keyID}', admin, (req, res) => {
      if (!revokeIngestKey(services, projectOf(req), idParam(req, 'keyID'))) throw new NotFoundError('key not found');
      res.status(204).end();
    });

    routes.get('/api/v1/projects/{id}/release-tokens', admin, (req, res) => {
      res.json({ items: listReleaseTokens(services.meta, projectOf(req)).map((t) => presentReleaseToken(t, now())), next_cursor: null });
    });
    routes.post('/api/v1/projects/{id}/release-tokens', admin, (req, res) => {
      const issued = issueReleaseToken(services, projectOf(req), req.body as { name: string; expires_at?: string }, req.auth!.userId);
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...presentReleaseToken(issued.token, now()), value: issued.value });
    });
    routes.delete('/api/v1/projects/{id}/release-tokens/{tokenID}', admin, (req, res) => {
      if (!revokeReleaseToken(services, projectOf(req), idParam(req, 'tokenID'))) throw new NotFoundError('release token not found');
      res.status(204).end();
    });

    routes.post(
      '/api/v1/projects/{id}/release-markers/deploy',
      other('release_token', [releaseTokenAuth(services)], { scope: 'project' }),
      (req, _res, next) => {
        checkIdempotencyKey(req.get('idempotency-key'));
        next();
      },
      releaseTokenProject(),
      (req, res) => {
        const token = req.releaseToken!;
        const { marker, replayed } = recordDeployMarker(services, token.project_id, token.id, req.get('idempotency-key')!, req.body as DeployInput);
        if (replayed) res.setHeader('Idempotency-Replayed', 'true');
        res.status(replayed ? 200 : 201).json(presentDeployMarker(marker));
      },
    );
  },
};
