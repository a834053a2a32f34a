// The review queue of held trials, worked by an operator with `ppctl review`: the organizations
// waiting (oldest first, with what their signup came with), and the decision on one. Approving starts
// the trial, rejecting leaves the organization to choose a plan; either way its owners are emailed and
// the decision is recorded in the audit log. Moving the subscription is server/billing's.

import type { Services } from '../../http/services.js';
import { ConflictError, NotFoundError } from '../../ground/errors.js';
import { getOrganization, listMembers, type Organization } from '../../accounts/organizations.js';
import { activateTrial, rejectTrial, SubscriptionStateError, type Subscription } from '../../billing/subscriptions.js';
import { billingUrl } from '../../billing/accountState.js';
import { recordAudit } from '../../audit/recordAudit.js';
import { enqueueMail } from '../../mail/outbox.js';
import { notifyMailWorker } from '../../mail/mailWorker.js';
import { trialApprovedMessage, trialRejectedMessage } from '../../mail/trialReviewMessages.js';

export interface PendingReview {
  org_id: number;
  name: string;
  owner_email: string | null;
  created_at: string;
  trial_state: string;
  risk_rules: string[];
  company_note: string | null;
  /** Whether the signup recorded a client address and a device fingerprint (the risk signals). */
  signup_ip: boolean;
  signup_device: boolean;
}

export interface ReviewDecision {
  org_id: number;
  name: string;
  status: Subscription['status'];
  trial_state: Subscription['trial_state'];
  trial_ends_at: string | null;
  owners_emailed: string[];
}

export function listPendingReviews(services: Services): PendingReview[] {
  const rows = services.meta
    .prepare(
      `SELECT s.org_id, o.name, o.created_at, s.trial_state, g.risk_rules, g.company_note,
              g.ip IS NOT NULL AS signup_ip, g.device_fp IS NOT NULL AS signup_device,
              (SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
                WHERE m.org_id = s.org_id AND m.role = 'owner' ORDER BY m.created_at, u.id LIMIT 1) AS owner_email
         FROM subscriptions s JOIN organizations o ON o.id = s.org_id LEFT JOIN org_signups g ON g.org_id = s.org_id
        WHERE s.status = 'pending_review' ORDER BY o.created_at, o.id`,
    )
    .all() as Array<Omit<PendingReview, 'risk_rules' | 'signup_ip' | 'signup_device'> & { risk_rules: string | null; signup_ip: number | null; signup_device: number | null }>;
  return rows.map((r) => ({ ...r, risk_rules: r.risk_rules ? r.risk_rules.split(',') : [], signup_ip: r.signup_ip === 1, signup_device: r.signup_device === 1 }));
}

function requireOrg(services: Services, orgId: number): Organization {
  const org = getOrganization(services.meta, orgId);
  if (!org) throw new NotFoundError(`organization ${orgId} does not exist`);
  return org;
}

function ownerEmails(services: Services, orgId: number): string[] {
  return listMembers(services.meta, orgId)
    .filter((m) => m.role === 'owner')
    .map((m) => m.email);
}

/** Moves the subscription, emails the owners and records the audit entry in one transaction. */
function decide(services: Services, orgId: number, verdict: 'approve' | 'reject', note: string | undefined): ReviewDecision {
  const org = requireOrg(services, orgId);
  const commit = services.meta.transaction((): ReviewDecision => {
    const subscription = verdict === 'approve' ? activateTrial(services, orgId, 'review', note) : rejectTrial(services, orgId, note);
    const owners = ownerEmails(services, orgId);
    for (const to of owners) {
      enqueueMail(
        services,
        verdict === 'approve'
          ? trialApprovedMessage(services.config.base_url, to, { orgName: org.name, days: services.config.billing.trial_days, endsAt: subscription.trial_ends_at! })
          : trialRejectedMessage(billingUrl(services), to, { orgName: org.name }),
      );
    }
    recordAudit(services, { org_id: orgId, action: `org.trial.${verdict}`, target: org.name, outcome: 'success', details: note ? { note } : {} });
    const { status, trial_state, trial_ends_at } = subscription;
    return { org_id: orgId, name: org.name, status, trial_state, trial_ends_at, owners_emailed: owners };
  });
  try {
    const decision = commit();
    notifyMailWorker(services);
    return decision;
  } catch (err) {
    if (!(err instanceof SubscriptionStateError)) throw err;
    const now = err.current ? `its subscription is ${err.current.status} (trial_state ${err.current.trial_state})` : 'it has no subscription';
    throw new ConflictError(`organization ${orgId} (${org.name}) is not waiting for review: ${now}`);
  }
}

export function approveReview(services: Services, orgId: number, note?: string): ReviewDecision {
  return decide(services, orgId, 'approve', note);
}

export function rejectReview(services: Services, orgId: number, note?: string): ReviewDecision {
  return decide(services, orgId, 'reject', note);
}
