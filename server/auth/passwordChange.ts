// POST /me/password: a signed-in user replaces their password. The current password proves it is
// them (a stolen access token alone is not enough); every other session ends, this one stays.

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { passwordHashOf, setPasswordChangeRequired, setPasswordHash } from '../accounts/users.js';
import { hashPassword, passwordProblem, verifyPassword } from '../ground/passwords.js';
import { revokeOtherSessions } from './sessions.js';
import { retireOpenResets } from './passwordResets.js';

export interface PasswordChange {
  userId: number;
  sessionId: string;
  currentPassword: string;
  newPassword: string;
}

export async function changePassword(services: Services, change: PasswordChange): Promise<void> {
  const hash = passwordHashOf(services.meta, change.userId);
  if (!hash) throw new ValidationError('this account signs in through single sign-on and has no password to change', 'current_password');
  if (!(await verifyPassword(hash, change.currentPassword))) throw new ValidationError('the current password is not correct', 'current_password');
  const problem = passwordProblem(change.newPassword);
  if (problem) throw new ValidationError(`password ${problem}`, 'new_password');
  if (change.newPassword === change.currentPassword) throw new ValidationError('the new password must differ from the current one', 'new_password');
  const newHash = await hashPassword(change.newPassword);
  services.meta.transaction(() => {
    const now = services.clock.now().toISOString();
    setPasswordHash(services.meta, change.userId, newHash);
    setPasswordChangeRequired(services.meta, change.userId, false);
    // An emailed reset link would otherwise still set a password chosen before this change.
    retireOpenResets(services, change.userId, now);
    revokeOtherSessions(services, change.userId, change.sessionId);
  })();
}
