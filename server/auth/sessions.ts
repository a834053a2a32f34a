// Sessions: created at sign-in, named by every access token, revoked at logout, refresh-token reuse,
// password reset or by the user. A session also remembers the organization its tokens are minted for.

import { randomUUID } from 'node:crypto';
import type { Services } from '../http/services.js';

/** A session nobody refreshed for this long is over (the refresh token lifetime). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;

export interface NewSession {
  userId: number;
  orgId: number;
  userAgent?: string;
  ip?: string;
}

export interface Session {
  id: string;
  user_id: number;
  org_id: number;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  ip: string | null;
  revoked_at: string | null;
}

export function createSession(services: Services, input: NewSession): string {
  const id = randomUUID();
  const now = services.clock.now().toISOString();
  services.meta
    .prepare('INSERT INTO sessions (id, user_id, org_id, created_at, last_seen_at, user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, input.userId, input.orgId, now, now, input.userAgent?.slice(0, 256) ?? null, input.ip ?? null);
  return id;
}

export function getSession(services: Services, id: string): Session | undefined {
  return services.meta.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Session | undefined;
}

/** Sessions of a user that are neither revoked nor idle past the refresh lifetime, newest first. */
export function listLiveSessions(services: Services, userId: number): Session[] {
  const idleSince = new Date(services.clock.now().getTime() - SESSION_IDLE_MS).toISOString();
  return services.meta.prepare('SELECT * FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND last_seen_at > ? ORDER BY created_at DESC, id').all(userId, idleSince) as Session[];
}

/** Records a refresh: the time, the client, and the organization the next tokens are for. */
export function touchSession(services: Services, id: string, orgId: number, client: { userAgent?: string; ip?: string }): void {
  services.meta
    .prepare('UPDATE sessions SET last_seen_at = ?, org_id = ?, user_agent = coalesce(?, user_agent), ip = coalesce(?, ip) WHERE id = ?')
    .run(services.clock.now().toISOString(), orgId, client.userAgent?.slice(0, 256) ?? null, client.ip ?? null, id);
}

export function revokeSession(services: Services, sessionId: string): void {
  services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), sessionId);
}

/** Revokes one of the user's own live sessions; false when there is no such session. */
export function revokeOwnSession(services: Services, userId: number, sessionId: string): boolean {
  const info = services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), sessionId, userId);
  return info.changes === 1;
}

/** Ends every live session of the user but the one making the request. */
export function revokeOtherSessions(services: Services, userId: number, keepSessionId: string): void {
  services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), userId, keepSessionId);
}

export function revokeAllSessions(services: Services, userId: number): void {
  services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), userId);
}
