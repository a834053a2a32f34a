// A plan-gated part of a page: shown when the license grants its feature, else an explanation of
// what it is and how to unlock it (a license applied by the operator).

import type { ComponentChildren } from 'preact';
import { useSession } from '../app/session';
import { FEATURES, hasFeature } from '../app/features';

export function Gated({ feature, children }: { feature: string; children: ComponentChildren }) {
  const { license } = useSession();
  if (hasFeature(license, feature)) return <>{children}</>;
  const info = FEATURES[feature];
  return (
    <div class="gated" data-feature={feature}>
      <strong>{info?.title ?? feature} needs a license</strong>
      <div>
        With the <code>{feature}</code> entitlement you get {info?.unlocks ?? 'this feature'}. An operator applies a license with <code>ppctl license apply FILE</code>; the
        organization page shows what the current one grants.
      </div>
    </div>
  );
}
