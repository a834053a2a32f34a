// Password sign-in: one argon2 verification whether or not the account exists, one message for a
// wrong email and a wrong password, then the organization, then the second factor if enabled (last,
// so a recovery code is never spent on a request that fails anyway). Successes and wrong credentials
// are written to the audit log.

import type { Services } from '../http/services.js';
import { UnauthorizedError } from '../ground/errors.js';
import { findUserByEmail, normalizeEmail } from '../accounts/users.js';
import { recordAudit } from '../audit/recordAudit.js';
import { verifyPasswordEvenly } from '../ground/passwords.js';
import { mfaEnabled, verifySecondFactor } from '../accounts/mfa.js';
import { chooseOrg, signIn, type ClientInfo, type SignedIn } from './signIn.js';

export interface LoginInput {
  email: string;
  password: string;
  org_id?: number;
  mfa_code?: string;
}

export type SignInOutcome = { mfaRequired: true } | { mfaRequired: false; signedIn: SignedIn };

export const WRONG_CREDENTIALS = 'invalid email or password';
export const PASSWORD_SIGN_IN = 'auth.password.sign_in';

export async function login(services: Services, input: LoginInput, client: ClientInfo): Promise<SignInOutcome> {
  const user = findUserByEmail(services.meta, input.email);
  const ok = await verifyPasswordEvenly(user?.password_hash, input.password);
  const audit = (outcome: 'success' | 'failure', orgId?: number, reason?: string) =>
    recordAudit(services, {
      actor_user_id: user?.id,
      org_id: orgId,
      action: PASSWORD_SIGN_IN,
      target: normalizeEmail(input.email),
      outcome,
      details: { ip: client.ip ?? null, ...(reason ? { reason } : {}) },
    });
  if (!user || !ok) {
    audit('failure', undefined, user ? 'wrong_password' : 'unknown_email');
    throw new UnauthorizedError(WRONG_CREDENTIALS);
  }
  const org = chooseOrg(services, user.id, input.org_id);
  if (mfaEnabled(services, user.id)) {
    if (input.mfa_code === undefined) return { mfaRequired: true };
    if (!verifySecondFactor(services, user.id, input.mfa_code)) {
      audit('failure', org.id, 'wrong_second_factor');
      throw new UnauthorizedError('invalid two-factor code');
    }
  }
  const signedIn = await signIn(services, user, org, client);
  audit('success', org.id);
  return { mfaRequired: false, signedIn };
}
