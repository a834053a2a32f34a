// The embedded default (`npm start`): on a fresh data directory, an owner, an organization and a
// demo project, with a generated password returned once so the caller can print it.

import { randomBytes } from 'node:crypto';
import type { MetaDb } from '../store/sqlite.js';
import { countUsers, createUser, setPasswordChangeRequired } from './users.js';
import { addMembership, createOrganization } from './organizations.js';
import { createProject, getProject, type Project } from './projects.js';

export const DEMO_EMAIL = 'owner@pp.local';

export interface DemoAccount {
  email: string;
  ownerId: number;
  /** Present only when the account was created by this call. */
  password?: string;
  project: Project;
}

/** A password that always satisfies the complexity rule. */
export function generatePassword(): string {
  return `Pp-${randomBytes(12).toString('base64url')}-7`;
}

export async function ensureDemoAccount(db: MetaDb, now: Date): Promise<DemoAccount> {
  if (countUsers(db) > 0) {
    const row = db
      .prepare(
        `SELECT u.email, u.id AS user_id, p.id FROM users u JOIN memberships m ON m.user_id = u.id AND m.role = 'owner'
         JOIN projects p ON p.org_id = m.org_id AND p.deleted_at IS NULL ORDER BY u.id, p.id LIMIT 1`,
      )
      .get() as { email: string; id: number; user_id: number } | undefined;
    const project = row ? getProject(db, row.id) : undefined;
    if (row && project) return { email: row.email, ownerId: row.user_id, project };
  }
  const password = generatePassword();
  const user = await createUser(db, { email: DEMO_EMAIL, password, name: 'Owner' }, now);
  const create = db.transaction(() => {
    // The password was printed on a terminal: its owner replaces it at the first sign-in.
    setPasswordChangeRequired(db, user.id, true);
    const org = createOrganization(db, 'Demo organization', now);
    addMembership(db, org.id, user.id, 'owner', now);
    // The demo data generator prices its plans in roubles.
    return createProject(db, { orgId: org.id, name: 'Demo project', timezone: 'UTC', currency: 'RUB' }, now);
  });
  return { email: user.email, ownerId: user.id, password, project: create() };
}
