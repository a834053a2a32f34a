// Turns a route's access declaration into the steps the route table mounts around validation and
// before its handler, in one order for every route, each step with its answer:
//   1. edition (cloud-only routes are 404 on-prem), the route's own checks (budgets, origin, its
//      credential's proof), then the access token or personal API key (401; a key without the
//      scope the route takes 403);
//   2. account state of the caller's organization: a change on a held trial (403
//      `trial_pending_review`) or a paused account (402);
//   3. validation: path parameters (400), query and body (422), then the route's own body checks;
//   4. membership and role: another organization's project 404, a role too low 403, a key's
//      project restriction; then a plan-gated read on a paused account (402);
//   5. entitlements of the license or plan (403 `entitlement_required`), in the same place as the
//      body-dependent ones the handler checks (a funnel's drop-off actors);
// then the handler. A malformed request is told so before the role is looked at. The route table
// places step 3; the checks themselves are handed in (AccessChecks), so this file imports no domain.

import type { RequestHandler } from 'express';
import type { Entitlement } from '../../license/entitlements.js';
import { apiKeyScopeOf, gatedByAccountState, type Access, type ApiKeyScope, type Scope } from './access.js';
import type { Role } from './roles.js';

export interface AccessChecks {
  /** Proves an access token, or a personal API key when `apiKey` names a scope; sets `req.auth` (401 otherwise). */
  authenticate(apiKey: ApiKeyScope | 'never'): RequestHandler;
  /** 404 outside the cloud edition. */
  cloudOnly: RequestHandler;
  /** Membership of the project or organization the scope names, and the minimum role. */
  membership(scope: Scope, role: Role | undefined): RequestHandler;
  /** 403 `trial_pending_review` or 402 when the account may not change anything now. */
  writableAccount: RequestHandler;
  /** 402 while the account is paused. */
  liveAccount: RequestHandler;
  /** 403 `entitlement_required` unless the license or plan grants it. */
  entitlement(entitlement: Entitlement): RequestHandler;
}

export interface AccessSteps {
  /** Steps 1 and 2, before validation. */
  authenticate: RequestHandler[];
  /** Steps 4 and 5, after it. */
  authorize: RequestHandler[];
}

export function accessSteps(method: string, access: Access, checks: AccessChecks): AccessSteps {
  const authenticate: RequestHandler[] = [];
  if (access.cloudOnly) authenticate.push(checks.cloudOnly);
  authenticate.push(...(access.checks ?? []));
  const authorize: RequestHandler[] = [];
  if (access.credential === 'access_token') {
    authenticate.push(checks.authenticate(apiKeyScopeOf(method, access)));
    authorize.push(checks.membership(access.scope ?? 'member', access.role));
  }
  if (gatedByAccountState(method, access)) authenticate.push(checks.writableAccount);
  else if (access.liveAccount) authorize.push(checks.liveAccount);
  for (const e of access.entitlements ?? []) authorize.push(checks.entitlement(e));
  return { authenticate, authorize };
}
