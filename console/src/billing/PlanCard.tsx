// The organization page's card of a cloud organization's plan: its state in a sentence and the way
// to the billing page. It takes the place of the license card there.

import type { BillingSection } from '../app/session';
import { describeBilling } from './planWords';

export function PlanCard({ billing }: { billing: BillingSection }) {
  const words = describeBilling(billing);
  return (
    <div class="card" role="group" aria-labelledby="org-plan-title">
      <h2 id="org-plan-title">Plan</h2>
      <p data-testid="org-plan">{words.headline}</p>
      {words.detail && <p class="muted">{words.detail}</p>}
      <a href="/org/billing">Plan and billing</a>
    </div>
  );
}
