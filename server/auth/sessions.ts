// Sessions: created at sign-in, named by every access token, revoked at logout, refresh-token reuse,
// password reset or by the user.

import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';

export interface NewSession {
  userId: number;
  orgId: number;
  userAgent?: string;
  ip?: string;
}

export function createSession(services: Services, input: NewSession): string {
  const id = randomUUID();
  const now = services.clock.now().toISOString();
  services.meta
    .prepare('INSERT INTO sessions (id, user_id, org_id, created_at, last_seen_at, user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, input.userId, input.orgId, now, now, input.userAgent?.slice(0, 256) ?? null, input.ip ?? null);
  return id;
}

export function revokeSession(services: Services, sessionId: string): void {
  services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), sessionId);
}

export function revokeAllSessions(services: Services, userId: number): void {
  services.meta.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), userId);
}
