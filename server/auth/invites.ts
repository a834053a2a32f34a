// Accepting an invitation (accounts/invites.ts makes them): it creates the account (with a password)
// or, for an existing account, asks for its second factor when it has one; either way the membership
// is added and the invitee is signed in.

import type { Services } from '../http/services.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../ground/errors.js';
import { addMembership, getMembership, getOrganization } from '../accounts/organizations.js';
import { findUserByEmail, getUser, insertUser, type User } from '../accounts/users.js';
import { INVITE_COLUMNS, INVITE_KIND, inviteAlive, type InviteRow } from '../accounts/invites.js';
import type { Role } from '../access/roles.js';
import { hashPassword, passwordProblem, verifyPassword } from '../ground/passwords.js';
import { hashToken } from '../ground/tokenHash.js';
import { mfaEnabled, verifySecondFactor } from '../accounts/mfa.js';
import { signIn, type ClientInfo } from './signIn.js';
import type { SignInOutcome } from './login.js';

export interface AcceptInput {
  token: string;
  password?: string;
  name?: string;
  mfa_code?: string;
}

/** 404 for a token that never existed or was withdrawn; 422 for a used or expired one. */
function openInvite(services: Services, token: string): InviteRow {
  const row = services.meta.prepare(`SELECT ${INVITE_COLUMNS} FROM invites WHERE token_hash = ?`).get(hashToken(services, INVITE_KIND, token)) as InviteRow | undefined;
  if (!row || row.revoked_at !== null) throw new NotFoundError('invitation not found');
  if (row.accepted_at !== null) throw new ValidationError('invitation has already been used', 'token');
  if (!inviteAlive(row, services.clock.now())) throw new ValidationError('invitation has expired', 'token');
  return row;
}

/** What the invitation page tells the holder of a live token: who invited them, where and as what. */
export interface InviteDetails {
  email: string;
  org_name: string;
  role: Role;
  /** The inviter's name, else their email; null once their account is gone. */
  invited_by_name: string | null;
  expires_at: string;
  /** Whether accepting needs a new password (no account has the address yet). */
  new_account: boolean;
}

/** The invitation a token opens; the same 404 and 422 answers as accepting it. */
export function lookupInvite(services: Services, token: string): InviteDetails {
  const invite = openInvite(services, token);
  const inviter = invite.invited_by === null ? undefined : getUser(services.meta, invite.invited_by);
  return {
    email: invite.email,
    org_name: getOrganization(services.meta, invite.org_id)!.name,
    role: invite.role,
    invited_by_name: inviter ? inviter.name || inviter.email : null,
    expires_at: invite.expires_at,
    new_account: !findUserByEmail(services.meta, invite.email),
  };
}

export async function acceptInvite(services: Services, input: AcceptInput, client: ClientInfo): Promise<SignInOutcome> {
  const invite = openInvite(services, input.token);
  const existing = findUserByEmail(services.meta, invite.email);
  let passwordHash: string | undefined;
  if (existing) {
    // The emailed token proves the address; a password, when given, must still be the account's own.
    if (input.password !== undefined && !(existing.password_hash && (await verifyPassword(existing.password_hash, input.password)))) {
      throw new UnauthorizedError('invalid password');
    }
    if (mfaEnabled(services, existing.id)) {
      if (input.mfa_code === undefined) return { mfaRequired: true };
      if (!verifySecondFactor(services, existing.id, input.mfa_code)) throw new UnauthorizedError('invalid two-factor code');
    }
  } else {
    if (input.password === undefined) throw new ValidationError('password is required to create the account', 'password');
    const problem = passwordProblem(input.password);
    if (problem) throw new ValidationError(`password ${problem}`, 'password');
    passwordHash = await hashPassword(input.password);
  }
  const now = services.clock.now();
  const accept = services.meta.transaction((): User => {
    const fresh = openInvite(services, input.token);
    if (!existing && findUserByEmail(services.meta, fresh.email)) throw new ConflictError('an account with this email was created meanwhile; accept the invitation again');
    const user = existing ?? insertUser(services.meta, { email: fresh.email, passwordHash: passwordHash ?? null, name: input.name?.trim() || null }, now);
    if (!getMembership(services.meta, fresh.org_id, user.id)) addMembership(services.meta, fresh.org_id, user.id, fresh.role, now);
    services.meta.prepare('UPDATE invites SET accepted_at = ?, accepted_by = ? WHERE id = ?').run(now.toISOString(), user.id, fresh.id);
    return getUser(services.meta, user.id)!;
  });
  const user = accept();
  const membership = getMembership(services.meta, invite.org_id, user.id)!;
  const org = getOrganization(services.meta, invite.org_id)!;
  return { mfaRequired: false, signedIn: await signIn(services, user, { id: org.id, name: org.name, role: membership.role }, client) };
}
