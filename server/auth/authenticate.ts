// Main-API authentication: a Bearer access token whose session is live and whose user is still an
// active member of the token's organization. Anything else is 401 `unauthorized`, with one message.

import type { RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import type { Role } from '../accounts/roles.js';
import { UnauthorizedError } from '../ground/errors.js';
import { verifyAccessToken } from './accessTokens.js';

export interface AuthContext {
  userId: number;
  orgId: number;
  sessionId: string;
  /** The role read from the membership table for this request. */
  role: Role;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** The Bearer credential of a request, if it has one. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}

export function authenticate(services: Services): RequestHandler {
  const sessionAndRole = services.meta.prepare(
    `SELECT m.role AS role FROM sessions s
       JOIN memberships m ON m.user_id = s.user_id AND m.org_id = ?
      WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL`,
  );
  return async (req, _res, next) => {
    const token = bearerToken(req.get('authorization'));
    const claims = token ? await verifyAccessToken(services, token) : undefined;
    if (!claims) throw new UnauthorizedError();
    const row = sessionAndRole.get(claims.orgId, claims.sessionId, claims.userId) as { role: Role } | undefined;
    if (!row) throw new UnauthorizedError();
    services.limiter.take('api-user', String(claims.userId), { perMinute: services.config.rate_limit.user_per_minute });
    req.auth = { ...claims, role: row.role };
    next();
  };
}
