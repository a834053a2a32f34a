// Projects belong to one organization and carry the IANA time zone that defines calendar days in reports
// and the ISO 4217 currency their revenue amounts are in.
// A deleted project keeps its row (deleted_at), so its id is never reused; every lookup here skips it.

import type { MetaDb } from '../store/sqlite.js';
import { ValidationError } from '../ground/errors.js';

export interface Project {
  id: number;
  org_id: number;
  name: string;
  timezone: string;
  /** ISO 4217 alphabetic code, e.g. USD: a label for revenue amounts, which are never converted. */
  currency: string;
  created_at: string;
}

const COLUMNS = 'id, org_id, name, timezone, currency, created_at';

/** The currency of a project created without one (and of projects older than the setting). */
export const DEFAULT_CURRENCY = 'USD';

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

/**
 * The zone as stored: as given, with its letter case fixed where ICU knows the name (`utc` → `UTC`,
 * `europe/berlin` → `Europe/Berlin`); a name that is not a zone is 422 quoting it.
 */
export function normalizeTimeZone(tz: string): string {
  if (!isTimeZone(tz)) throw new ValidationError(`timezone ${JSON.stringify(tz)} is not an IANA time zone name such as Europe/Berlin`, 'timezone');
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === tz.toLowerCase() ? resolved : tz;
}

// The codes this runtime's ICU formats, the same list the console's browser offers (Intl knows them all).
let currencies: ReadonlySet<string> | undefined;

/**
 * The currency as stored: an ISO 4217 alphabetic code that Intl knows, in capitals (`eur` → `EUR`);
 * anything else is 422 quoting it.
 */
export function normalizeCurrency(code: string): string {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  const upper = code.toUpperCase();
  if (!currencies.has(upper)) throw new ValidationError(`currency ${JSON.stringify(code)} is not an ISO 4217 currency code such as USD or EUR`, 'currency');
  return upper;
}

export function createProject(db: MetaDb, input: { orgId: number; name: string; timezone?: string; currency?: string }, now: Date): Project {
  const info = db
    .prepare('INSERT INTO projects (org_id, name, timezone, currency, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(input.orgId, input.name, input.timezone ?? 'UTC', input.currency ?? DEFAULT_CURRENCY, now.toISOString());
  return getProject(db, Number(info.lastInsertRowid))!;
}

export function getProject(db: MetaDb, id: number): Project | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM projects WHERE id = ? AND deleted_at IS NULL`).get(id) as Project | undefined;
}

export function listProjects(db: MetaDb, orgId: number): Project[] {
  return db.prepare(`SELECT ${COLUMNS} FROM projects WHERE org_id = ? AND deleted_at IS NULL ORDER BY id`).all(orgId) as Project[];
}

export function updateProject(db: MetaDb, id: number, changes: { name?: string; timezone?: string; currency?: string }): Project {
  db.prepare('UPDATE projects SET name = coalesce(?, name), timezone = coalesce(?, timezone), currency = coalesce(?, currency) WHERE id = ? AND deleted_at IS NULL').run(
    changes.name ?? null,
    changes.timezone ?? null,
    changes.currency ?? null,
    id,
  );
  return getProject(db, id)!;
}

/**
 * Deletes a project and, in the same transaction, revokes every ingestion key and release token it
 * had: once its routes are gone nobody could revoke them, and they must not write to it again.
 */
export function deleteProject(db: MetaDb, id: number, now: Date): void {
  const at = now.toISOString();
  db.transaction(() => {
    db.prepare('UPDATE projects SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL').run(at, id);
    db.prepare('UPDATE ingest_keys SET revoked_at = ? WHERE project_id = ? AND revoked_at IS NULL').run(at, id);
    db.prepare('UPDATE release_tokens SET revoked_at = ? WHERE project_id = ? AND revoked_at IS NULL').run(at, id);
  })();
}
