// Wires the license into the HTTP app: the bootstrap response's `license` section (status,
// licensee, expiry, features, days left, warnings) wherever the license decides entitlements: on-prem,
// and for a cloud organization without a subscription; elsewhere plans take its place (server/billing). Applying a license is a ppctl command, not a route.

import type { Domain } from '../http/domain.js';
import { registerBootstrapSection, type BootstrapContext } from '../http/bootstrapSections.js';
import { accountStateOf } from '../billing/accountState.js';
import type { Services } from '../http/services.js';

export function licenseSection(services: Services, context: BootstrapContext): Record<string, unknown> | undefined {
  if (accountStateOf(services, context.orgId).kind !== 'unmetered') return undefined;
  const r = services.license.report();
  return {
    status: r.status,
    licensee: r.licensee,
    edition: r.edition,
    expires_at: r.expires_at,
    grace_ends_at: r.grace_ends_at,
    days_left: r.days_left,
    features: [...services.entitlements()].sort(),
    warnings: r.clock_warning ? [...r.warnings, r.clock_warning] : r.warnings,
  };
}

export const licenseDomain: Domain = {
  name: 'license',
  openapi: { paths: {} },
  mount() {
    registerBootstrapSection('license', licenseSection);
  },
};
