// Password sign-in: one argon2 verification whether or not the account exists, one message for a
// wrong email and a wrong password, then the organization, then the second factor if enabled (last,
// so a recovery code is never spent on a request that fails anyway).

import type { Services } from '../services.js';
import { UnauthorizedError } from '../http/errors.js';
import { findUserByEmail } from '../accounts/users.js';
import { verifyPasswordEvenly } from './passwords.js';
import { mfaEnabled, verifySecondFactor } from './mfa.js';
import { chooseOrg, signIn, type ClientInfo, type SignedIn } from './signIn.js';

export interface LoginInput {
  email: string;
  password: string;
  org_id?: number;
  mfa_code?: string;
}

export type SignInOutcome = { mfaRequired: true } | { mfaRequired: false; signedIn: SignedIn };

export const WRONG_CREDENTIALS = 'invalid email or password';

export async function login(services: Services, input: LoginInput, client: ClientInfo): Promise<SignInOutcome> {
  const user = findUserByEmail(services.meta, input.email);
  const ok = await verifyPasswordEvenly(user?.password_hash, input.password);
  if (!user || !ok) throw new UnauthorizedError(WRONG_CREDENTIALS);
  const org = chooseOrg(services, user.id, input.org_id);
  if (mfaEnabled(services, user.id)) {
    if (input.mfa_code === undefined) return { mfaRequired: true };
    if (!verifySecondFactor(services, user.id, input.mfa_code)) throw new UnauthorizedError('invalid two-factor code');
  }
  return { mfaRequired: false, signedIn: await signIn(services, user, org, client) };
}
