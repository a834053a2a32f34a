// What the console shows when the server refuses because of the organization's account state: 403
// `trial_pending_review` while a held trial waits (changes paused) and 402 `trial_expired` or
// `subscription_required` while the organization is paused. ui/states.tsx routes every error note
// and main answer through here, so a page needs nothing of its own for them.

import { ApiError } from '../api/client';
import { useSession } from '../app/session';
import { isAdminRole } from './planWords';
import './billing.css';

export type AccountLimit = 'trial_pending_review' | 'trial_expired' | 'subscription_required';

export function accountLimitOf(error: unknown): AccountLimit | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 403 && error.code === 'trial_pending_review') return error.code;
  if (error.status === 402 && (error.code === 'trial_expired' || error.code === 'subscription_required')) return error.code;
  return undefined;
}

export const isPaused = (limit: AccountLimit | undefined): limit is 'trial_expired' | 'subscription_required' => limit === 'trial_expired' || limit === 'subscription_required';

const PAUSED_TITLE = { trial_expired: 'Your trial has ended', subscription_required: 'A subscription is needed' } as const;

/** The error line of an action refused for the account state, with where to go about it. */
export function AccountLimitNote({ limit }: { limit: AccountLimit }) {
  const { me, billing } = useSession();
  const admin = isAdminRole(me?.org.role);
  if (limit === 'trial_pending_review') {
    const bySms = billing?.trial_state === 'sms_required';
    return (
      <div class="error-note" role="alert" data-code={limit}>
        <strong>Changes are paused while your trial waits for activation.</strong>{' '}
        {bySms ? 'It starts once a mobile phone number is confirmed. ' : 'We review new organizations within one business day. '}
        {bySms && admin ? <a href="/trial/activate">Confirm with your phone</a> : me && <a href="/org/billing">See what is awaited</a>}
      </div>
    );
  }
  return (
    <div class="error-note" role="alert" data-code={limit}>
      <strong>{PAUSED_TITLE[limit]}.</strong> Changes are paused until {admin ? 'you choose' : 'an owner or admin chooses'} a plan.{' '}
      {me && <a href="/org/billing">{admin ? 'Choose a plan' : 'See plans and billing'}</a>}
    </div>
  );
}

/** In place of a page's main answer while the organization is paused. */
export function PausedPanel({ limit }: { limit: 'trial_expired' | 'subscription_required' }) {
  const { me } = useSession();
  const admin = isAdminRole(me?.org.role);
  return (
    <div class="paused-panel" role="group" aria-labelledby="paused-title" data-code={limit}>
      <h2 id="paused-title">{PAUSED_TITLE[limit]}</h2>
      <p>
        {limit === 'trial_expired' ? 'The trial of this organization is over, ' : 'This organization has no current subscription, '}
        so this report, changes and data collection are paused. Everything collected so far is kept and comes back with a plan.
      </p>
      {me && (
        <p>
          {admin ? (
            <a class="button primary" href="/org/billing">
              Choose a plan
            </a>
          ) : (
            <>
              An owner or admin of the organization chooses the plan. <a href="/org/billing">See plans and billing</a>
            </>
          )}
        </p>
      )}
    </div>
  );
}
