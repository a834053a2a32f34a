// The banner above every signed-in page of a cloud organization whose account needs attention: a
// held trial (what is awaited, and the phone step for owners and admins), a paused account, a trial
// in its last three days, an overdue payment. Nothing shows otherwise, nor on-prem.

import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession, type BillingSection } from '../app/session';
import { formatDate } from '../ui/format';
import { dayCount, isAdminRole, planName } from './planWords';
import './billing.css';

const REMIND_DAYS = 3;

function Banner({ tone, children }: { tone: 'held' | 'paused' | 'reminder'; children: ComponentChildren }) {
  return (
    <div class={`account-banner ${tone}`} role="status" data-testid="account-banner">
      {children}
    </div>
  );
}

export function AccountBanner() {
  const { me, billing } = useSession();
  const { path } = useLocation();
  if (!me || !billing) return null;
  const admin = isAdminRole(me.org.role);
  const toBilling = (label: string) => path !== '/org/billing' && <a href="/org/billing">{label}</a>;
  const choose = admin ? 'Choose a plan' : 'See plans and billing';

  if (billing.access === 'trial_pending_review') {
    const bySms = billing.trial_state === 'sms_required';
    return (
      <Banner tone="held">
        <strong>Your trial is waiting for activation</strong> — you can look around, but changes are paused.{' '}
        {bySms ? (
          admin ? (
            <>
              Confirm a mobile phone number to start it.{' '}
              {path !== '/trial/activate' && (
                <a class="button primary small" href="/trial/activate">
                  Confirm with your phone
                </a>
              )}
            </>
          ) : (
            'An owner or admin of the organization starts it by confirming a mobile phone number.'
          )
        ) : (
          'We review new organizations within one business day and email you when the trial starts.'
        )}
      </Banner>
    );
  }
  if (billing.access === 'trial_expired' || billing.access === 'subscription_required') {
    return (
      <Banner tone="paused">
        <strong>{billing.access === 'trial_expired' ? 'Your trial has ended' : 'A subscription is needed'}</strong> — reports, changes and data collection are paused until{' '}
        {admin ? 'you choose' : 'an owner or admin chooses'} a plan. {toBilling(choose)}
      </Banner>
    );
  }
  const reminder = reminderOf(billing);
  return reminder ? (
    <Banner tone="reminder">
      {reminder} {toBilling(choose)}
    </Banner>
  ) : null;
}

/** A gentle word before something stops: a trial's last days, an overdue payment. */
function reminderOf(billing: BillingSection): string | undefined {
  if (billing.status === 'trialing' && billing.trial_days_left !== null && billing.trial_days_left <= REMIND_DAYS) {
    return `Your trial of the ${planName(billing.plan)} plan ends in ${dayCount(billing.trial_days_left)}, on ${formatDate(billing.trial_ends_at)}. Choose a plan to keep everything running.`;
  }
  if (billing.status === 'past_due' && billing.grace_ends_at) {
    return `The last payment did not go through. Everything keeps working until ${formatDate(billing.grace_ends_at)}.`;
  }
  return undefined;
}
