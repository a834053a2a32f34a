// The check every plan-gated route makes. Entitlements come from the installation's verified license
// (none without one); ingestion, reports and export never depend on them.

import type { Services } from '../services.js';
import { ForbiddenError } from '../http/errors.js';

import type { Entitlement } from '../../license/entitlements.js';

export type { Entitlement };

export function hasEntitlement(services: Services, entitlement: Entitlement): boolean {
  return services.entitlements().has(entitlement);
}

/** Throws 403 `entitlement_required` with `details.entitlement` when the license does not grant it. */
export function requireEntitlement(services: Services, entitlement: Entitlement): void {
  if (!hasEntitlement(services, entitlement)) {
    throw new ForbiddenError(`this needs the ${entitlement} entitlement, which the current license does not grant`, 'entitlement_required', {
      entitlement,
    });
  }
}
