// Refresh and bootstrap: the cookie's token is checked, the organization re-checked against live
// memberships, and the token rotated. A rotated token presented again ends every session of its user.

import type { Services } from '../http/services.js';
import type { Config } from '../ground/config.js';
import { getMembership, getOrganization } from '../accounts/organizations.js';
import { getUser } from '../accounts/users.js';
import { RefreshRejectedError } from './refreshCookie.js';
import { checkRefreshToken, handleReuse, rotateRefreshToken } from './refreshTokens.js';
import { revokeSession, touchSession } from './sessions.js';
import { chooseOrg, tokenResponse, type ClientInfo, type SignedIn } from './signIn.js';

function reject(config: Config): never {
  throw new RefreshRejectedError(config);
}

/** With `orgId` the session switches organization (403 if not a member, cookie kept); without, it keeps its own. */
export async function refreshSession(services: Services, cookie: string | undefined, orgId: number | undefined, client: ClientInfo): Promise<SignedIn> {
  const check = checkRefreshToken(services, cookie);
  if (check.status === 'reused') {
    handleReuse(services, check.userId);
    reject(services.config);
  }
  if (check.status === 'invalid') reject(services.config);
  const { session, tokenId } = check;
  const user = getUser(services.meta, session.user_id);
  if (!user) reject(services.config);
  const org = orgId !== undefined ? chooseOrg(services, user.id, orgId) : currentOrg(services, session.org_id, user.id);
  if (!org) {
    // Removed from the session's organization: the session is over, like any request of a removed member.
    revokeSession(services, session.id);
    reject(services.config);
  }
  const refreshToken = rotateRefreshToken(services, tokenId, session);
  if (!refreshToken) {
    handleReuse(services, user.id);
    reject(services.config);
  }
  touchSession(services, session.id, org.id, client);
  return { body: await tokenResponse(services, user, org, session.id), refreshToken };
}

function currentOrg(services: Services, orgId: number, userId: number) {
  const membership = getMembership(services.meta, orgId, userId);
  const org = getOrganization(services.meta, orgId);
  return membership && org ? { id: org.id, name: org.name, role: membership.role } : undefined;
}
