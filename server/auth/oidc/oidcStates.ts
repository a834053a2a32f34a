// The one-time state of a sign-in in flight: created by start with its nonce and PKCE verifier, valid
// ten minutes, consumed by the callback in one statement so two callbacks cannot both use it. The
// state and nonce are kept as keyed hashes; the verifier, which must be sent later, is sealed.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Services } from '../../http/services.js';
import { deriveKey } from '../../ground/secretKeys.js';
import { open, seal } from '../../ground/secretBox.js';
import { hashToken, randomToken } from '../../ground/tokenHash.js';
import { aliveAt } from '../../ground/clock.js';

export const OIDC_STATE_TTL_MS = 10 * 60 * 1000;

export interface NewOidcState {
  state: string;
  nonce: string;
  /** S256 of the verifier, for the authorization request. */
  codeChallenge: string;
}

export type ConsumedState = { status: 'unknown' } | { status: 'expired'; orgId: number } | { status: 'live'; orgId: number; nonceHash: string; verifier: string };

interface StateRow {
  org_id: number;
  nonce_hash: string;
  verifier_sealed: string;
  expires_at: string;
}

const oidcKey = (services: Services) => deriveKey(services.secret, 'oidc-encryption');

export function createOidcState(services: Services, orgId: number): NewOidcState {
  const state = randomToken();
  const nonce = randomToken();
  const verifier = randomToken();
  const now = services.clock.now();
  // States nobody came back for are of no use to anyone once expired.
  services.meta.prepare('DELETE FROM oidc_states WHERE expires_at <= ?').run(now.toISOString());
  services.meta
    .prepare('INSERT INTO oidc_states (state_hash, org_id, nonce_hash, verifier_sealed, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(hashToken(services, 'oidc-state', state), orgId, nonceHash(services, nonce), seal(oidcKey(services), verifier), now.toISOString(), new Date(now.getTime() + OIDC_STATE_TTL_MS).toISOString());
  return { state, nonce, codeChallenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Deletes the state and returns what it held; whoever deletes it first is the only one to get it. */
export function consumeOidcState(services: Services, state: string): ConsumedState {
  if (state.length === 0 || state.length > 128) return { status: 'unknown' };
  const row = services.meta.prepare('DELETE FROM oidc_states WHERE state_hash = ? RETURNING org_id, nonce_hash, verifier_sealed, expires_at').get(hashToken(services, 'oidc-state', state)) as
    | StateRow
    | undefined;
  if (!row) return { status: 'unknown' };
  if (!aliveAt(Date.parse(row.expires_at), services.clock.now().getTime(), OIDC_STATE_TTL_MS)) return { status: 'expired', orgId: row.org_id };
  return { status: 'live', orgId: row.org_id, nonceHash: row.nonce_hash, verifier: open(oidcKey(services), row.verifier_sealed) };
}

export function nonceHash(services: Services, nonce: string): string {
  return hashToken(services, 'oidc-nonce', nonce);
}

/** Whether the nonce an ID token carries is the one stored with the state. */
export function nonceMatches(services: Services, stored: string, claimed: unknown): boolean {
  if (typeof claimed !== 'string' || claimed.length > 256) return false;
  const a = Buffer.from(nonceHash(services, claimed));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
