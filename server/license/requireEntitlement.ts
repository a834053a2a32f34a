// The check every plan-gated route makes. Entitlements come from the installation's verified license
// (none without one) on-prem, and from the organization's plan in the cloud (server/billing); one
// function decides for both. Ingestion, reports and export never depend on them.

import type { Services } from '../http/services.js';
import { ForbiddenError } from '../ground/errors.js';
import { entitlementsFor } from '../billing/accountState.js';

import type { Entitlement } from '../../license/entitlements.js';

export type { Entitlement };

export function hasEntitlement(services: Services, orgId: number, entitlement: Entitlement): boolean {
  return entitlementsFor(services, orgId).has(entitlement);
}

/** Throws 403 `entitlement_required` with `details.entitlement` when the license or plan does not grant it. */
export function requireEntitlement(services: Services, orgId: number, entitlement: Entitlement): void {
  if (!hasEntitlement(services, orgId, entitlement)) {
    const grantor = services.config.edition === 'cloud' ? "the organization's plan" : 'the current license';
    throw new ForbiddenError(`this needs the ${entitlement} entitlement, which ${grantor} does not grant`, 'entitlement_required', {
      entitlement,
    });
  }
}
