// The shape of credential values (type prefix + 8-character public id + 32-character secret) and
// how their secrets are kept: an HMAC under a key derived from the server secret, compared in
// constant time. Which rows hold them is left to ingestKeys.ts and releaseTokens.ts.

import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Services } from '../http/services.js';
import { deriveKey } from '../ground/secretKeys.js';

export const PUBLIC_ID_LENGTH = 8;
export const SECRET_LENGTH = 32;

export type IngestKeyType = 'browser' | 'server' | 'legacy';
export type CredentialKind = IngestKeyType | 'release' | 'personal';

export const VALUE_PREFIX: Record<CredentialKind, string> = {
  browser: 'pp_bt_',
  server: 'pp_sk_',
  legacy: 'pp_wk_',
  release: 'pp_rel_',
  personal: 'pp_pk_',
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const VALUE_PATTERN = /^pp_(bt|sk|wk|rel|pk)_([A-Za-z0-9]{8})([A-Za-z0-9]{32})$/;
const KIND_BY_TAG: Record<string, CredentialKind> = { bt: 'browser', sk: 'server', wk: 'legacy', rel: 'release', pk: 'personal' };

export interface ParsedValue {
  kind: CredentialKind;
  publicId: string;
  secret: string;
}

/** The parts of a well-formed value, or undefined for anything else (access tokens included). */
export function parseValue(value: string): ParsedValue | undefined {
  const m = VALUE_PATTERN.exec(value);
  if (!m) return undefined;
  return { kind: KIND_BY_TAG[m[1]!]!, publicId: m[2]!, secret: m[3]! };
}

function randomChars(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export interface NewValue extends ParsedValue {
  value: string;
}

export function newValue(kind: CredentialKind): NewValue {
  const publicId = randomChars(PUBLIC_ID_LENGTH);
  const secret = randomChars(SECRET_LENGTH);
  return { kind, publicId, secret, value: `${VALUE_PREFIX[kind]}${publicId}${secret}` };
}

export function hashSecret(services: Services, secret: string): string {
  return createHmac('sha256', deriveKey(services.secret, 'token-hash')).update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(services: Services, secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(services, secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/**
 * Spends the same work as a real comparison when no row matched the public id, so response
 * time does not tell an unknown public id from a wrong secret.
 */
export function spendComparison(services: Services, secret: string): void {
  secretMatches(services, secret, '0'.repeat(64));
}

/** Whether a UNIQUE violation on public_id occurred (the 62^8 space makes this rare; callers retry). */
export function isPublicIdClash(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: \w+\.public_id/.test(err.message);
}
