// HTTP routes of personal API keys: a signed-in member lists, issues and revokes their own keys.
// Logic lives in personalKeys.ts; a key cannot call these (their declaration takes none).

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { self } from '../access/access.js';
import { issuePersonalKey, listPersonalKeys, presentPersonalKey, revokePersonalKey, type KeyOwner, type PersonalKeyInput } from './personalKeys.js';
import { personalKeysOpenapi } from './personalKeysOpenapi.js';

const ownerOf = (req: Request): KeyOwner => ({ userId: req.auth!.userId, orgId: req.auth!.orgId, role: req.auth!.role });

export const personalKeysDomain: Domain = {
  name: 'personal-api-keys',
  openapi: personalKeysOpenapi,
  mount(routes, services) {
    const now = () => services.clock.now();

    routes.get('/api/v1/me/api-keys', self(), (req, res) => {
      res.json({ items: listPersonalKeys(services.meta, ownerOf(req)).map((k) => presentPersonalKey(k, now())), next_cursor: null });
    });

    routes.post('/api/v1/me/api-keys', self(), (req, res) => {
      const issued = issuePersonalKey(services, ownerOf(req), req.body as PersonalKeyInput);
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...presentPersonalKey(issued.key, now()), value: issued.value });
    });

    routes.delete('/api/v1/me/api-keys/{keyID}', self(), (req, res) => {
      revokePersonalKey(services, ownerOf(req), Number(req.valid.params.keyID));
      res.status(204).end();
    });
  },
};
