// One-time secrets handed to a user (refresh tokens, reset links, invitations, recovery codes): random
// values whose keyed hash (HMAC-SHA256) is all the database keeps. A lookup by hash is an exact
// index match, so no secret-dependent comparison happens in JavaScript; a short code checked against
// its one row is compared in constant time (hashMatches).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey } from './secretKeys.js';

/** What hashing uses of the services: the server secret its key is derived from. */
export interface TokenSecret {
  secret: Buffer;
}

/** 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token; `kind` keeps hashes of different token kinds apart. */
export function hashToken(services: TokenSecret, kind: string, value: string): string {
  return createHmac('sha256', deriveKey(services.secret, 'token-hash')).update(`${kind}\u0000${value}`).digest('base64url');
}

/** Whether `value` hashes to `stored`, compared in constant time (for short codes checked against one row). */
export function hashMatches(services: TokenSecret, kind: string, value: string, stored: string): boolean {
  const given = Buffer.from(hashToken(services, kind, value));
  const expected = Buffer.from(stored);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
