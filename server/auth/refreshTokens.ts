// Refresh tokens: opaque random values, stored only as keyed hashes, one family per session. A
// rotation marks the presented token used and issues its successor; presenting a used token again
// means it was copied, so every session of that user ends.

import type { Services } from '../http/services.js';
import { hashToken, randomToken } from '../ground/tokenHash.js';
import { aliveAt } from '../ground/clock.js';
import { getSession, revokeAllSessions, revokeSession, SESSION_IDLE_MS, type Session } from './sessions.js';

export const REFRESH_TOKEN_TTL_MS = SESSION_IDLE_MS;
const KIND = 'refresh';

interface TokenRow {
  id: number;
  session_id: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
}

export type RefreshCheck = { status: 'live'; tokenId: number; session: Session } | { status: 'invalid' } | { status: 'reused'; userId: number };

export function issueRefreshToken(services: Services, session: { id: string; userId: number }, rotatedFrom?: number): string {
  const value = randomToken();
  const now = services.clock.now();
  // Expired tokens can only ever answer 401, used or not, so they need not be kept.
  services.meta.prepare('DELETE FROM refresh_tokens WHERE user_id = ? AND expires_at <= ?').run(session.userId, now.toISOString());
  services.meta
    .prepare('INSERT INTO refresh_tokens (token_hash, session_id, user_id, rotated_from, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(hashToken(services, KIND, value), session.id, session.userId, rotatedFrom ?? null, now.toISOString(), new Date(now.getTime() + REFRESH_TOKEN_TTL_MS).toISOString());
  return value;
}

/** What a presented token is: live (its session too), unknown/expired/ended, or an already rotated one. */
export function checkRefreshToken(services: Services, value: string | undefined): RefreshCheck {
  if (!value || value.length > 128) return { status: 'invalid' };
  const row = services.meta.prepare('SELECT id, session_id, user_id, expires_at, used_at FROM refresh_tokens WHERE token_hash = ?').get(hashToken(services, KIND, value)) as TokenRow | undefined;
  if (!row) return { status: 'invalid' };
  if (row.used_at !== null) return { status: 'reused', userId: row.user_id };
  const session = getSession(services, row.session_id);
  // A token issued before the clock stepped back would otherwise live for the step plus 30 days.
  if (!session || session.revoked_at !== null || !aliveAt(Date.parse(row.expires_at), services.clock.now().getTime(), REFRESH_TOKEN_TTL_MS)) return { status: 'invalid' };
  return { status: 'live', tokenId: row.id, session };
}

/** Revokes every session (and with them every token family) of the user whose rotated token came back. */
export function handleReuse(services: Services, userId: number): void {
  revokeAllSessions(services, userId);
  services.log.warn({ user_id: userId }, 'rotated refresh token presented again; all sessions of the user revoked');
}

/** Marks the live token used and issues its successor in one transaction; undefined if it was used meanwhile. */
export function rotateRefreshToken(services: Services, tokenId: number, session: Session): string | undefined {
  const rotate = services.meta.transaction(() => {
    const marked = services.meta.prepare('UPDATE refresh_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL').run(services.clock.now().toISOString(), tokenId);
    if (marked.changes !== 1) return undefined;
    return issueRefreshToken(services, { id: session.id, userId: session.user_id }, tokenId);
  });
  return rotate();
}

/** Logout: the token's session ends (an unknown token is simply ignored). */
export function endSessionOfToken(services: Services, value: string | undefined): void {
  if (!value || value.length > 128) return;
  const row = services.meta.prepare('SELECT session_id FROM refresh_tokens WHERE token_hash = ?').get(hashToken(services, KIND, value)) as { session_id: string } | undefined;
  if (row) revokeSession(services, row.session_id);
}
