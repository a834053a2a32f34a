// What a cloud organization may do right now, read from its subscription on every request: a live
// trial or paid plan works (within its event quota), a held trial reads but changes nothing, an
// ended trial or lapsed subscription is paused with 402. On-prem, and for an organization with no
// subscription (created by an operator), nothing here applies and the license decides.

import type { Services } from '../http/services.js';
import type { Entitlement } from '../../license/entitlements.js';
import { AppError, ForbiddenError } from '../ground/errors.js';
import { cachedStatement } from '../store/sqlite.js';
import { monthlyQuota, planEntitlements, type Plan } from './plans.js';
import { subscriptionOf, type Subscription } from './subscriptions.js';

const DAY_MS = 86_400_000;

export type AccountState =
  | { kind: 'unmetered' }
  | { kind: 'trial'; subscription: Subscription; plan: Plan; endsAt: string; cap: number }
  | { kind: 'paid'; subscription: Subscription; plan: Plan }
  | { kind: 'pending_review'; subscription: Subscription }
  | { kind: 'paused'; subscription: Subscription; code: 'trial_expired' | 'subscription_required' };

export function accountStateOf(services: Services, orgId: number): AccountState {
  if (services.config.edition !== 'cloud') return { kind: 'unmetered' };
  const subscription = subscriptionOf(services, orgId);
  if (!subscription) return { kind: 'unmetered' };
  const now = services.clock.now().getTime();
  switch (subscription.status) {
    case 'pending_review':
      return { kind: 'pending_review', subscription };
    case 'trialing': {
      const endsAt = subscription.trial_ends_at!;
      if (now >= Date.parse(endsAt)) return { kind: 'paused', subscription, code: 'trial_expired' };
      // A trial of pp's own has the configured trial plan; one the payment provider runs names its plan.
      return { kind: 'trial', subscription, plan: subscription.plan ?? services.config.billing.trial_plan, endsAt, cap: services.config.billing.trial_event_cap };
    }
    case 'active':
      return { kind: 'paid', subscription, plan: subscription.plan ?? 'free' };
    case 'past_due': {
      const since = Date.parse(subscription.past_due_since ?? subscription.updated_at ?? subscription.created_at);
      if (now < since + services.config.billing.past_due_grace_days * DAY_MS) return { kind: 'paid', subscription, plan: subscription.plan ?? 'free' };
      return { kind: 'paused', subscription, code: 'subscription_required' };
    }
    case 'cancelled':
      if (subscription.trial_state !== 'rejected' && subscription.current_period_end && now < Date.parse(subscription.current_period_end)) {
        return { kind: 'paid', subscription, plan: subscription.plan ?? 'free' };
      }
      return { kind: 'paused', subscription, code: 'subscription_required' };
  }
}

/** The organization a project belongs to (undefined for an unknown project). */
export function orgOfProject(services: Services, projectId: number): number | undefined {
  const row = cachedStatement(services.meta, 'SELECT org_id FROM projects WHERE id = ?').get(projectId) as { org_id: number } | undefined;
  return row?.org_id;
}

/** The console page where an organization's plan is chosen, named in 402 answers. */
export function billingUrl(services: Services): string {
  return `${services.config.base_url}/org/billing`;
}

export class PaymentRequiredError extends AppError {
  constructor(services: Services, code: 'trial_expired' | 'subscription_required') {
    const message = code === 'trial_expired' ? 'the trial of this organization has ended; choose a plan to continue' : 'this organization has no current subscription; choose a plan to continue';
    super(402, code, message, { billing_url: billingUrl(services) });
  }
}

export function pendingReviewError(): ForbiddenError {
  return new ForbiddenError('this organization is waiting for its trial to be activated; until then it can be read but not changed', 'trial_pending_review');
}

/** Entitlements of the organization: its plan's in the cloud (the trial plan while trialing or held), the license's otherwise. */
export function entitlementsFor(services: Services, orgId: number): ReadonlySet<Entitlement> {
  const state = accountStateOf(services, orgId);
  switch (state.kind) {
    case 'unmetered':
      return services.entitlements();
    case 'trial':
    case 'paid':
      return planEntitlements(state.plan);
    case 'pending_review':
      return planEntitlements(services.config.billing.trial_plan);
    case 'paused':
      return new Set();
  }
}

/** Throws 402 while the organization is paused: analytical queries and reports are plan-gated capabilities. */
export function requireLiveAccount(services: Services, orgId: number): void {
  const state = accountStateOf(services, orgId);
  if (state.kind === 'paused') throw new PaymentRequiredError(services, state.code);
}

/** Throws 403 `trial_pending_review` or 402 when the organization may not change anything now. */
export function requireWritableAccount(services: Services, orgId: number): void {
  const state = accountStateOf(services, orgId);
  if (state.kind === 'pending_review') throw pendingReviewError();
  if (state.kind === 'paused') throw new PaymentRequiredError(services, state.code);
}

/** The calendar month (UTC) usage is counted in, `2026-11`. */
export function usageMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function eventsThisMonth(services: Services, orgId: number): number {
  const row = cachedStatement(services.meta, 'SELECT events FROM org_usage WHERE org_id = ? AND month = ?').get(orgId, usageMonth(services.clock.now())) as { events: number } | undefined;
  return row?.events ?? 0;
}

/**
 * Whether the organization may ingest now: 403 held, 402 paused, 429 over its trial cap or monthly
 * quota. Checked before a request is read, so one request may take an organization past its quota.
 */
export function requireIngestAllowed(services: Services, orgId: number): void {
  const state = accountStateOf(services, orgId);
  switch (state.kind) {
    case 'unmetered':
      return;
    case 'pending_review':
      throw pendingReviewError();
    case 'paused':
      throw new PaymentRequiredError(services, state.code);
    case 'trial':
      if (state.subscription.trial_events >= state.cap) {
        throw new AppError(429, 'trial_quota_exceeded', `this trial has used its ${state.cap} events; choose a plan to keep collecting`, {
          billing_url: billingUrl(services),
        });
      }
      return;
    case 'paid': {
      const quota = monthlyQuota(services.config, state.plan);
      if (eventsThisMonth(services, orgId) >= quota) {
        throw new AppError(429, 'quota_exceeded', `this organization has used its ${quota} events for this month on the ${state.plan} plan`, {
          billing_url: billingUrl(services),
        });
      }
    }
  }
}

/** Counts events stored for the organization against its quotas; a no-op outside the cloud. */
export function countIngested(services: Services, orgId: number, events: number): void {
  if (services.config.edition !== 'cloud' || events <= 0) return;
  const month = usageMonth(services.clock.now());
  services.meta.transaction(() => {
    const touched = cachedStatement(services.meta, "UPDATE subscriptions SET trial_events = trial_events + ? WHERE org_id = ? AND status = 'trialing'").run(events, orgId).changes;
    const metered = touched > 0 || cachedStatement(services.meta, 'SELECT 1 FROM subscriptions WHERE org_id = ?').get(orgId) !== undefined;
    if (metered) {
      cachedStatement(services.meta, 'INSERT INTO org_usage (org_id, month, events) VALUES (?, ?, ?) ON CONFLICT (org_id, month) DO UPDATE SET events = events + excluded.events').run(
        orgId,
        month,
        events,
      );
    }
  })();
}
