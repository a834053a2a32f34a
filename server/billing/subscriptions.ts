// The subscription row of a cloud organization and the moves between its states that pp makes
// itself: a held trial activated (SMS code or review) or rejected, the free plan chosen. The payment
// provider's moves are in payments.ts.

import type { Services } from '../http/services.js';
import { cachedStatement } from '../store/sqlite.js';
import type { Plan } from './plans.js';

export type SubscriptionStatus = 'trialing' | 'pending_review' | 'active' | 'past_due' | 'cancelled';
/** Stored trial states; `expired` is never stored, it is read from `trial_ends_at` (see accountState). */
export type StoredTrialState = 'trialing' | 'sms_required' | 'pending_review' | 'rejected' | 'converted';

export interface Subscription {
  org_id: number;
  status: SubscriptionStatus;
  trial_state: StoredTrialState;
  plan: Plan | null;
  trial_started_at: string;
  trial_ends_at: string | null;
  trial_events: number;
  activated_via: 'sms' | 'review' | null;
  review_note: string | null;
  past_due_since: string | null;
  current_period_end: string | null;
  provider_customer: string | null;
  provider_subscription: string | null;
  created_at: string;
  updated_at: string | null;
}

const DAY_MS = 86_400_000;

export function subscriptionOf(services: Services, orgId: number): Subscription | undefined {
  return cachedStatement(services.meta, 'SELECT * FROM subscriptions WHERE org_id = ?').get(orgId) as Subscription | undefined;
}

/** A new organization's row: a trial starting now, or a trial held until it is activated. */
export function insertSubscription(services: Services, orgId: number, state: { status: 'trialing' | 'pending_review'; trialState: 'trialing' | 'sms_required' | 'pending_review' }): void {
  const now = services.clock.now();
  const endsAt = state.status === 'trialing' ? trialEnd(services, now) : null;
  services.meta
    .prepare('INSERT INTO subscriptions (org_id, status, trial_state, trial_started_at, trial_ends_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(orgId, state.status, state.trialState, now.toISOString(), endsAt, now.toISOString(), now.toISOString());
}

function trialEnd(services: Services, start: Date): string {
  return new Date(start.getTime() + services.config.billing.trial_days * DAY_MS).toISOString();
}

export class SubscriptionStateError extends Error {
  constructor(readonly current: Subscription | undefined) {
    super(current ? `the subscription is ${current.status} (${current.trial_state}), not pending review` : 'the organization has no subscription');
  }
}

/**
 * A held trial starts: the trial runs its full length from now, counting events afresh. Only a
 * `pending_review` subscription can be activated; anything else throws SubscriptionStateError.
 */
export function activateTrial(services: Services, orgId: number, via: 'sms' | 'review', note?: string): Subscription {
  const now = services.clock.now();
  const changed = services.meta
    .prepare(
      `UPDATE subscriptions SET status = 'trialing', trial_state = 'trialing', trial_started_at = ?, trial_ends_at = ?, trial_events = 0,
              activated_via = ?, review_note = COALESCE(?, review_note), updated_at = ?
        WHERE org_id = ? AND status = 'pending_review'`,
    )
    .run(now.toISOString(), trialEnd(services, now), via, note ?? null, now.toISOString(), orgId).changes;
  if (changed === 0) throw new SubscriptionStateError(subscriptionOf(services, orgId));
  return subscriptionOf(services, orgId)!;
}

/** A held trial refused by a reviewer: the organization may still subscribe (402 `subscription_required` until then). */
export function rejectTrial(services: Services, orgId: number, note?: string): Subscription {
  const now = services.clock.now().toISOString();
  const changed = services.meta
    .prepare(
      `UPDATE subscriptions SET status = 'cancelled', trial_state = 'rejected', review_note = COALESCE(?, review_note), updated_at = ?
        WHERE org_id = ? AND status = 'pending_review'`,
    )
    .run(note ?? null, now, orgId).changes;
  if (changed === 0) throw new SubscriptionStateError(subscriptionOf(services, orgId));
  return subscriptionOf(services, orgId)!;
}
