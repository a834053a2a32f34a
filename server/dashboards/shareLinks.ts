// Public share links: a random token that shows one dashboard or insight without signing in. Only
// the token's keyed hash is stored and a link is found by that hash; an unknown, revoked or expired
// token, or one of a deleted project, is the same 404. What a link may show is the routes'.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { NotFoundError, ValidationError } from '../ground/errors.js';
import { getProject, type Project } from '../accounts/projects.js';
import { hashToken, randomToken } from '../ground/tokenHash.js';
import { authorColumns, authorOf, type Author } from './authors.js';
import { findInsight } from './insights.js';
import { getDashboard } from './dashboards.js';

export const SHARE_TOKEN_PREFIX = 'pps_';
const HASH_KIND = 'share-link';

export type ShareTarget = { dashboard_id: number } | { insight_id: number };

export interface ShareLink {
  id: number;
  project_id: number;
  target: { kind: 'dashboard' | 'insight'; id: number; name: string };
  expires_at: string | null;
  created_by: Author | null;
  created_at: string;
  last_used_at: string | null;
}

const SELECT = `SELECT l.id, l.project_id, l.dashboard_id, l.insight_id, coalesce(d.name, i.name) AS target_name, l.expires_at, l.created_at, l.last_used_at,
  ${authorColumns('cu')}
  FROM share_links l LEFT JOIN dashboards d ON d.id = l.dashboard_id LEFT JOIN insights i ON i.id = l.insight_id LEFT JOIN users cu ON cu.id = l.created_by`;

type Row = Record<string, unknown>;

function fromRow(row: Row): ShareLink {
  const dashboard = row.dashboard_id !== null;
  return {
    id: row.id as number,
    project_id: row.project_id as number,
    target: { kind: dashboard ? 'dashboard' : 'insight', id: (dashboard ? row.dashboard_id : row.insight_id) as number, name: row.target_name as string },
    expires_at: row.expires_at as string | null,
    created_by: authorOf(row, 'cu'),
    created_at: row.created_at as string,
    last_used_at: row.last_used_at as string | null,
  };
}

/** Newest first. */
export function listShareLinks(db: MetaDb, projectId: number): ShareLink[] {
  return (db.prepare(`${SELECT} WHERE l.project_id = ? ORDER BY l.created_at DESC, l.id DESC`).all(projectId) as Row[]).map(fromRow);
}

function getShareLink(db: MetaDb, projectId: number, id: number): ShareLink {
  const row = db.prepare(`${SELECT} WHERE l.project_id = ? AND l.id = ?`).get(projectId, id) as Row | undefined;
  if (!row) throw new NotFoundError('share link not found');
  return fromRow(row);
}

/** The link and its token, which is shown this once. */
export function createShareLink(services: Services, projectId: number, userId: number, target: ShareTarget, expiresAt: string | null): { link: ShareLink; token: string } {
  const now = services.clock.now();
  if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) {
    throw new ValidationError(`expires_at ${expiresAt} has passed; give a later time or none`, 'expires_at');
  }
  checkTarget(services.meta, projectId, target);
  const token = SHARE_TOKEN_PREFIX + randomToken();
  const id = services.meta
    .prepare('INSERT INTO share_links (project_id, token_hash, dashboard_id, insight_id, expires_at, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(
      projectId,
      hashToken(services, HASH_KIND, token),
      'dashboard_id' in target ? target.dashboard_id : null,
      'insight_id' in target ? target.insight_id : null,
      expiresAt === null ? null : new Date(expiresAt).toISOString(),
      userId,
      now.toISOString(),
    ).lastInsertRowid;
  return { link: getShareLink(services.meta, projectId, Number(id)), token };
}

/** A target outside the project is a bad reference in the body, not a missing resource. */
function checkTarget(db: MetaDb, projectId: number, target: ShareTarget): void {
  if ('insight_id' in target) {
    if (!findInsight(db, projectId, target.insight_id)) throw new ValidationError(`insight ${target.insight_id} is not a saved insight of this project`, 'insight_id');
    return;
  }
  try {
    getDashboard(db, projectId, target.dashboard_id);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    throw new ValidationError(`dashboard ${target.dashboard_id} is not a dashboard of this project`, 'dashboard_id');
  }
}

/** Revoked at once: the row goes, so its token finds nothing. */
export function revokeShareLink(db: MetaDb, projectId: number, id: number): ShareLink {
  const link = getShareLink(db, projectId, id);
  db.prepare('DELETE FROM share_links WHERE id = ?').run(id);
  return link;
}

/** The live link a token opens and its project; anything else is one 404. Marks the link used. */
export function openShareLink(services: Services, token: string): { link: ShareLink; project: Project } {
  const gone = new NotFoundError('share link not found');
  if (!token.startsWith(SHARE_TOKEN_PREFIX)) throw gone;
  const row = services.meta.prepare(`${SELECT} WHERE l.token_hash = ?`).get(hashToken(services, HASH_KIND, token)) as Row | undefined;
  if (!row) throw gone;
  const now = services.clock.now();
  const link = fromRow(row);
  if (link.expires_at !== null && Date.parse(link.expires_at) <= now.getTime()) throw gone;
  const project = getProject(services.meta, link.project_id);
  if (!project) throw gone;
  services.meta.prepare('UPDATE share_links SET last_used_at = ? WHERE id = ?').run(now.toISOString(), link.id);
  return { link: { ...link, last_used_at: now.toISOString() }, project };
}
