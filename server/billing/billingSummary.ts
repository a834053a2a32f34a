// What an organization sees of its subscription: the state, the plan in force and what it unlocks,
// the event usage against its limit, and the plans it may choose. The same objects are the
// `billing` and `usage` sections of the bootstrap response and the body of GET …/billing.

import type { Services } from '../http/services.js';
import { accountStateOf, billingUrl, eventsThisMonth, entitlementsFor, usageMonth, type AccountState } from './accountState.js';
import { monthlyQuota, planCatalog, type Plan } from './plans.js';

const DAY_MS = 86_400_000;

export interface BillingSection {
  status: string;
  /** Why the organization is limited now: null, `trial_pending_review`, `trial_expired` or `subscription_required`. */
  access: null | 'trial_pending_review' | 'trial_expired' | 'subscription_required';
  trial_state: string;
  plan: Plan | null;
  trial_started_at: string;
  trial_ends_at: string | null;
  trial_days_left: number | null;
  current_period_end: string | null;
  past_due_since: string | null;
  grace_ends_at: string | null;
  entitlements: string[];
  billing_url: string;
  checkout_available: boolean;
  plans: ReturnType<typeof planCatalog>;
}

export interface UsageSection {
  month: string;
  events_this_month: number;
  trial_events: number;
  /** The limit that applies now: the trial's total cap or the plan's monthly quota (null while held or paused). */
  limit: number | null;
  limit_kind: 'trial_total' | 'monthly' | null;
}

function trialStateOf(state: AccountState & { kind: Exclude<AccountState['kind'], 'unmetered'> }): string {
  if (state.kind === 'paused' && state.code === 'trial_expired') return 'expired';
  return state.subscription.trial_state;
}

function planOf(services: Services, state: AccountState): Plan | null {
  if (state.kind === 'trial' || state.kind === 'paid') return state.plan;
  if (state.kind === 'pending_review') return services.config.billing.trial_plan;
  return null;
}

/** Undefined on-prem and for an organization without a subscription (nothing is metered). */
export function billingSection(services: Services, orgId: number): BillingSection | undefined {
  const state = accountStateOf(services, orgId);
  if (state.kind === 'unmetered') return undefined;
  const s = state.subscription;
  const now = services.clock.now().getTime();
  const graceEnds = s.status === 'past_due' && s.past_due_since ? new Date(Date.parse(s.past_due_since) + services.config.billing.past_due_grace_days * DAY_MS).toISOString() : null;
  return {
    status: s.status,
    access: state.kind === 'pending_review' ? 'trial_pending_review' : state.kind === 'paused' ? state.code : null,
    trial_state: trialStateOf(state),
    plan: planOf(services, state),
    trial_started_at: s.trial_started_at,
    trial_ends_at: s.trial_ends_at,
    trial_days_left: s.status === 'trialing' && s.trial_ends_at ? Math.max(0, Math.ceil((Date.parse(s.trial_ends_at) - now) / DAY_MS)) : null,
    current_period_end: s.current_period_end,
    past_due_since: s.past_due_since,
    grace_ends_at: graceEnds,
    entitlements: [...entitlementsFor(services, orgId)].sort(),
    billing_url: billingUrl(services),
    checkout_available: services.config.billing.checkout_url !== undefined,
    plans: planCatalog(services.config),
  };
}

export function usageSection(services: Services, orgId: number): UsageSection | undefined {
  const state = accountStateOf(services, orgId);
  if (state.kind === 'unmetered') return undefined;
  const limit =
    state.kind === 'trial'
      ? { limit: state.cap, limit_kind: 'trial_total' as const }
      : state.kind === 'paid'
        ? { limit: monthlyQuota(services.config, state.plan), limit_kind: 'monthly' as const }
        : { limit: null, limit_kind: null };
  return {
    month: usageMonth(services.clock.now()),
    events_this_month: eventsThisMonth(services, orgId),
    trial_events: state.subscription.trial_events,
    ...limit,
  };
}
