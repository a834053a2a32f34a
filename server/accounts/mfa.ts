// Second factor: enrolment (setup → enable with a first code → ten recovery codes shown once),
// verification at sign-in (a TOTP code not used before in its step, or an unused recovery code,
// which is then spent) and disabling. The TOTP secret is stored sealed with a server key.

import { randomInt } from 'node:crypto';
import type { Services } from '../http/services.js';
import { ConflictError, ValidationError } from '../ground/errors.js';
import { deriveKey } from '../ground/secretKeys.js';
import { open, seal } from '../ground/secretBox.js';
import { hashToken } from '../ground/tokenHash.js';
import { newTotpSecret, totpStep, totpUri } from './totp.js';

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

interface MfaRow {
  secret_sealed: string;
  enabled_at: string | null;
  last_step: number | null;
}

function mfaRow(services: Services, userId: number): MfaRow | undefined {
  return services.meta.prepare('SELECT secret_sealed, enabled_at, last_step FROM mfa WHERE user_id = ?').get(userId) as MfaRow | undefined;
}

function secretOf(services: Services, row: MfaRow): string {
  return open(deriveKey(services.secret, 'totp-encryption'), row.secret_sealed);
}

export function mfaEnabled(services: Services, userId: number): boolean {
  return mfaRow(services, userId)?.enabled_at != null;
}

/** A fresh secret, pending until enableMfa confirms it; replaces an earlier pending one. */
export function beginMfaSetup(services: Services, user: { id: number; email: string }): { secret: string; otpauth_url: string } {
  if (mfaEnabled(services, user.id)) throw new ConflictError('two-factor authentication is already enabled; disable it first');
  const secret = newTotpSecret();
  services.meta
    .prepare('INSERT OR REPLACE INTO mfa (user_id, secret_sealed, enabled_at, last_step, created_at) VALUES (?, ?, NULL, NULL, ?)')
    .run(user.id, seal(deriveKey(services.secret, 'totp-encryption'), secret), services.clock.now().toISOString());
  return { secret, otpauth_url: totpUri(user.email, secret) };
}

/** Confirms the pending secret with a current code and returns the recovery codes, the only time they are readable. */
export function enableMfa(services: Services, userId: number, code: string): string[] {
  const row = mfaRow(services, userId);
  if (!row) throw new ConflictError('start two-factor setup first (POST /api/v1/me/mfa/setup)');
  if (row.enabled_at !== null) throw new ConflictError('two-factor authentication is already enabled');
  const step = totpStep(secretOf(services, row), code.trim(), services.clock.now());
  if (step === undefined) throw new ValidationError('code is not a current authenticator code', 'code');
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enable = services.meta.transaction(() => {
    services.meta.prepare('UPDATE mfa SET enabled_at = ?, last_step = ? WHERE user_id = ?').run(services.clock.now().toISOString(), step, userId);
    services.meta.prepare('DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
    const insert = services.meta.prepare('INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES (?, ?)');
    for (const c of codes) insert.run(userId, recoveryHash(services, userId, c));
  });
  enable();
  return codes;
}

/** Turns MFA off after a valid second factor. */
export function disableMfa(services: Services, userId: number, code: string): void {
  if (!mfaEnabled(services, userId)) throw new ConflictError('two-factor authentication is not enabled');
  if (!verifySecondFactor(services, userId, code)) {
    throw new ValidationError('code is not a current authenticator code or an unused recovery code', 'code');
  }
  removeMfa(services, userId);
}

/**
 * True for a six-digit code of the current step ±1 that is newer than the last accepted one, or for an
 * unused recovery code (spent by this call). Both checks are single conditional updates, so two
 * concurrent sign-ins cannot both spend the same code.
 */
export function verifySecondFactor(services: Services, userId: number, code: string): boolean {
  const row = mfaRow(services, userId);
  if (!row || row.enabled_at === null) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const step = totpStep(secretOf(services, row), trimmed, services.clock.now());
    if (step === undefined) return false;
    const taken = services.meta
      // A last step further ahead than the one-step drift allows was recorded before the clock
      // stepped back; honouring it would refuse every code for the length of the step.
      .prepare('UPDATE mfa SET last_step = ? WHERE user_id = ? AND (last_step IS NULL OR last_step < ? OR last_step > ?)')
      .run(step, userId, step, step + 2);
    return taken.changes === 1;
  }
  const spent = services.meta
    .prepare('UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
    .run(services.clock.now().toISOString(), userId, recoveryHash(services, userId, trimmed));
  return spent.changes === 1;
}

export function unusedRecoveryCodes(services: Services, userId: number): number {
  return (services.meta.prepare('SELECT count(*) AS n FROM mfa_recovery_codes WHERE user_id = ? AND used_at IS NULL').get(userId) as { n: number }).n;
}

/** Ten characters from an alphabet without look-alikes, shown as `xxxxx-xxxxx` (about 50 bits). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Case, spaces and dashes do not matter when a code is typed back. */
function recoveryHash(services: Services, userId: number, code: string): string {
  return hashToken(services, 'recovery', `${userId}:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}

/** `ppctl admin reset-password --disable-mfa`: for an owner who lost both the authenticator and the recovery codes. */
export function removeMfa(services: Services, userId: number): boolean {
  const remove = services.meta.transaction(() => {
    services.meta.prepare('DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
    return services.meta.prepare('DELETE FROM mfa WHERE user_id = ?').run(userId).changes === 1;
  });
  return remove();
}
