// A plan-gated part of a page: shown when the organization has its feature, else an explanation of
// what it is and how to unlock it (on-prem a license applied by the operator, in the cloud a plan).

import type { ComponentChildren } from 'preact';
import { useSession } from '../app/session';
import { FEATURES, hasFeature } from '../app/features';
import { planName } from '../billing/planWords';

export function Gated({ feature, children }: { feature: string; children: ComponentChildren }) {
  const session = useSession();
  if (hasFeature(session, feature)) return <>{children}</>;
  const info = FEATURES[feature];
  if (session.billing) {
    const plans = session.billing.plans.filter((p) => p.entitlements?.includes(feature)).map((p) => planName(p.plan));
    return (
      <div class="gated" data-feature={feature}>
        <strong>{info?.title ?? feature} is not in your plan</strong>
        <div>
          With it you get {info?.unlocks ?? 'more'}. {plans.length > 0 && `It comes with the ${plans.join(' and ')} plan${plans.length > 1 ? 's' : ''}. `}
          <a href="/org/billing">See plans and billing</a>
        </div>
      </div>
    );
  }
  return (
    <div class="gated" data-feature={feature}>
      <strong>{info?.title ?? feature} needs a license</strong>
      <div>
        With the <code>{feature}</code> entitlement you get {info?.unlocks ?? 'this feature'}. An operator applies a license with <code>ppctl license apply FILE</code>; the organization page shows
        what the current one grants.
      </div>
    </div>
  );
}
