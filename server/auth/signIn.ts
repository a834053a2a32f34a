// What every way of signing in ends with (login, registration, invitation accept, refresh, bootstrap):
// choosing the organization, opening or continuing a session, and the TokenResponse body. The refresh
// token travels only in the cookie, never in a body.

import type { Request } from 'express';
import type { Services } from '../http/services.js';
import { ForbiddenError } from '../ground/errors.js';
import { listUserOrgs, type OrgMembership } from '../accounts/organizations.js';
import type { User } from '../accounts/users.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from './accessTokens.js';
import { createSession } from './sessions.js';
import { issueRefreshToken } from './refreshTokens.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: { id: number; email: string; name: string | null };
  org: OrgMembership;
}

export interface SignedIn {
  body: TokenResponse;
  /** For the `pp_rt` cookie. */
  refreshToken: string;
}

export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

export function clientOf(req: Request): ClientInfo {
  return { userAgent: req.get('user-agent'), ip: req.ip };
}

/**
 * The membership to sign in to: the requested organization (403 unless the user is an active member)
 * or, without a request, the one the user joined first.
 */
export function chooseOrg(services: Services, userId: number, requested?: number): OrgMembership {
  const orgs = listUserOrgs(services.meta, userId);
  if (requested !== undefined) {
    const found = orgs.find((o) => o.id === requested);
    if (!found) throw new ForbiddenError('you are not a member of this organization');
    return found;
  }
  if (orgs.length === 0) throw new ForbiddenError('you are not a member of any organization');
  return orgs[0]!;
}

export async function tokenResponse(services: Services, user: User, org: OrgMembership, sessionId: string): Promise<TokenResponse> {
  const access_token = await issueAccessToken(services, { userId: user.id, orgId: org.id, sessionId });
  return {
    access_token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user: { id: user.id, email: user.email, name: user.name },
    org: { id: org.id, name: org.name, role: org.role },
  };
}

/** Opens a new session with its first refresh token. */
export async function signIn(services: Services, user: User, org: OrgMembership, client: ClientInfo): Promise<SignedIn> {
  const sessionId = createSession(services, { userId: user.id, orgId: org.id, ...client });
  const refreshToken = issueRefreshToken(services, { id: sessionId, userId: user.id });
  return { body: await tokenResponse(services, user, org, sessionId), refreshToken };
}
