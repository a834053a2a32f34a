// The risk rules checked when a signup is verified (HTTP contract, "Subscription and trial state").
// A hit does not refuse anyone: the account is created and signed in, but its trial waits for an SMS
// confirmation. The signals are the device fingerprint and the address the registration came from.

import type { Services } from '../../http/services.js';
import { isFreeEmail } from './emailDomains.js';
import { signupsFromIpSince, type PendingSignup } from './verifications.js';

const DAY_MS = 24 * 60 * 60_000;
/** A signal shared with an organization whose trial is younger than this is a repeat trial. */
export const RECENT_TRIAL_MS = 90 * DAY_MS;

export type RiskRule = 'recent_trial_signal' | 'free_email_signal' | 'ip_repeat';

/** Whether an earlier signup shares the device or address; with `since`, only trials started after it. */
function signalMatches(services: Services, signup: PendingSignup, since?: Date): boolean {
  if (!signup.device_fp && !signup.ip) return false;
  const row = services.meta
    .prepare(
      `SELECT 1 FROM org_signups s JOIN subscriptions sub ON sub.org_id = s.org_id
        WHERE (s.device_fp = ? OR s.ip = ?) AND sub.trial_started_at > ? LIMIT 1`,
    )
    .get(signup.device_fp, signup.ip, (since ?? new Date(0)).toISOString());
  return row !== undefined;
}

/** The rules this signup trips, in the contract's order; empty for an ordinary signup. */
export function riskRulesHit(services: Services, signup: PendingSignup): RiskRule[] {
  const now = services.clock.now().getTime();
  const hits: RiskRule[] = [];
  if (signalMatches(services, signup, new Date(now - RECENT_TRIAL_MS))) hits.push('recent_trial_signal');
  if (isFreeEmail(services, signup.email) && signalMatches(services, signup)) hits.push('free_email_signal');
  // Counts this signup too: a second address from one network within a day is the hit.
  if (signup.ip && signupsFromIpSince(services, signup.ip, new Date(now - DAY_MS)) >= 2) hits.push('ip_repeat');
  return hits;
}
