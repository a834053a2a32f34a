// Registration in legacy mode: the user, an organization they own and a first project, created in one
// transaction, then signed in. In closed mode only invitations create accounts.

import type { Services } from '../http/services.js';
import { ForbiddenError, ValidationError } from '../ground/errors.js';
import { countUsers, findUserByEmail, insertUser, type User } from '../accounts/users.js';
import { addMembership, createOrganization, type OrgMembership } from '../accounts/organizations.js';
import { createProject, isTimeZone } from '../accounts/projects.js';
import { hashPassword, passwordProblem } from '../ground/passwords.js';

export interface RegisterInput {
  email: string;
  password: string;
  name?: string;
  org_name?: string;
  /** A browser's zone; anything that is not a known IANA name is ignored (the project gets UTC). */
  timezone?: unknown;
}

export const FIRST_PROJECT_NAME = 'My first project';

export function emailTaken(): ValidationError {
  return new ValidationError('an account with this email already exists', 'email');
}

export function defaultOrgName(input: { email: string; name?: string }): string {
  const who = input.name?.trim() || input.email.split('@')[0]!;
  return `${who}'s organization`;
}

export type Registration = 'open' | 'invitation_only' | 'trial_first';

/** Who may create an account now: closed means invitation-only after the first owner. */
export function registration(services: Services): Registration {
  const mode = services.config.signup_mode;
  if (mode === 'trial_first') return 'trial_first';
  return mode === 'closed' && countUsers(services.meta) > 0 ? 'invitation_only' : 'open';
}

/** What the sign-in pages may offer: a registration link, and a reset by email only where mail can leave. */
export function signInOptions(services: Services): { registration: Registration; password_reset_email: boolean } {
  return { registration: registration(services), password_reset_email: Boolean(services.config.smtp_url) };
}

export async function registerAccount(services: Services, input: RegisterInput): Promise<{ user: User; org: OrgMembership }> {
  if (registration(services) === 'invitation_only') {
    throw new ForbiddenError('registration is closed on this installation; ask an administrator for an invitation');
  }
  if (findUserByEmail(services.meta, input.email)) throw emailTaken();
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError(`password ${problem}`, 'password');
  const passwordHash = await hashPassword(input.password);
  const timezone = typeof input.timezone === 'string' && isTimeZone(input.timezone) ? input.timezone : 'UTC';
  const now = services.clock.now();
  const create = services.meta.transaction(() => {
    // Checked again inside the transaction: another registration may have won while we hashed.
    if (findUserByEmail(services.meta, input.email)) throw emailTaken();
    return createOwnerAccount(services, { email: input.email, passwordHash, name: input.name?.trim() || null, orgName: input.org_name?.trim() || defaultOrgName(input), timezone }, now);
  });
  return create();
}

/**
 * A new account as every signup ends: the user, an organization they own and a first project.
 * Called inside the caller's transaction, after its checks.
 */
export function createOwnerAccount(
  services: Services,
  account: { email: string; passwordHash: string; name: string | null; orgName: string; timezone: string },
  now: Date,
): { user: User; org: OrgMembership } {
  const user = insertUser(services.meta, { email: account.email, passwordHash: account.passwordHash, name: account.name }, now);
  const org = createOrganization(services.meta, account.orgName, now);
  addMembership(services.meta, org.id, user.id, 'owner', now);
  createProject(services.meta, { orgId: org.id, name: FIRST_PROJECT_NAME, timezone: account.timezone }, now);
  return { user, org: { id: org.id, name: org.name, role: 'owner' } };
}
