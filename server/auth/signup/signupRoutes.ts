// HTTP for the verify family of trial-first signup (verify, resend, request-invite, domain-review),
// and the mount point of SMS activation (smsRoutes.ts). Registration itself stays on /auth/register
// (server/auth/routes.ts), which hands over to startTrialSignup in this mode. Every operation spends
// the sign-in group's budgets.

import type { Request, RequestHandler, Response } from 'express';
import type { RouteTable } from '../../http/routeTable.js';
import type { Access } from '../../access/access.js';
import type { Services } from '../../http/services.js';
import { NotFoundError } from '../../ground/errors.js';
import { setRefreshCookie } from '../refreshCookie.js';
import { spendEmailBudget } from '../authLimits.js';
import { clientOf, signIn } from '../signIn.js';
import { requestDomainReview, requestInvite, verifySignup, type SignupProof, type TrialAccount } from './completeSignup.js';
import { resendVerification } from './startSignup.js';
import { mountSmsActivationRoutes } from './smsRoutes.js';

export function isTrialFirst(services: Services): boolean {
  return services.config.signup_mode === 'trial_first';
}

/** Outside trial-first mode the verify family does not exist on this installation. */
function trialFirstOnly(services: Services): RequestHandler {
  return (req, _res, next) => {
    if (!isTrialFirst(services)) throw new NotFoundError(`${req.path} is only available with signup_mode trial_first`);
    next();
  };
}

/** The proof in the body; an address that is named spends its per-email budget, as at sign-in. */
function proofOf(services: Services, req: Request): SignupProof {
  const { email, code, token } = req.body as SignupProof;
  if (email !== undefined) spendEmailBudget(services, email);
  return { email, code, token };
}

async function sendAccount(res: Response, services: Services, req: Request, account: TrialAccount): Promise<void> {
  const signedIn = await signIn(services, account.user, account.org, clientOf(req));
  setRefreshCookie(res, services.config, signedIn.refreshToken);
  res.status(201).json({ ...signedIn.body, org: { ...signedIn.body.org, trial_state: account.org.trial_state } });
}

export function mountSignupRoutes(routes: RouteTable, services: Services, signInGroup: Access): void {
  const group: Access = { ...signInGroup, checks: [...(signInGroup.checks ?? []), trialFirstOnly(services)] };

  routes.post('/api/v1/auth/register/verify', group, async (req, res) => {
    await sendAccount(res, services, req, verifySignup(services, proofOf(services, req)));
  });

  routes.post('/api/v1/auth/register/resend', group, (req, res) => {
    spendEmailBudget(services, req.body.email);
    res.status(202).json(resendVerification(services, req.body.email, req.body.timezone));
  });

  routes.post('/api/v1/auth/register/request-invite', group, (req, res) => {
    requestInvite(services, proofOf(services, req));
    res.status(202).json({ owner_notified: true });
  });

  routes.post('/api/v1/auth/register/domain-review', group, async (req, res) => {
    await sendAccount(res, services, req, requestDomainReview(services, proofOf(services, req), req.body.company_note));
  });

  mountSmsActivationRoutes(routes, services, signInGroup);
}
