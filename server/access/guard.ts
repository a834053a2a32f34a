// Turns a route's access declaration into the steps the route table mounts before its handlers, in
// one order for every route:
//   1. edition (cloud-only routes are 404 on-prem), the route's own checks (budgets, origin,
//      its credential's proof), then the access token or personal API key (401);
//   2. path parameters, which name the project or organization (400);
//   3. membership and role: the project or organization must be the caller's (404), the role
//      high enough (403), a personal key's project restriction respected;
//   4. account state: a mutation on a held trial (403) or a paused account (402), a plan-gated read
//      on a paused account (402);
//   5. validation of query and body (422): the schema, then the route's own checks;
//   6. entitlements of the license or plan (403 `entitlement_required`), after validation so that a
//      route whose entitlement depends on the body (a funnel's drop-off actors) answers in the same
//      order as one that always needs it;
// then the handler. The route table places steps 2 and 5; the checks themselves are handed in
// (AccessChecks), so this folder imports no domain.

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
  /** Step 1, before path parameters are read. */
  authenticate: RequestHandler[];
  /** Steps 3 and 4, after them. */
  authorize: RequestHandler[];
  /** Step 6, after validation. */
  entitle: RequestHandler[];
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
  if (gatedByAccountState(method, access)) authorize.push(checks.writableAccount);
  else if (access.liveAccount) authorize.push(checks.liveAccount);
  const entitle = (access.entitlements ?? []).map((e) => checks.entitlement(e));
  return { authenticate, authorize, entitle };
}
