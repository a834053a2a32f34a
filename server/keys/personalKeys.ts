// Personal API keys (pp_pk_…): a member's own credential for scripts and BI tools reading pp. A key
// has a name, scopes (read, write, admin), an optional project and an optional expiry; its value
// is shown once and only the HMAC of its secret is kept (keyValues.ts). On every request the key
// stands for its member with the role the membership holds then, so a demoted member's key loses
// rights at once and a removed member's keys stop (the membership trigger also revokes them).
// Which routes take a key, and with which scope, is each route's access declaration.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../ground/errors.js';
import { API_KEY_SCOPES, SCOPE_ROLE, type ApiKeyScope } from '../access/access.js';
import { atLeast, type Role } from '../access/roles.js';
import { getProject } from '../accounts/projects.js';
import { recordAudit } from '../audit/recordAudit.js';
import { hashSecret, isPublicIdClash, newValue, secretMatches, spendComparison, type ParsedValue } from './keyValues.js';

/** Last use is written at most this often per key, not on every request. */
export const LAST_USE_EVERY_MS = 60_000;

export interface PersonalKey {
  id: number;
  user_id: number;
  org_id: number;
  project_id: number | null;
  name: string;
  public_id: string;
  scopes: ApiKeyScope[];
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface KeyRow extends Omit<PersonalKey, 'scopes'> {
  scopes: string;
}

export interface PersonalKeyInput {
  name: string;
  scopes: ApiKeyScope[];
  project_id?: number | null;
  expires_at?: string | null;
}

export interface KeyOwner {
  userId: number;
  orgId: number;
  role: Role;
}

const COLUMNS = 'id, user_id, org_id, project_id, name, public_id, scopes, expires_at, created_at, last_used_at, revoked_at';

function fromRow(row: KeyRow): PersonalKey {
  return { ...row, scopes: API_KEY_SCOPES.filter((s) => row.scopes.split(' ').includes(s)) };
}

/** Refuses scopes above the member's role (403) and a project or expiry that cannot be (422). */
function checkInput(services: Services, owner: KeyOwner, input: PersonalKeyInput, now: Date): void {
  for (const scope of input.scopes) {
    if (!atLeast(owner.role, SCOPE_ROLE[scope])) {
      throw new ForbiddenError(`the ${scope} scope needs the ${SCOPE_ROLE[scope]} role or higher; yours is ${owner.role}`);
    }
  }
  if (input.project_id != null) {
    const project = getProject(services.meta, input.project_id);
    if (!project || project.org_id !== owner.orgId) throw new ValidationError(`project ${input.project_id} is not a project of this organization`, 'project_id');
  }
  if (input.expires_at != null && Date.parse(input.expires_at) <= now.getTime()) {
    throw new ValidationError(`expires_at ${input.expires_at} has passed; give a later time or none`, 'expires_at');
  }
}

export function issuePersonalKey(services: Services, owner: KeyOwner, input: PersonalKeyInput): { key: PersonalKey; value: string } {
  const now = services.clock.now();
  checkInput(services, owner, input, now);
  const scopes = API_KEY_SCOPES.filter((s) => input.scopes.includes(s)).join(' ');
  const expires = input.expires_at != null ? new Date(input.expires_at).toISOString() : null;
  const insert = services.meta.prepare(
    `INSERT INTO personal_api_keys (user_id, org_id, project_id, name, public_id, secret_hash, scopes, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let attempt = 0; ; attempt++) {
    const v = newValue('personal');
    try {
      const info = insert.run(owner.userId, owner.orgId, input.project_id ?? null, input.name.trim(), v.publicId, hashSecret(services, v.secret), scopes, expires, now.toISOString());
      const key = getPersonalKey(services.meta, owner, Number(info.lastInsertRowid))!;
      audit(services, owner, 'api_key.create', key, { scopes: key.scopes, project_id: key.project_id, expires_at: key.expires_at });
      return { key, value: v.value };
    } catch (err) {
      if (!isPublicIdClash(err) || attempt >= 3) throw err;
    }
  }
}

/** The member's own keys in the organization, newest first, revoked ones included. */
export function listPersonalKeys(meta: MetaDb, owner: KeyOwner): PersonalKey[] {
  const rows = meta.prepare(`SELECT ${COLUMNS} FROM personal_api_keys WHERE user_id = ? AND org_id = ? ORDER BY id DESC`).all(owner.userId, owner.orgId) as KeyRow[];
  return rows.map(fromRow);
}

export function getPersonalKey(meta: MetaDb, owner: KeyOwner, id: number): PersonalKey | undefined {
  const row = meta.prepare(`SELECT ${COLUMNS} FROM personal_api_keys WHERE id = ? AND user_id = ? AND org_id = ?`).get(id, owner.userId, owner.orgId) as KeyRow | undefined;
  return row ? fromRow(row) : undefined;
}

/** Revokes one of the member's own keys (404 for anyone else's); revoking twice is harmless. */
export function revokePersonalKey(services: Services, owner: KeyOwner, id: number): void {
  const key = getPersonalKey(services.meta, owner, id);
  if (!key) throw new NotFoundError('API key not found');
  if (key.revoked_at) return;
  services.meta.prepare('UPDATE personal_api_keys SET revoked_at = ? WHERE id = ?').run(services.clock.now().toISOString(), id);
  audit(services, owner, 'api_key.revoke', key, {});
}

export interface VerifiedKey {
  key: PersonalKey;
  /** The member's role now, read from the membership. */
  role: Role;
}

/**
 * The live key a presented pp_pk_ value names, with its member's current role; undefined when the
 * value is wrong, the key revoked or expired, or the member no longer in the organization.
 */
export function verifyPersonalKey(services: Services, presented: ParsedValue): VerifiedKey | undefined {
  if (presented.kind !== 'personal') return undefined;
  const row = services.meta
    .prepare(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `k.${c}`)
        .join(', ')}, k.secret_hash, m.role AS role
         FROM personal_api_keys k JOIN memberships m ON m.user_id = k.user_id AND m.org_id = k.org_id
        WHERE k.public_id = ?`,
    )
    .get(presented.publicId) as (KeyRow & { secret_hash: string; role: Role }) | undefined;
  if (!row) {
    spendComparison(services, presented.secret);
    return undefined;
  }
  const now = services.clock.now();
  if (!secretMatches(services, presented.secret, row.secret_hash) || row.revoked_at || (row.expires_at && Date.parse(row.expires_at) <= now.getTime())) return undefined;
  const { secret_hash: _hash, role, ...key } = row;
  noteUse(services, key.id, key.last_used_at, now);
  return { key: fromRow(key), role };
}

/** Writes the last use when the stored one is a minute old or more, so a busy key costs no write per request. */
function noteUse(services: Services, id: number, lastUsedAt: string | null, now: Date): void {
  if (lastUsedAt !== null && now.getTime() - Date.parse(lastUsedAt) < LAST_USE_EVERY_MS) return;
  services.meta.prepare('UPDATE personal_api_keys SET last_used_at = ? WHERE id = ?').run(now.toISOString(), id);
}

export function presentPersonalKey(key: PersonalKey, now: Date): Record<string, unknown> {
  const expired = key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime();
  return {
    id: key.id,
    name: key.name,
    prefix: key.public_id,
    scopes: key.scopes,
    project_id: key.project_id,
    expires_at: key.expires_at,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
    status: key.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
  };
}

function audit(services: Services, owner: KeyOwner, action: string, key: PersonalKey, details: Record<string, unknown>): void {
  recordAudit(services, { actor_user_id: owner.userId, org_id: owner.orgId, action, target: key.public_id, outcome: 'success', details: { key_id: key.id, name: key.name, ...details } });
}
