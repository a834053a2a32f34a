// Organizations and memberships. An organization always keeps at least one owner (enforced by callers
// that change roles; see members logic).

import type { MetaDb } from '../store/sqlite.js';
import type { Role } from './roles.js';

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
  return db.prepare('SELECT org_id, user_id, role, created_at FROM memberships WHERE org_id = ? AND user_id = ?').get(orgId, userId) as
    | Membership
    | undefined;
}
