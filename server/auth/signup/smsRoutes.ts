// HTTP for activating a held trial by SMS, called by the signed-in owner or admin of the organization
// in the access token. Both operations spend the sign-in group's budgets (the address, and the
// caller's email as code guesses do) and exist only in the cloud edition.

import type { Request } from 'express';
import type { RouteTable } from '../../http/routeTable.js';
import { member, type Access } from '../../access/access.js';
import type { Services } from '../../http/services.js';
import type { Subscription } from '../../billing/subscriptions.js';
import { getUser } from '../../accounts/users.js';
import { spendEmailBudget } from '../authLimits.js';
import { sendActivationCode, verifyActivationCode } from './smsActivation.js';

function spendCallerBudget(services: Services, req: Request): void {
  spendEmailBudget(services, getUser(services.meta, req.auth!.userId)!.email);
}

function presentActivation(subscription: Subscription) {
  return {
    org: { id: subscription.org_id, trial_state: subscription.trial_state },
    subscription: { status: subscription.status, trial_started_at: subscription.trial_started_at, trial_ends_at: subscription.trial_ends_at },
  };
}

export function mountSmsActivationRoutes(routes: RouteTable, services: Services, signInGroup: Access): void {
  // Activation is what lifts the hold, so it stays open while the account is held; never a key.
  const ownerOrAdmin = member('admin', { cloudOnly: true, checks: signInGroup.checks, openWhilePaused: true, apiKey: 'never' });

  routes.post('/api/v1/auth/trial/sms', ownerOrAdmin, (req, res) => {
    spendCallerBudget(services, req);
    res.status(202).json(sendActivationCode(services, req.auth!.orgId, req.body.phone));
  });

  routes.post('/api/v1/auth/trial/sms/verify', ownerOrAdmin, (req, res) => {
    spendCallerBudget(services, req);
    res.json(presentActivation(verifyActivationCode(services, req.auth!, req.body.code)));
  });
}
