// The account-state steps of the access checks (server/access/guard.ts). Reads always work; an
// operation declared as changing the organization or its projects is refused while the trial waits
// for activation (403 `trial_pending_review`) or the account is paused (402), and a plan-gated read
// is refused while paused (402). Which operations are changes is each route's declaration; the
// caller's own security and the sign-in family are not, so nobody is locked out of the account that
// has to be activated or paid for.

import type { Request, RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { orgOfProject, requireLiveAccount, requireWritableAccount } from './accountState.js';

function orgOfCaller(services: Services, req: Request): number | undefined {
  return req.project?.org_id ?? req.auth?.orgId ?? (req.releaseToken ? orgOfProject(services, req.releaseToken.project_id) : undefined);
}

/** Before a declared change; a no-op on-prem. */
export function writableAccount(services: Services): RequestHandler {
  return (req, _res, next) => {
    const orgId = services.config.edition === 'cloud' ? orgOfCaller(services, req) : undefined;
    if (orgId !== undefined) requireWritableAccount(services, orgId);
    next();
  };
}

/** Before a declared plan-gated read. */
export function liveAccount(services: Services): RequestHandler {
  return (req, _res, next) => {
    const orgId = orgOfCaller(services, req);
    if (orgId !== undefined) requireLiveAccount(services, orgId);
    next();
  };
}

/** For operations of the cloud edition only: on-prem they do not exist (404). */
export function cloudOnly(services: Services): RequestHandler {
  return (req, _res, next) => {
    if (services.config.edition !== 'cloud') throw new NotFoundError(`${req.path} exists only in the cloud edition`);
    next();
  };
}
