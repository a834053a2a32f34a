// Activating a trial that a risk rule held (`trial_state=sms_required`): a six-digit code goes by SMS
// to a phone number no other organization activated with and that is under its daily cap across all
// organizations, and proving it within ten minutes starts the trial. The limits are docs/trial-activation.md's; moving the subscription is server/billing's.

import { randomInt } from 'node:crypto';
import type { Services } from '../../http/services.js';
import { ConflictError, RateLimitedError, ValidationError } from '../../ground/errors.js';
import { activateTrial, subscriptionOf, SubscriptionStateError, type Subscription } from '../../billing/subscriptions.js';
import { recordAudit } from '../../audit/recordAudit.js';
import { maskPhone, parsePhone } from '../../sms/phoneNumber.js';
import { enqueueSms, type SmsMessage } from '../../sms/smsOutbox.js';
import { notifySmsWorker } from '../../sms/smsWorker.js';
import {
  countWrongSmsCode,
  hashPhone,
  hashSmsCode,
  insertSmsCode,
  liveSmsCode,
  markSmsCodeConsumed,
  orgActivatedByPhone,
  phoneSendsBetween,
  recordPhoneUsed,
  smsCodeMatches,
  smsSendsBetween,
  SMS_CODE_TTL_MS,
} from './smsCodes.js';

export const SMS_COOLDOWN_MS = 60_000;
export const SMS_PER_DAY = 5;
/** Codes one number may receive in 24 hours, whichever organizations ask: a number is nobody's to flood. */
export const SMS_PER_NUMBER_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60_000;

/** The 202 body of a send. */
export interface SmsCodeSent {
  phone_masked: string;
  expires_at: string;
}

function notAwaitingSms(subscription: Subscription | undefined): ConflictError {
  if (!subscription) return new ConflictError('this organization has no trial to activate', 'conflict', { status: null, trial_state: null });
  const { status, trial_state } = subscription;
  return new ConflictError(`this organization's trial does not wait for an SMS confirmation: the subscription is ${status} (trial_state ${trial_state})`, 'conflict', {
    status,
    trial_state,
  });
}

function requireAwaitingSms(services: Services, orgId: number): void {
  const subscription = subscriptionOf(services, orgId);
  if (subscription?.status !== 'pending_review' || subscription.trial_state !== 'sms_required') throw notAwaitingSms(subscription);
}

function requirePhone(typed: string): string {
  const phone = parsePhone(typed);
  if (!phone) throw new ValidationError('phone must be an international number: + and the country code, 8 to 15 digits in all', 'phone');
  return phone;
}

function phoneInUse(): ValidationError {
  return new ValidationError('this phone number is already in use by another organization; use another number', 'phone');
}

function invalidCode(): ValidationError {
  return new ValidationError('invalid or expired code', 'code');
}

/**
 * 429 while the latest code is under a minute old or five went out in 24 hours; Retry-After is when
 * that ends. Sends stamped after now were made before the clock stepped back: they are not counted,
 * so neither wait outlasts its length, and the codes they sent are dead anyway (see liveSmsCode).
 */
function requireSendAllowed(services: Services, orgId: number): void {
  const now = services.clock.now().getTime();
  const sends = smsSendsBetween(services, orgId, new Date(now - DAY_MS), new Date(now)).map((d) => d.getTime());
  const latest = sends.at(-1);
  if (latest !== undefined && now - latest < SMS_COOLDOWN_MS) throw new RateLimitedError((latest + SMS_COOLDOWN_MS - now) / 1000);
  requireUnderDailyCap(sends, SMS_PER_DAY, now);
}

/** 429 once the number received its daily codes, counted over every organization of the installation. */
function requireNumberAllowed(services: Services, phoneHash: string): void {
  const now = services.clock.now().getTime();
  // Sends stamped after now came before the clock stepped back: like the organization's, not counted.
  const sends = phoneSendsBetween(services, phoneHash, new Date(now - DAY_MS), new Date(now));
  requireUnderDailyCap(
    sends.map((d) => d.getTime()),
    SMS_PER_NUMBER_PER_DAY,
    now,
  );
}

/** The window frees a send when the oldest of the last `cap` sends (oldest first) leaves it. */
function requireUnderDailyCap(sends: number[], cap: number, now: number): void {
  if (sends.length >= cap) throw new RateLimitedError((sends[sends.length - cap]! + DAY_MS - now) / 1000);
}

function activationSms(phone: string, code: string): SmsMessage {
  return { kind: 'trial_activation', to: phone, text: `Your pp activation code is ${code}. It is valid for 10 minutes.` };
}

/** POST /auth/trial/sms: a fresh code (the previous one stops working), queued for the gateway. */
export function sendActivationCode(services: Services, orgId: number, typedPhone: string): SmsCodeSent {
  const send = services.meta.transaction((): SmsCodeSent => {
    requireAwaitingSms(services, orgId);
    const phone = requirePhone(typedPhone);
    const phoneHash = hashPhone(services, phone);
    if (orgActivatedByPhone(services, phoneHash) !== undefined) throw phoneInUse();
    requireSendAllowed(services, orgId);
    requireNumberAllowed(services, phoneHash);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(services.clock.now().getTime() + SMS_CODE_TTL_MS);
    insertSmsCode(services, orgId, { phoneHash, codeHash: hashSmsCode(services, orgId, code) }, expiresAt);
    enqueueSms(services, activationSms(phone, code));
    return { phone_masked: maskPhone(phone), expires_at: expiresAt.toISOString() };
  });
  const sent = send();
  notifySmsWorker(services);
  return sent;
}

/**
 * POST /auth/trial/sms/verify: the right code starts the trial and spends the number. A wrong code
 * counts against the code (more than 10 and it is dead); wrong, expired, replaced and dead codes all
 * give the same 422.
 */
export function verifyActivationCode(services: Services, actor: { userId: number; orgId: number }, code: string): Subscription {
  const { orgId } = actor;
  requireAwaitingSms(services, orgId);
  const row = liveSmsCode(services, orgId);
  if (!row) throw invalidCode();
  if (!smsCodeMatches(services, row, code)) {
    countWrongSmsCode(services, row.id);
    throw invalidCode();
  }
  // Read again inside: a concurrent request may have spent the code or the number meanwhile.
  const activate = services.meta.transaction(() => {
    if (liveSmsCode(services, orgId)?.id !== row.id) throw invalidCode();
    if (orgActivatedByPhone(services, row.phone_hash) !== undefined) throw phoneInUse();
    recordPhoneUsed(services, row.phone_hash, orgId);
    markSmsCodeConsumed(services, row.id);
    const subscription = activateTrial(services, orgId, 'sms');
    recordAudit(services, { actor_user_id: actor.userId, org_id: orgId, action: 'org.trial.activate', outcome: 'success', details: { via: 'sms' } });
    return subscription;
  });
  try {
    return activate();
  } catch (err) {
    if (err instanceof SubscriptionStateError) throw notAwaitingSms(err.current);
    throw err;
  }
}
