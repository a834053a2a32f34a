// RFC 6238 codes (otplib): 30-second steps, six digits, accepted one step either side of now.
// The step a code belongs to is returned so the caller can refuse a second use within it.

import { timingSafeEqual } from 'node:crypto';
import { authenticator } from 'otplib';

export const TOTP_STEP_SECONDS = 30;
const ISSUER = 'pp';

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export function totpUri(accountName: string, secret: string): string {
  return authenticator.keyuri(accountName, ISSUER, secret);
}

/** The time step the code was generated for (now, or one step before or after), else undefined. */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const current = Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);
  let matched: number | undefined;
  // All three candidates are compared, in constant time, whatever matches first.
  for (const step of [current - 1, current, current + 1]) {
    const expected = authenticator.clone({ epoch: step * TOTP_STEP_SECONDS * 1000 }).generate(secret);
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code)) && matched === undefined) matched = step;
  }
  return matched;
}
