// Projects belong to one organization and carry the IANA time zone that defines calendar days in reports.

import type { MetaDb } from '../store/sqlite.js';

export interface Project {
  id: number;
  org_id: number;
  name: string;
  timezone: string;
  created_at: string;
}

/** True for IANA zone names this runtime knows (the same ICU data DuckDB's zone handling follows). */
export function isTimeZone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function createProject(db: MetaDb, input: { orgId: number; name: string; timezone?: string }, now: Date): Project {
  const info = db
    .prepare('INSERT INTO projects (org_id, name, timezone, created_at) VALUES (?, ?, ?, ?)')
    .run(input.orgId, input.name, input.timezone ?? 'UTC', now.toISOString());
  return getProject(db, Number(info.lastInsertRowid))!;
}

export function getProject(db: MetaDb, id: number): Project | undefined {
  return db.prepare('SELECT id, org_id, name, timezone, created_at FROM projects WHERE id = ?').get(id) as Project | undefined;
}
