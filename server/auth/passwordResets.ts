// Password reset: a one-hour, single-use emailed link. Asking is answered before any lookup happens
// (the work runs after the response), so the answer and its timing say nothing about whether the
// account exists. A newer request retires older unused links; a reset ends every session.

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { findUserByEmail, setPasswordChangeRequired, setPasswordHash } from '../accounts/users.js';
import { enqueueMail } from '../mail/outbox.js';
import { notifyMailWorker } from '../mail/mailWorker.js';
import { passwordResetMessage, resetPasswordLink } from '../mail/messages.js';
import { hashPassword, passwordProblem } from '../ground/passwords.js';
import { hashToken, randomToken } from '../ground/tokenHash.js';
import { revokeAllSessions } from './sessions.js';
import { latestLiveExpiry } from '../ground/clock.js';

export const RESET_TTL_MS = 60 * 60 * 1000;
const KIND = 'password-reset';
const INVALID = 'invalid or expired token';

/** Retires the user's unused reset links: a newer link, a reset or a password change makes them stale. */
export function retireOpenResets(services: Services, userId: number, now: string): void {
  services.meta.prepare('UPDATE password_resets SET retired_at = ? WHERE user_id = ? AND used_at IS NULL AND retired_at IS NULL').run(now, userId);
}

/** A new live reset token for `userId`, retiring the older ones; `then` runs in the same transaction. */
function insertReset(services: Services, userId: number, then: (token: string) => void = () => {}): string {
  const token = randomToken();
  const now = services.clock.now();
  services.meta.transaction(() => {
    retireOpenResets(services, userId, now.toISOString());
    services.meta
      .prepare('INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(userId, hashToken(services, KIND, token), now.toISOString(), new Date(now.getTime() + RESET_TTL_MS).toISOString());
    then(token);
  })();
  return token;
}

/** Issues a reset link for an existing account and queues its email, in one transaction. */
export function issuePasswordReset(services: Services, email: string): void {
  const user = findUserByEmail(services.meta, email);
  if (!user) return;
  insertReset(services, user.id, (token) => enqueueMail(services, passwordResetMessage(services.config.base_url, user.email, token)));
  notifyMailWorker(services);
}

/**
 * The operator's way when no mail leaves the server (`ppctl admin reset-password --link`): the same
 * one-hour, single-use link, handed to the operator instead of emailed; null for an unknown email.
 */
export function resetLinkForOperator(services: Services, email: string): { email: string; link: string; expires_at: string } | null {
  const user = findUserByEmail(services.meta, email);
  if (!user) return null;
  const token = insertReset(services, user.id);
  return { email: user.email, link: resetPasswordLink(services.config.base_url, token), expires_at: new Date(services.clock.now().getTime() + RESET_TTL_MS).toISOString() };
}

/**
 * Runs issuePasswordReset after the current response has been written. Shutdown waits for
 * requests accepted this way.
 */
export function schedulePasswordReset(services: Services, email: string): void {
  const set = services.resetRequests;
  const job = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => issuePasswordReset(services, email))
    .catch((err: unknown) => services.log.error({ err }, 'password reset request failed'))
    .finally(() => set.delete(job));
  set.add(job);
}

/** Sets the new password for a live link, spends it (and any other open link), and ends every session. */
export async function resetPassword(services: Services, token: string, password: string): Promise<void> {
  const hash = hashToken(services, KIND, token);
  const find = () =>
    services.meta
      .prepare('SELECT id, user_id FROM password_resets WHERE token_hash = ? AND used_at IS NULL AND retired_at IS NULL AND expires_at > ? AND expires_at <= ?')
      .get(hash, services.clock.now().toISOString(), latestLiveExpiry(services.clock.now(), RESET_TTL_MS)) as { id: number; user_id: number } | undefined;
  if (!find()) throw new ValidationError(INVALID, 'token');
  const problem = passwordProblem(password);
  if (problem) throw new ValidationError(`password ${problem}`, 'password');
  const passwordHash = await hashPassword(password);
  const apply = services.meta.transaction(() => {
    // Looked up again after hashing: the link may have been spent or retired meanwhile.
    const row = find();
    if (!row) return false;
    const now = services.clock.now().toISOString();
    services.meta.prepare('UPDATE password_resets SET used_at = ? WHERE id = ?').run(now, row.id);
    retireOpenResets(services, row.user_id, now);
    setPasswordHash(services.meta, row.user_id, passwordHash);
    setPasswordChangeRequired(services.meta, row.user_id, false);
    revokeAllSessions(services, row.user_id);
    return true;
  });
  if (!apply()) throw new ValidationError(INVALID, 'token');
}

/**
 * `ppctl admin reset-password`: sets a password (already checked against the rule) and ends every
 * session; false for an unknown email. A password the operator chose or saw is temporary: the user
 * must change it at the next sign-in.
 */
export async function setPasswordByOperator(services: Services, email: string, password: string): Promise<boolean> {
  const user = findUserByEmail(services.meta, email);
  if (!user) return false;
  const passwordHash = await hashPassword(password);
  const apply = services.meta.transaction(() => {
    const now = services.clock.now().toISOString();
    retireOpenResets(services, user.id, now);
    setPasswordHash(services.meta, user.id, passwordHash);
    setPasswordChangeRequired(services.meta, user.id, true);
    revokeAllSessions(services, user.id);
  });
  apply();
  return true;
}
