// Access tokens: HS256 JWTs that live 15 minutes and name the user, organization and session.
// They carry no rights; membership and role are read on every request (see authenticate.ts).

import { SignJWT, jwtVerify } from 'jose';
import type { Services } from '../http/services.js';
import { deriveKey } from '../ground/secretKeys.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'pp';
const AUDIENCE = 'pp-api';

export interface AccessClaims {
  userId: number;
  orgId: number;
  sessionId: string;
}

export async function issueAccessToken(services: Services, claims: AccessClaims): Promise<string> {
  const now = Math.floor(services.clock.now().getTime() / 1000);
  return new SignJWT({ org: claims.orgId, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
    .sign(deriveKey(services.secret, 'access-token'));
}

/** How far ahead of the clock an issue time may be: a clock stepped back (NTP, a resumed VM) logs nobody out. */
const ISSUED_AHEAD_TOLERANCE_SECONDS = 60;

/**
 * The lifetime is the verifier's rule, not the token's claim: a token signed to live longer (a
 * leaked key, a bug in an older issuer) still stops 15 minutes after it was issued.
 */
function issuedWithinLifetime(iat: number, exp: number, now: number): boolean {
  if (exp - iat > ACCESS_TOKEN_TTL_SECONDS) return false;
  if (now - iat > ACCESS_TOKEN_TTL_SECONDS) return false;
  return iat - now <= ISSUED_AHEAD_TOLERANCE_SECONDS;
}

const nowSeconds = (services: Services) => Math.floor(services.clock.now().getTime() / 1000);

/** The claims of a valid, unexpired token, or undefined for anything else. */
export async function verifyAccessToken(services: Services, token: string): Promise<AccessClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, deriveKey(services.secret, 'access-token'), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: services.clock.now(),
      clockTolerance: 0,
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (!issuedWithinLifetime(payload.iat!, payload.exp!, nowSeconds(services))) return undefined;
    const userId = Number(payload.sub);
    const orgId = Number(payload.org);
    const sessionId = payload.sid;
    if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(orgId) || typeof sessionId !== 'string') return undefined;
    return { userId, orgId, sessionId };
  } catch {
    return undefined;
  }
}
