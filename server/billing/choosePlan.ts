// Choosing a plan from the console. The free plan needs no payment and starts at once; a paid plan
// is bought at the payment provider's checkout, whose callback (payments.ts) then moves the
// subscription, so choosing one only answers where to pay.

import type { Services } from '../http/services.js';
import { ConflictError, NotFoundError } from '../ground/errors.js';
import { accountStateOf, pendingReviewError } from './accountState.js';
import type { Plan } from './plans.js';

export type PlanChoice = { plan: 'free'; subscription: 'active' } | { plan: Exclude<Plan, 'free'>; checkout_url: string };

export function choosePlan(services: Services, orgId: number, plan: Plan, email: string): PlanChoice {
  const state = accountStateOf(services, orgId);
  if (state.kind === 'unmetered') throw new NotFoundError('this organization has no subscription to change');
  if (state.kind === 'pending_review') throw pendingReviewError();
  const paying = state.kind === 'paid' && state.subscription.status !== 'cancelled';
  if (paying && state.plan === plan) throw new ConflictError(`the organization is already on the ${plan} plan`);
  if (plan !== 'free') return { plan, checkout_url: checkoutUrl(services, orgId, plan, email) };
  if (paying) {
    throw new ConflictError(`the organization pays for the ${state.plan} plan; cancel it with the payment provider before moving to the free plan`);
  }
  const now = services.clock.now().toISOString();
  services.meta
    .prepare(
      `UPDATE subscriptions SET status = 'active', plan = 'free', trial_state = CASE WHEN trial_state = 'rejected' THEN trial_state ELSE 'converted' END,
              past_due_since = NULL, current_period_end = NULL, updated_at = ? WHERE org_id = ?`,
    )
    .run(now, orgId);
  return { plan: 'free', subscription: 'active' };
}

function checkoutUrl(services: Services, orgId: number, plan: Plan, email: string): string {
  const template = services.config.billing.checkout_url;
  if (template === undefined) throw new ConflictError('paid plans are not sold on this installation (billing.checkout_url is not set)');
  return template.replaceAll('{org_id}', String(orgId)).replaceAll('{plan}', encodeURIComponent(plan)).replaceAll('{email}', encodeURIComponent(email));
}
