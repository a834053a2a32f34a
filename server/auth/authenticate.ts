// Main-API authentication: a Bearer access token whose session is live and whose user is still an
// active member of the token's organization, or, on routes that take one, a personal API key
// (pp_pk_…) of such a member. Anything else is 401 `unauthorized`, with one message; a key without
// the scope the route needs is 403. Each signed-in user, and each key, has its own request budget.

import type { RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import type { Role } from '../access/roles.js';
import type { ApiKeyScope } from '../access/access.js';
import { ForbiddenError, UnauthorizedError } from '../ground/errors.js';
import { bearerToken } from '../ground/bearer.js';
import { parseValue } from '../keys/keyValues.js';
import { verifyPersonalKey } from '../keys/personalKeys.js';
import { verifyAccessToken } from './accessTokens.js';

export interface AuthContext {
  userId: number;
  orgId: number;
  sessionId: string;
  /** The role read from the membership table for this request. */
  role: Role;
  /** Set when a personal API key, not a session, stands for the member. */
  apiKey?: { id: number; scopes: ApiKeyScope[]; projectId: number | null };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** The access token of a live session; `apiKey` names the personal-API-key scope the route accepts, if any. */
export function authenticate(services: Services, apiKey: ApiKeyScope | 'never' = 'never'): RequestHandler {
  const sessionAndRole = services.meta.prepare(
    `SELECT m.role AS role FROM sessions s
       JOIN memberships m ON m.user_id = s.user_id AND m.org_id = ?
      WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL`,
  );
  return async (req, _res, next) => {
    const token = bearerToken(req.get('authorization'));
    const personal = token?.startsWith('pp_pk_') ? parseValue(token) : undefined;
    if (personal) {
      req.auth = keyHolder(services, personal, apiKey);
      return next();
    }
    const claims = token ? await verifyAccessToken(services, token) : undefined;
    if (!claims) throw new UnauthorizedError();
    const row = sessionAndRole.get(claims.orgId, claims.sessionId, claims.userId) as { role: Role } | undefined;
    if (!row) throw new UnauthorizedError();
    services.limiter.take('api-user', String(claims.userId), { perMinute: services.config.rate_limit.user_per_minute });
    req.auth = { ...claims, role: row.role };
    next();
  };
}

/** The member a personal key stands for on a route taking `needed` (401 where no key is taken). */
function keyHolder(services: Services, presented: NonNullable<ReturnType<typeof parseValue>>, needed: ApiKeyScope | 'never'): AuthContext {
  if (needed === 'never') throw new UnauthorizedError();
  const verified = verifyPersonalKey(services, presented);
  if (!verified) throw new UnauthorizedError();
  const { key, role } = verified;
  services.limiter.take('api-key', String(key.id), { perMinute: services.config.rate_limit.api_key_per_minute });
  if (!key.scopes.includes(needed)) throw new ForbiddenError(`this API key lacks the ${needed} scope this operation needs`);
  return { userId: key.user_id, orgId: key.org_id, sessionId: `api-key:${key.id}`, role, apiKey: { id: key.id, scopes: key.scopes, projectId: key.project_id } };
}
