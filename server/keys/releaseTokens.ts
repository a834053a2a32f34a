// Release tokens (pp_rel_…): one project, one scope (release_markers:write), shown once, revocable
// at any time. They authenticate exactly one operation, the deploy marker (see releaseAuth.ts).

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { ValidationError } from '../ground/errors.js';
import { hashSecret, isPublicIdClash, newValue, secretMatches, spendComparison, type ParsedValue } from './keyValues.js';

export const RELEASE_SCOPE = 'release_markers:write';

export interface ReleaseToken {
  id: number;
  project_id: number;
  name: string;
  public_id: string;
  expires_at: string | null;
  created_by: number | null;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, project_id, name, public_id, expires_at, created_by, created_at, revoked_at';

export function issueReleaseToken(services: Services, projectId: number, input: { name: string; expires_at?: string }, createdBy: number | null): { token: ReleaseToken; value: string } {
  const now = services.clock.now();
  if (input.expires_at && Date.parse(input.expires_at) <= now.getTime()) throw new ValidationError('expires_at: must be in the future', 'expires_at');
  const insert = services.meta.prepare('INSERT INTO release_tokens (project_id, name, public_id, secret_hash, expires_at, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (let attempt = 0; ; attempt++) {
    const v = newValue('release');
    try {
      const expires = input.expires_at ? new Date(input.expires_at).toISOString() : null;
      const info = insert.run(projectId, input.name, v.publicId, hashSecret(services, v.secret), expires, createdBy, now.toISOString());
      return { token: getReleaseToken(services.meta, projectId, Number(info.lastInsertRowid))!, value: v.value };
    } catch (err) {
      if (!isPublicIdClash(err) || attempt >= 3) throw err;
    }
  }
}

export function listReleaseTokens(meta: MetaDb, projectId: number): ReleaseToken[] {
  return meta.prepare(`SELECT ${COLUMNS} FROM release_tokens WHERE project_id = ? ORDER BY id DESC`).all(projectId) as ReleaseToken[];
}

export function getReleaseToken(meta: MetaDb, projectId: number, tokenId: number): ReleaseToken | undefined {
  return meta.prepare(`SELECT ${COLUMNS} FROM release_tokens WHERE project_id = ? AND id = ?`).get(projectId, tokenId) as ReleaseToken | undefined;
}

export function revokeReleaseToken(services: Services, projectId: number, tokenId: number): boolean {
  if (!getReleaseToken(services.meta, projectId, tokenId)) return false;
  services.meta.prepare('UPDATE release_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), tokenId);
  return true;
}

/** The live token a presented pp_rel_ value names, or undefined. */
export function verifyReleaseToken(services: Services, presented: ParsedValue): ReleaseToken | undefined {
  if (presented.kind !== 'release') return undefined;
  const row = services.meta.prepare(`SELECT ${COLUMNS}, secret_hash FROM release_tokens WHERE public_id = ?`).get(presented.publicId) as (ReleaseToken & { secret_hash: string }) | undefined;
  if (!row) {
    spendComparison(services, presented.secret);
    return undefined;
  }
  const now = services.clock.now().getTime();
  if (!secretMatches(services, presented.secret, row.secret_hash) || row.revoked_at || (row.expires_at && Date.parse(row.expires_at) <= now)) return undefined;
  const { secret_hash: _hash, ...token } = row;
  return token;
}

export function presentReleaseToken(token: ReleaseToken, now: Date): Record<string, unknown> {
  const expired = token.expires_at !== null && Date.parse(token.expires_at) <= now.getTime();
  return {
    id: token.id,
    name: token.name,
    prefix: token.public_id,
    scope: RELEASE_SCOPE,
    expires_at: token.expires_at,
    status: token.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    created_at: token.created_at,
    revoked_at: token.revoked_at,
  };
}
