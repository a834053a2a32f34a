// Maps a license state to the plan-gated features it unlocks. Route gating and the
// 403 `entitlement_required` answer belong to the server.
import { KNOWN_FEATURES } from './licenseClaims.js';
import type { LicenseState } from './licenseState.js';

export type Entitlement = (typeof KNOWN_FEATURES)[number];

export function isEntitlement(name: string): name is Entitlement {
  return (KNOWN_FEATURES as readonly string[]).includes(name);
}

// Grace keeps features on (the customer is renewing); expired and absent grant none.
export function entitlementsOf(state: LicenseState): Set<Entitlement> {
  if (state.status !== 'valid' && state.status !== 'expiring' && state.status !== 'grace') return new Set();
  return new Set(state.features.filter(isEntitlement));
}
