// The first half of trial-first signup: registration stores the request and emails a six-digit code
// and a link token; resend replaces both. Nothing is created until the address is proven (see
// completeSignup.ts). Deadline, cooldown and the per-address cap are the HTTP contract's limits.

import { randomInt } from 'node:crypto';
import type { Services } from '../../http/services.js';
import { AppError, ValidationError } from '../../ground/errors.js';
import { findUserByEmail, normalizeEmail } from '../../accounts/users.js';
import { enqueueMail } from '../../mail/outbox.js';
import { notifyMailWorker } from '../../mail/mailWorker.js';
import { signupVerificationMessage } from '../../mail/messages.js';
import { emailTaken, type RegisterInput } from '../register.js';
import { hashPassword, passwordProblem } from '../../ground/passwords.js';
import { randomToken } from '../../ground/tokenHash.js';
import type { ClientInfo } from '../signIn.js';
import { isDisposableEmail } from './emailDomains.js';
import { cleanDeviceFp, cleanTimeZone, cleanUtm } from './signupInput.js';
import { emailsSentBetween, hashCode, hashLinkToken, insertSignup, lastSentAt, liveSignupByEmail, recordEmailSent, replaceSecrets, VERIFICATION_TTL_MS, type PendingSignup } from './verifications.js';

export const RESEND_COOLDOWN_MS = 60_000;
export const EMAILS_PER_DAY = 10;
const DAY_MS = 24 * 60 * 60_000;

/** The 202 body of register and resend: the same whatever happened, so it tells nothing about the address. */
export interface SignupVerificationRequired {
  verification_required: true;
  email: string;
}

export interface TrialSignupInput extends RegisterInput {
  device_fp?: unknown;
  utm?: unknown;
}

function required(email: string): SignupVerificationRequired {
  return { verification_required: true, email: normalizeEmail(email) };
}

export class DisposableEmailError extends AppError {
  constructor() {
    super(422, 'disposable_email', 'addresses of disposable email providers cannot sign up; use a permanent address', { field: 'email' });
  }
}

function freshSecrets(services: Services, email: string) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const token = randomToken();
  return { code, token, hashes: { codeHash: hashCode(services, email, code), tokenHash: hashLinkToken(services, token) } };
}

/** "26 Nov 2026, 07:10 GMT+1": the deadline in the zone the browser gave, UTC without one. */
export function renderDeadline(at: Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(at);
}

// Emails stamped after now went out before the clock stepped back: neither limit counts them, so
// neither wait outlasts its length (their codes are dead anyway, see verifications.ts).
function underDailyCap(services: Services, email: string): boolean {
  const now = services.clock.now();
  return emailsSentBetween(services, email, new Date(now.getTime() - DAY_MS), now) < EMAILS_PER_DAY;
}

function queueVerificationEmail(services: Services, email: string, code: string, token: string, deadline: string): void {
  recordEmailSent(services, email);
  enqueueMail(services, signupVerificationMessage(services.config.base_url, normalizeEmail(email), code, token, deadline));
}

/**
 * POST /auth/register in trial-first mode. The checks a person can act on come first (disposable
 * domain, taken address, password rule); then the request is stored and the email queued in one
 * transaction. Over the daily cap nothing changes and nothing is sent, with the same 202.
 */
export async function startTrialSignup(services: Services, input: TrialSignupInput, client: ClientInfo): Promise<SignupVerificationRequired> {
  if (isDisposableEmail(services, input.email)) throw new DisposableEmailError();
  if (findUserByEmail(services.meta, input.email)) throw emailTaken();
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError(`password ${problem}`, 'password');
  const passwordHash = await hashPassword(input.password);
  const timezone = cleanTimeZone(input.timezone);
  const start = services.meta.transaction(() => {
    if (!underDailyCap(services, input.email)) return;
    const { code, token, hashes } = freshSecrets(services, input.email);
    const expiresAt = new Date(services.clock.now().getTime() + VERIFICATION_TTL_MS);
    const signup = {
      email: input.email,
      passwordHash,
      name: input.name?.trim() || undefined,
      orgName: input.org_name?.trim() || undefined,
      timezone,
      deviceFp: cleanDeviceFp(input.device_fp),
      utm: cleanUtm(input.utm),
      ip: client.ip,
    };
    insertSignup(services, signup, hashes, expiresAt);
    queueVerificationEmail(services, input.email, code, token, renderDeadline(expiresAt, timezone));
  });
  start();
  notifyMailWorker(services);
  return required(input.email);
}

function mayResend(services: Services, row: PendingSignup): boolean {
  const sinceLast = services.clock.now().getTime() - lastSentAt(services, row.id).getTime();
  return (sinceLast < 0 || sinceLast >= RESEND_COOLDOWN_MS) && underDailyCap(services, row.email);
}

/**
 * POST /auth/register/resend: a fresh code and token for a live signup, at most one email a minute
 * (counted from the latest email sent) and ten a day per address. Always the same 202.
 */
export function resendVerification(services: Services, email: string, timezone: unknown): SignupVerificationRequired {
  const resend = services.meta.transaction(() => {
    const row = liveSignupByEmail(services, email);
    if (!row || !mayResend(services, row)) return;
    const { code, token, hashes } = freshSecrets(services, row.email);
    replaceSecrets(services, row.id, hashes);
    const zone = cleanTimeZone(timezone) ?? row.timezone ?? undefined;
    queueVerificationEmail(services, row.email, code, token, renderDeadline(new Date(row.expires_at), zone));
  });
  resend();
  notifyMailWorker(services);
  return required(email);
}
