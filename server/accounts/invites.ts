// Invitations: an admin (an owner, for the owner role) invites an email address to the organization; the
// emailed token is kept only as a hash and is good for seven days, once. Accepting it signs the
// invitee in, and is auth/'s (auth/invites.ts).

import type { Services } from '../http/services.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../ground/errors.js';
import { getMembership, getOrganization } from './organizations.js';
import { findUserByEmail, getUser, normalizeEmail } from './users.js';
import type { Role } from '../access/roles.js';
import { enqueueMail } from '../mail/outbox.js';
import { notifyMailWorker } from '../mail/mailWorker.js';
import { inviteLink, inviteMessage } from '../mail/messages.js';
import { hashToken, randomToken } from '../ground/tokenHash.js';
import { aliveAt } from '../ground/clock.js';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The kind the token hashes are kept under (ground/tokenHash.ts). */
export const INVITE_KIND = 'invite';

export interface InviteRow {
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

export const INVITE_COLUMNS = 'id, org_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';

/** An invitation's link works while it is alive by the clock's rule (see clock.ts): never for a step back plus seven days. */
export const inviteAlive = (row: InviteRow, now: Date) => aliveAt(Date.parse(row.expires_at), now.getTime(), INVITE_TTL_MS);

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
      .run(input.orgId, email, input.role, hashToken(services, INVITE_KIND, token), input.actor.userId, now.toISOString(), new Date(now.getTime() + INVITE_TTL_MS).toISOString());
    enqueueMail(services, inviteMessage(services.config.base_url, email, token, { orgName: org.name, role: input.role, inviter: inviter?.name ?? inviter?.email ?? null }));
    return Number(info.lastInsertRowid);
  });
  const id = create();
  notifyMailWorker(services);
  const invite = present(services.meta.prepare(`SELECT ${INVITE_COLUMNS} FROM invites WHERE id = ?`).get(id) as InviteRow, now);
  return { invite, link: inviteLink(services.config.base_url, token) };
}

/** The organization's invitations that were not revoked, newest first. */
export function listInvites(services: Services, orgId: number): Invite[] {
  const rows = services.meta.prepare(`SELECT ${INVITE_COLUMNS} FROM invites WHERE org_id = ? AND revoked_at IS NULL ORDER BY id DESC`).all(orgId) as InviteRow[];
  return rows.map((r) => present(r, services.clock.now()));
}

/** Withdraws an invitation that has not been accepted; its link stops working. */
export function revokeInvite(services: Services, orgId: number, inviteId: number, actorRole: Role): void {
  const row = services.meta.prepare(`SELECT ${INVITE_COLUMNS} FROM invites WHERE id = ? AND org_id = ? AND revoked_at IS NULL AND accepted_at IS NULL`).get(inviteId, orgId) as InviteRow | undefined;
  if (!row) throw new NotFoundError('invitation not found');
  ownerRule(actorRole, row.role);
  services.meta.prepare('UPDATE invites SET revoked_at = ? WHERE id = ?').run(services.clock.now().toISOString(), inviteId);
}
