// The audit log: sign-ins (password and single sign-on), their failures and configuration changes,
// one row each. This module only appends and reads; deciding what is worth recording is the caller's.

import type { Services } from '../http/services.js';

export type AuditOutcome = 'success' | 'failure';

export interface AuditEntryInput {
  actor_user_id?: number | null;
  org_id?: number | null;
  /** Dotted verb, e.g. `auth.password.sign_in`, `org.oidc.update`. */
  action: string;
  /** What the action was about when that is not the actor or organization (an email, a provider). */
  target?: string | null;
  outcome: AuditOutcome;
  /** Reasons and context; never a secret. */
  details?: Record<string, unknown>;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor_user_id: number | null;
  org_id: number | null;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  details: Record<string, unknown>;
}

export function recordAudit(services: Services, entry: AuditEntryInput): void {
  services.meta
    .prepare('INSERT INTO audit_log (at, actor_user_id, org_id, action, target, outcome, details) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(services.clock.now().toISOString(), entry.actor_user_id ?? null, entry.org_id ?? null, entry.action, entry.target ?? null, entry.outcome, JSON.stringify(entry.details ?? {}));
}

export interface AuditFilter {
  orgId?: number;
  actorUserId?: number;
  action?: string;
  limit?: number;
}

/** Entries matching every given filter, newest first. */
export function listAudit(services: Services, filter: AuditFilter = {}): AuditEntry[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.orgId !== undefined) {
    where.push('org_id = ?');
    params.push(filter.orgId);
  }
  if (filter.actorUserId !== undefined) {
    where.push('actor_user_id = ?');
    params.push(filter.actorUserId);
  }
  if (filter.action !== undefined) {
    where.push('action = ?');
    params.push(filter.action);
  }
  const sql = `SELECT id, at, actor_user_id, org_id, action, target, outcome, details FROM audit_log
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
  const rows = services.meta.prepare(sql).all(...params, filter.limit ?? 100) as Array<Omit<AuditEntry, 'details'> & { details: string }>;
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}
