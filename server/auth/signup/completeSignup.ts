// The second half of trial-first signup: proving the address (email plus code, or the link token) and
// what follows: an account with a subscription (verify, domain review) or a note to a colleague's
// organization (request-invite). Every defect of the proof answers the same 422, so nobody learns
// whether an address has a pending signup.

import type { Services } from '../../http/services.js';
import { ValidationError } from '../../ground/errors.js';
import { findUserByEmail, type User } from '../../accounts/users.js';
import type { OrgMembership } from '../../accounts/organizations.js';
import { enqueueMail } from '../../mail/outbox.js';
import { notifyMailWorker } from '../../mail/mailWorker.js';
import { inviteRequestMessage } from '../../mail/messages.js';
import { createOwnerAccount, defaultOrgName } from '../register.js';
import { DomainHasOrgError, findDomainConflict, type DomainConflict } from './domainRule.js';
import { riskRulesHit } from './riskRules.js';
import { recordOrgSignup, type SubscriptionStatus, type TrialState } from './subscriptions.js';
import { codeMatches, countWrongCode, liveSignupByEmail, liveSignupById, liveSignupByToken, markConsumed, type PendingSignup } from './verifications.js';

/** What the verify family sends to prove the address: the link token, or the address with its code. */
export interface SignupProof {
  email?: string;
  code?: string;
  token?: string;
}

export interface TrialAccount {
  user: User;
  org: OrgMembership & { trial_state: TrialState };
}

function invalidProof(proof: SignupProof): ValidationError {
  return new ValidationError('invalid or expired verification code', proof.token !== undefined ? 'token' : 'code');
}

/**
 * The live signup the proof opens. A wrong code counts against the signup (more than 10 and it is
 * dead); unknown, expired, used and dead signups look exactly like a wrong code.
 */
export function resolveProof(services: Services, proof: SignupProof): PendingSignup {
  if (proof.token !== undefined) {
    const row = liveSignupByToken(services, proof.token);
    if (!row) throw invalidProof(proof);
    return row;
  }
  if (proof.email === undefined || proof.code === undefined) throw new ValidationError('send email and code, or the link token', proof.email === undefined ? 'email' : 'code');
  const row = liveSignupByEmail(services, proof.email);
  if (!row) throw invalidProof(proof);
  if (!codeMatches(services, row, proof.code)) {
    countWrongCode(services, row.id);
    throw invalidProof(proof);
  }
  return row;
}

function noConflict(): ValidationError {
  return new ValidationError('no organization on pp uses this email domain; verify the address instead', 'email');
}

/**
 * Creates user, organization (owner), first project and subscription in one transaction, spending the
 * signup. The row is read again inside: a concurrent request may have spent it meanwhile.
 */
function createTrialAccount(
  services: Services,
  signupId: number,
  proof: SignupProof,
  decide: (signup: PendingSignup) => { status: SubscriptionStatus; trialState: TrialState; riskRules: string[]; companyNote?: string },
): TrialAccount {
  const create = services.meta.transaction(() => {
    const signup = liveSignupById(services, signupId);
    if (!signup || findUserByEmail(services.meta, signup.email)) throw invalidProof(proof);
    const outcome = decide(signup);
    markConsumed(services, signup.id);
    const orgName = signup.org_name ?? defaultOrgName({ email: signup.email, name: signup.name ?? undefined });
    const { user, org } = createOwnerAccount(services, { email: signup.email, passwordHash: signup.password_hash, name: signup.name, orgName, timezone: 'UTC' }, services.clock.now());
    recordOrgSignup(services, org.id, outcome, {
      email: signup.email,
      ip: signup.ip,
      deviceFp: signup.device_fp,
      utm: signup.utm,
      companyNote: outcome.companyNote,
      riskRules: outcome.riskRules,
    });
    return { user, org: { ...org, trial_state: outcome.trialState } };
  });
  return create();
}

/** POST /auth/register/verify: 201 with a trial, or with a held trial when a risk rule hits; 409 on a taken company domain. */
export function verifySignup(services: Services, proof: SignupProof): TrialAccount {
  const signup = resolveProof(services, proof);
  const conflict = findDomainConflict(services, signup.email);
  if (conflict) throw new DomainHasOrgError(conflict);
  return createTrialAccount(services, signup.id, proof, (live) => {
    const riskRules = riskRulesHit(services, live);
    return riskRules.length > 0 ? { status: 'pending_review', trialState: 'sms_required', riskRules } : { status: 'trialing', trialState: 'trialing', riskRules };
  });
}

function requireConflict(services: Services, signup: PendingSignup): DomainConflict {
  const conflict = findDomainConflict(services, signup.email);
  if (!conflict) throw noConflict();
  return conflict;
}

/** POST /auth/register/request-invite: the organization's owner is emailed and the signup is spent; nothing is created. */
export function requestInvite(services: Services, proof: SignupProof): void {
  const signup = resolveProof(services, proof);
  const conflict = requireConflict(services, signup);
  const notify = services.meta.transaction(() => {
    if (!liveSignupById(services, signup.id)) throw invalidProof(proof);
    markConsumed(services, signup.id);
    enqueueMail(services, inviteRequestMessage(services.config.base_url, conflict.ownerEmail, { requester: signup.email, orgName: conflict.orgName }));
  });
  notify();
  notifyMailWorker(services);
}

/** POST /auth/register/domain-review: an organization of their own, held for manual review. */
export function requestDomainReview(services: Services, proof: SignupProof, companyNote: string | undefined): TrialAccount {
  const signup = resolveProof(services, proof);
  requireConflict(services, signup);
  return createTrialAccount(services, signup.id, proof, () => ({
    status: 'pending_review',
    trialState: 'pending_review',
    riskRules: [],
    companyNote: companyNote?.trim() || undefined,
  }));
}
