// Opting out of marketing email (trial reminders) by the token every such email carries:
// `<user id>.<base64url HMAC-SHA256(key, "unsubscribe:<user id>")>`. The token never expires, so the
// link in an old email keeps working; it only opens the opt-out of its own user. Account email
// (password resets, invitations, verification codes) is not affected by it.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { deriveKey } from '../ground/secretKeys.js';

const TOKEN = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/;

export interface MarketingPreference {
  userId: number;
  email: string;
  optedOutAt: string | null;
}

function mac(services: Services, userId: number): Buffer {
  return createHmac('sha256', deriveKey(services.secret, 'email-unsubscribe')).update(`unsubscribe:${userId}`).digest();
}

export function unsubscribeToken(services: Services, userId: number): string {
  return `${userId}.${mac(services, userId).toString('base64url')}`;
}

/** The same answer for a malformed, forged or another server's token and for a deleted user. */
function invalidToken(): ValidationError {
  return new ValidationError('invalid unsubscribe token', 'token');
}

/** The user the token was made for, or 422 on `token`. */
export function preferenceOfToken(services: Services, token: string | undefined): MarketingPreference {
  const m = TOKEN.exec(token ?? '');
  if (!m) throw invalidToken();
  const userId = Number(m[1]);
  const given = Buffer.from(m[2]!, 'base64url');
  if (given.length !== 32 || !timingSafeEqual(given, mac(services, userId))) throw invalidToken();
  const row = services.meta.prepare('SELECT id, email, marketing_opt_out_at FROM users WHERE id = ?').get(userId) as { id: number; email: string; marketing_opt_out_at: string | null } | undefined;
  if (!row) throw invalidToken();
  return { userId: row.id, email: row.email, optedOutAt: row.marketing_opt_out_at };
}

/** Keeps the first opt-out time when the link is used again. */
export function optOut(services: Services, userId: number): void {
  services.meta.prepare('UPDATE users SET marketing_opt_out_at = COALESCE(marketing_opt_out_at, ?) WHERE id = ?').run(services.clock.now().toISOString(), userId);
}

export function optIn(services: Services, userId: number): void {
  services.meta.prepare('UPDATE users SET marketing_opt_out_at = NULL WHERE id = ?').run(userId);
}
