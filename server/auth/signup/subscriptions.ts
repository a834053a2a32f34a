// The subscription each trial-first signup creates for its organization, and the signals the signup
// came with (address, device, first-touch UTM), which later risk checks compare against. The
// subscription's later life is server/billing's.

import type { Services } from '../../http/services.js';
import { insertSubscription } from '../../billing/subscriptions.js';

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
  insertSubscription(services, orgId, state);
  services.meta
    .prepare('INSERT INTO org_signups (org_id, email, ip, device_fp, utm, company_note, risk_rules, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(orgId, signup.email, signup.ip, signup.deviceFp, signup.utm, signup.companyNote ?? null, signup.riskRules.length ? signup.riskRules.join(',') : null, now);
}
