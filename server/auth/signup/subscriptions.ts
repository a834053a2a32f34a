// The subscription each trial-first signup creates for its organization, and the signals the signup
// came with (address, device, first-touch UTM), which later risk checks compare against. Plans, SMS
// activation and the review queue build on these rows.

import type { Services } from '../../services.js';

export type SubscriptionStatus = 'trialing' | 'pending_review';
export type TrialState = 'trialing' | 'sms_required' | 'pending_review';

export interface SignupRecord {
  email: string;
  ip: string | null;
  deviceFp: string | null;
  utm: string | null;
  companyNote?: string;
  riskRules: string[];
}

/** Writes both rows; call inside the transaction that creates the organization. */
export function recordOrgSignup(services: Services, orgId: number, state: { status: SubscriptionStatus; trialState: TrialState }, signup: SignupRecord): void {
  const now = services.clock.now().toISOString();
  services.meta
    .prepare('INSERT INTO subscriptions (org_id, status, trial_state, trial_started_at, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(orgId, state.status, state.trialState, now, now);
  services.meta
    .prepare('INSERT INTO org_signups (org_id, email, ip, device_fp, utm, company_note, risk_rules, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(orgId, signup.email, signup.ip, signup.deviceFp, signup.utm, signup.companyNote ?? null, signup.riskRules.length ? signup.riskRules.join(',') : null, now);
}

export function subscriptionOf(services: Services, orgId: number): { status: SubscriptionStatus; trial_state: TrialState; trial_started_at: string } | undefined {
  return services.meta.prepare('SELECT status, trial_state, trial_started_at FROM subscriptions WHERE org_id = ?').get(orgId) as
    | { status: SubscriptionStatus; trial_state: TrialState; trial_started_at: string }
    | undefined;
}
