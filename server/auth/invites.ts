// Invitations: an admin (an owner, for the owner role) invites an email address to the organization; the
// emailed token is kept only as a hash and is good for seven days, once. Accepting creates the account
// (with a password) or, for an existing account, asks for its second factor when it has one; either
// way the membership is added and the invitee is signed in.

import type { Services } from '../http/services.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../ground/errors.js';
import { addMembership, getMembership, getOrganization } from '../accounts/organizations.js';
import { findUserByEmail, getUser, insertUser, normalizeEmail, type User } from '../accounts/users.js';
import type { Role } from '../access/roles.js';
import { enqueueMail } from '../mail/outbox.js';
import { notifyMailWorker } from '../mail/mailWorker.js';
import { inviteLink, inviteMessage } from '../mail/messages.js';
import { hashPassword, passwordProblem, verifyPassword } from '../ground/passwords.js';
import { hashToken, randomToken } from './tokenHash.js';
import { aliveAt } from '../ground/clock.js';
import { mfaEnabled, verifySecondFactor } from './mfa.js';
import { signIn, type ClientInfo } from './signIn.js';
import type { SignInOutcome } from './login.js';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const KIND = 'invite';

interface InviteRow {
  id: number;
  org_id: number;
  email: string;
  role: Role;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

export interface Invite {
  id: number;
  org_id: number;
  email: string;
  role: Role;
  status: 'pending' | 'accepted' | 'expired';
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

const COLUMNS = 'id, org_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';

/** An invitation's link works while it is alive by the clock's rule (see clock.ts): never for a step back plus seven days. */
const inviteAlive = (row: InviteRow, now: Date) => aliveAt(Date.parse(row.expires_at), now.getTime(), INVITE_TTL_MS);

function present(row: InviteRow, now: Date): Invite {
  const status = row.accepted_at ? 'accepted' : inviteAlive(row, now) ? 'pending' : 'expired';
  return { id: row.id, org_id: row.org_id, email: row.email, role: row.role, status, invited_by: row.invited_by, created_at: row.created_at, expires_at: row.expires_at, accepted_at: row.accepted_at };
}

function ownerRule(actorRole: Role, inviteRole: Role): void {
  if (inviteRole === 'owner' && actorRole !== 'owner') throw new ForbiddenError('only an owner may invite or uninvite an owner');
}

export interface NewInvite {
  orgId: number;
  email: string;
  role: Role;
  actor: { userId: number; role: Role };
}

export interface CreatedInvite {
  invite: Invite;
  /** The accept link the email carries; never stored, so only the creator can be shown it. */
  link: string;
}

/** Creates the invitation and queues its email; an earlier open invitation of the same address is replaced. */
export function createInvite(services: Services, input: NewInvite): CreatedInvite {
  ownerRule(input.actor.role, input.role);
  const email = normalizeEmail(input.email);
  const existing = findUserByEmail(services.meta, email);
  if (existing && getMembership(services.meta, input.orgId, existing.id)) throw new ConflictError('this person is already a member of the organization');
  const org = getOrganization(services.meta, input.orgId)!;
  const inviter = getUser(services.meta, input.actor.userId);
  const token = randomToken();
  const now = services.clock.now();
  const create = services.meta.transaction(() => {
    services.meta.prepare('UPDATE invites SET revoked_at = ? WHERE org_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL').run(now.toISOString(), input.orgId, email);
    const info = services.meta
      .prepare('INSERT INTO invites (org_id, email, role, token_hash, invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(input.orgId, email, input.role, hashToken(services, KIND, token), input.actor.userId, now.toISOString(), new Date(now.getTime() + INVITE_TTL_MS).toISOString());
    enqueueMail(services, inviteMessage(services.config.base_url, email, token, { orgName: org.name, role: input.role, inviter: inviter?.name ?? inviter?.email ?? null }));
    return Number(info.lastInsertRowid);
  });
  const id = create();
  notifyMailWorker(services);
  const invite = present(services.meta.prepare(`SELECT ${COLUMNS} FROM invites WHERE id = ?`).get(id) as InviteRow, now);
  return { invite, link: inviteLink(services.config.base_url, token) };
}

/** The organization's invitations that were not revoked, newest first. */
export function listInvites(services: Services, orgId: number): Invite[] {
  const rows = services.meta.prepare(`SELECT ${COLUMNS} FROM invites WHERE org_id = ? AND revoked_at IS NULL ORDER BY id DESC`).all(orgId) as InviteRow[];
  return rows.map((r) => present(r, services.clock.now()));
}

/** Withdraws an invitation that has not been accepted; its link stops working. */
export function revokeInvite(services: Services, orgId: number, inviteId: number, actorRole: Role): void {
  const row = services.meta.prepare(`SELECT ${COLUMNS} FROM invites WHERE id = ? AND org_id = ? AND revoked_at IS NULL AND accepted_at IS NULL`).get(inviteId, orgId) as InviteRow | undefined;
  if (!row) throw new NotFoundError('invitation not found');
  ownerRule(actorRole, row.role);
  services.meta.prepare('UPDATE invites SET revoked_at = ? WHERE id = ?').run(services.clock.now().toISOString(), inviteId);
}

export interface AcceptInput {
  token: string;
  password?: string;
  name?: string;
  mfa_code?: string;
}

/** 404 for a token that never existed or was withdrawn; 422 for a used or expired one. */
function openInvite(services: Services, token: string): InviteRow {
  const row = services.meta.prepare(`SELECT ${COLUMNS} FROM invites WHERE token_hash = ?`).get(hashToken(services, KIND, token)) as InviteRow | undefined;
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
