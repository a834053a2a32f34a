// Which cabinet operations a held or paused cloud organization may still call. Reads always work;
// an operation that changes the organization or its projects is refused while the trial waits for
// activation (403 `trial_pending_review`) or the account is paused (402). The caller's own security
// (password, two-factor, sessions) and the sign-in family stay open, so nobody is locked out of
// the account that has to be activated or paid for.

import type { RequestHandler } from 'express';
import type { Method } from '../http/openapi.js';
import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { orgOfProject, requireWritableAccount } from './accountState.js';

/** POST operations under /projects that read: queries and results, previews, tests of a rule. */
const READING_POSTS = [
  /^\/api\/v1\/projects\/\{id\}\/queries\//,
  /\/result$/,
  /^\/api\/v1\/projects\/\{id\}\/labeled-events\/preview$/,
  /^\/api\/v1\/projects\/\{id\}\/path-cleaning\/test$/,
];

/** Whether an operation of the cabinet (organizations and projects) changes something. */
export function isCabinetMutation(method: Method, path: string): boolean {
  if (!path.startsWith('/api/v1/projects') && !path.startsWith('/api/v1/orgs/')) return false;
  if (method === 'get') return false;
  if (method === 'post' && READING_POSTS.some((re) => re.test(path))) return false;
  return !isBillingOperation(path);
}

/** Choosing a plan is what ends a pause, so it is never refused for one. */
function isBillingOperation(path: string): boolean {
  return path.startsWith('/api/v1/orgs/{orgID}/billing');
}

/** Placed after authentication on every cabinet mutation; a no-op on-prem. */
export function accountGate(services: Services, method: Method, path: string): RequestHandler | undefined {
  if (services.config.edition !== 'cloud' || !isCabinetMutation(method, path)) return undefined;
  return (req, _res, next) => {
    const orgId = req.auth?.orgId ?? (req.releaseToken ? orgOfProject(services, req.releaseToken.project_id) : undefined);
    if (orgId !== undefined) requireWritableAccount(services, orgId);
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
