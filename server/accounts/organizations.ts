// Organizations and memberships. An organization always keeps at least one owner (enforced by
// members.ts, which every role change and removal goes through).

import type { MetaDb } from '../store/sqlite.js';
import type { Role } from '../access/roles.js';

export interface Organization {
  id: number;
  name: string;
  created_at: string;
}

export interface Membership {
  org_id: number;
  user_id: number;
  role: Role;
  created_at: string;
}

/** A membership seen from the user's side, with the organization's name. */
export interface OrgMembership {
  id: number;
  name: string;
  role: Role;
}

/** A membership seen from the organization's side, with the member's identity. */
export interface Member {
  user_id: number;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
}

export function createOrganization(db: MetaDb, name: string, now: Date): Organization {
  const info = db.prepare('INSERT INTO organizations (name, created_at) VALUES (?, ?)').run(name, now.toISOString());
  return getOrganization(db, Number(info.lastInsertRowid))!;
}

export function getOrganization(db: MetaDb, id: number): Organization | undefined {
  return db.prepare('SELECT id, name, created_at FROM organizations WHERE id = ?').get(id) as Organization | undefined;
}

export function addMembership(db: MetaDb, orgId: number, userId: number, role: Role, now: Date): Membership {
  db.prepare('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(orgId, userId, role, now.toISOString());
  return getMembership(db, orgId, userId)!;
}

export function getMembership(db: MetaDb, orgId: number, userId: number): Membership | undefined {
  return db.prepare('SELECT org_id, user_id, role, created_at FROM memberships WHERE org_id = ? AND user_id = ?').get(orgId, userId) as Membership | undefined;
}

/** The user's organizations, in the order they joined them. */
export function listUserOrgs(db: MetaDb, userId: number): OrgMembership[] {
  return db
    .prepare(
      `SELECT o.id, o.name, m.role FROM memberships m JOIN organizations o ON o.id = m.org_id
        WHERE m.user_id = ? ORDER BY m.created_at, o.id`,
    )
    .all(userId) as OrgMembership[];
}

export function listMembers(db: MetaDb, orgId: number): Member[] {
  return db
    .prepare(
      `SELECT u.id AS user_id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ? ORDER BY m.created_at, u.id`,
    )
    .all(orgId) as Member[];
}

export function countOwners(db: MetaDb, orgId: number): number {
  return (db.prepare("SELECT count(*) AS n FROM memberships WHERE org_id = ? AND role = 'owner'").get(orgId) as { n: number }).n;
}

export function setMembershipRole(db: MetaDb, orgId: number, userId: number, role: Role): void {
  db.prepare('UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?').run(role, orgId, userId);
}

export function removeMembership(db: MetaDb, orgId: number, userId: number): void {
  db.prepare('DELETE FROM memberships WHERE org_id = ? AND user_id = ?').run(orgId, userId);
}

export function renameOrganization(db: MetaDb, id: number, name: string): Organization {
  db.prepare('UPDATE organizations SET name = ? WHERE id = ?').run(name, id);
  return getOrganization(db, id)!;
}
