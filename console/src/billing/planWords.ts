// The words for a cloud organization's subscription: plan names, and its state in a sentence with
// what is awaited or when something stops. The billing page, the organization page and the banner
// all say it the same way.

import type { BillingSection } from '../app/session';
import { formatDate } from '../ui/format';

export type Plan = 'free' | 'growth' | 'scale';

const NAMES: Record<Plan, string> = { free: 'Free', growth: 'Growth', scale: 'Scale' };

export const planName = (plan: Plan | null | undefined): string => (plan ? NAMES[plan] : 'No plan');

export const dayCount = (n: number): string => `${n} day${n === 1 ? '' : 's'}`;

export const isAdminRole = (role: string | undefined): boolean => role === 'owner' || role === 'admin';

const PAUSED = 'Reports, changes and data collection are paused until a plan is chosen; everything collected so far is kept.';

export interface BillingWords {
  headline: string;
  /** What is awaited, or until when things keep working. */
  detail?: string;
}

export function describeBilling(b: BillingSection): BillingWords {
  switch (b.access) {
    case 'trial_pending_review':
      return {
        headline: `Trial of the ${planName(b.plan)} plan, waiting for activation`,
        detail:
          b.trial_state === 'sms_required'
            ? 'An owner or admin confirms a mobile phone number with a code sent by SMS, and the trial starts. Until then you can look around, but changes are paused.'
            : 'We review new organizations within one business day and email you when the trial starts. Until then you can look around, but changes are paused.',
      };
    case 'trial_expired':
      return { headline: `The trial ended on ${formatDate(b.trial_ends_at)}`, detail: PAUSED };
    case 'subscription_required': {
      if (b.trial_state === 'rejected') return { headline: 'No subscription', detail: `The trial was not activated after its review. ${PAUSED}` };
      const ended = b.status === 'past_due' ? b.grace_ends_at : b.current_period_end;
      return { headline: ended ? `The subscription ended on ${formatDate(ended)}` : 'No current subscription', detail: PAUSED };
    }
    default:
  }
  switch (b.status) {
    case 'trialing':
      return { headline: `Trial of the ${planName(b.plan)} plan, ${dayCount(b.trial_days_left ?? 0)} left, ends ${formatDate(b.trial_ends_at)}` };
    case 'past_due':
      return {
        headline: `${planName(b.plan)} plan, payment overdue`,
        detail: `The last payment did not go through. Everything keeps working until ${formatDate(b.grace_ends_at)}; then reports, changes and data collection pause until it is paid.`,
      };
    case 'cancelled':
      return { headline: `${planName(b.plan)} plan, cancelled`, detail: `It keeps working until ${formatDate(b.current_period_end)}.` };
    default:
      return { headline: `${planName(b.plan)} plan`, detail: b.current_period_end ? `The current period ends on ${formatDate(b.current_period_end)}.` : undefined };
  }
}
