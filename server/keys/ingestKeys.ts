// Ingestion keys: issue, list, rotate, revoke, legacy import and verification of a presented
// value. Rights come from the key's type plus its stored scopes; which operation needs which is
// decided by server/ingest/credentials.ts.

import type { Services } from '../http/services.js';
import { cachedStatement, type MetaDb } from '../store/sqlite.js';
import { ConflictError, ValidationError, type FieldProblem } from '../ground/errors.js';
import { DOMAIN_ENTRY_HELP, normalizeDomainEntry } from './domainRules.js';
import { hashSecret, isPublicIdClash, newValue, parseValue, secretMatches, spendComparison, type IngestKeyType, type ParsedValue } from './keyValues.js';

export const INGEST_SCOPES = ['events:write', 'identify:write', 'replay:write', 'capture:write'] as const;
export type IngestScope = (typeof INGEST_SCOPES)[number];

/** Replay and element capture only ever come from pages, so server keys cannot hold those scopes. */
const ALLOWED_SCOPES: Record<IngestKeyType, readonly IngestScope[]> = {
  browser: INGEST_SCOPES,
  server: ['events:write', 'identify:write'],
  legacy: INGEST_SCOPES,
};

export interface IngestKey {
  id: number;
  project_id: number;
  type: IngestKeyType;
  name: string;
  public_id: string;
  scopes: IngestScope[];
  domains: string[];
  expires_at: string | null;
  linking_split: boolean;
  rotated_from: number | null;
  created_by: number | null;
  created_at: string;
  revoked_at: string | null;
}

export interface KeyInput {
  type: 'browser' | 'server';
  name: string;
  domains?: string[];
  expires_at?: string;
  scopes?: IngestScope[];
}

export interface RotateInput {
  type?: 'browser' | 'server';
  domains?: string[];
  expires_at?: string;
}

export interface IssuedKey {
  key: IngestKey;
  value: string;
}

interface KeyRow extends Omit<IngestKey, 'scopes' | 'domains' | 'linking_split'> {
  scopes: string;
  domains: string;
  linking_split: number;
  secret_hash: string;
}

const COLUMNS = 'id, project_id, type, name, public_id, secret_hash, scopes, domains, expires_at, linking_split, rotated_from, created_by, created_at, revoked_at';

function fromRow(row: KeyRow): IngestKey {
  const { secret_hash: _hash, ...rest } = row;
  return { ...rest, scopes: JSON.parse(row.scopes) as IngestScope[], domains: JSON.parse(row.domains) as string[], linking_split: row.linking_split === 1 };
}

/** The issuance rules of one key, checked in order; throws ValidationError naming the field. */
export function checkKeyInput(input: KeyInput, now: Date): { domains: string[]; expiresAt: string | null; scopes: IngestScope[] } {
  const problems: FieldProblem[] = [];
  const domains: string[] = [];
  (input.domains ?? []).forEach((d, i) => {
    const n = normalizeDomainEntry(d);
    if (n === undefined) problems.push({ field: `domains[${i}]`, message: DOMAIN_ENTRY_HELP });
    else if (!domains.includes(n)) domains.push(n);
  });
  if (input.type === 'browser') {
    if ((input.domains ?? []).length === 0) problems.push({ field: 'domains', message: 'a browser token needs at least one domain' });
    if (!input.expires_at) problems.push({ field: 'expires_at', message: 'a browser token needs an expiry' });
  } else if ((input.domains ?? []).length > 0) {
    problems.push({ field: 'domains', message: 'domains apply only to browser tokens' });
  }
  if (input.expires_at && Date.parse(input.expires_at) <= now.getTime()) problems.push({ field: 'expires_at', message: 'must be in the future' });
  const scopes = input.scopes ?? [...ALLOWED_SCOPES[input.type]];
  for (const s of scopes) {
    if (!ALLOWED_SCOPES[input.type].includes(s)) problems.push({ field: 'scopes', message: `${s} is not available to ${input.type} keys` });
  }
  if (problems.length > 0) throw new ValidationError(`${problems[0]!.field}: ${problems[0]!.message}`, problems);
  return { domains, expiresAt: input.expires_at ? new Date(input.expires_at).toISOString() : null, scopes };
}

interface InsertInput {
  projectId: number;
  type: IngestKeyType;
  name: string;
  scopes: readonly IngestScope[];
  domains: readonly string[];
  expiresAt: string | null;
  linkingSplit: boolean;
  rotatedFrom?: number;
  createdBy: number | null;
  /** An existing value to store (legacy import); otherwise a new one is generated. */
  value?: ParsedValue & { value: string };
}

function insertKey(services: Services, input: InsertInput): IssuedKey {
  const insert = services.meta.prepare(
    `INSERT INTO ingest_keys (project_id, type, name, public_id, secret_hash, scopes, domains, expires_at, linking_split, rotated_from, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let attempt = 0; ; attempt++) {
    const v = input.value ?? newValue(input.type);
    try {
      const info = insert.run(
        input.projectId,
        input.type,
        input.name,
        v.publicId,
        hashSecret(services, v.secret),
        JSON.stringify(input.scopes),
        JSON.stringify(input.domains),
        input.expiresAt,
        input.linkingSplit ? 1 : 0,
        input.rotatedFrom ?? null,
        input.createdBy,
        services.clock.now().toISOString(),
      );
      return { key: getIngestKey(services.meta, input.projectId, Number(info.lastInsertRowid))!, value: v.value };
    } catch (err) {
      if (!isPublicIdClash(err) || input.value || attempt >= 3) throw err;
    }
  }
}

export function issueIngestKey(services: Services, projectId: number, input: KeyInput, createdBy: number | null): IssuedKey {
  const checked = checkKeyInput(input, services.clock.now());
  return insertKey(services, {
    projectId,
    type: input.type,
    name: input.name,
    scopes: checked.scopes,
    domains: checked.domains,
    expiresAt: checked.expiresAt,
    linkingSplit: true,
    createdBy,
  });
}

export function listIngestKeys(meta: MetaDb, projectId: number): IngestKey[] {
  const rows = meta.prepare(`SELECT ${COLUMNS} FROM ingest_keys WHERE project_id = ? ORDER BY id DESC`).all(projectId) as KeyRow[];
  return rows.map(fromRow);
}

export function getIngestKey(meta: MetaDb, projectId: number, keyId: number): IngestKey | undefined {
  const row = meta.prepare(`SELECT ${COLUMNS} FROM ingest_keys WHERE project_id = ? AND id = ?`).get(projectId, keyId) as KeyRow | undefined;
  return row ? fromRow(row) : undefined;
}

/** What the replacement of `old` looks like: same name and scopes (as far as its type allows), a new value. */
function replacementInput(old: IngestKey, input: RotateInput, now: Date): KeyInput {
  if (old.type === 'legacy' && !input.type) {
    throw new ValidationError('type: rotating a legacy key needs the type of its replacement (browser or server)', 'type');
  }
  if (old.type !== 'legacy' && input.type && input.type !== old.type) throw new ValidationError('type: a key keeps its type when rotated', 'type');
  const type = input.type ?? (old.type as 'browser' | 'server');
  // Keys are never extended: a replacement gets the old key's lifetime again, counted from now.
  const lifetime = old.expires_at ? Date.parse(old.expires_at) - Date.parse(old.created_at) : undefined;
  const expires = input.expires_at ?? (lifetime !== undefined ? new Date(now.getTime() + lifetime).toISOString() : undefined);
  return {
    type,
    name: old.name,
    domains: input.domains ?? (type === 'browser' ? old.domains : []),
    expires_at: expires,
    scopes: old.scopes.filter((s) => ALLOWED_SCOPES[type].includes(s)),
  };
}

/** Issues the replacement and revokes the old key in one transaction. Undefined when the key does not exist. */
export function rotateIngestKey(services: Services, projectId: number, keyId: number, input: RotateInput, userId: number | null): IssuedKey | undefined {
  const old = getIngestKey(services.meta, projectId, keyId);
  if (!old) return undefined;
  if (old.revoked_at) throw new ConflictError('a revoked key cannot be rotated', 'key_revoked');
  const next = replacementInput(old, input, services.clock.now());
  const checked = checkKeyInput(next, services.clock.now());
  return services.meta.transaction(() => {
    const issued = insertKey(services, {
      projectId,
      type: next.type,
      name: next.name,
      scopes: checked.scopes,
      domains: checked.domains,
      expiresAt: checked.expiresAt,
      linkingSplit: true,
      rotatedFrom: old.id,
      createdBy: userId,
    });
    revokeIngestKey(services, projectId, old.id);
    return issued;
  })();
}

/** Revokes a key (idempotent). False when the project has no such key. */
export function revokeIngestKey(services: Services, projectId: number, keyId: number): boolean {
  const found = services.meta.prepare('SELECT 1 FROM ingest_keys WHERE project_id = ? AND id = ?').get(projectId, keyId);
  if (!found) return false;
  services.meta.prepare('UPDATE ingest_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(services.clock.now().toISOString(), keyId);
  return true;
}

function isLive(key: Pick<IngestKey, 'revoked_at' | 'expires_at'>, now: Date): boolean {
  return !key.revoked_at && (!key.expires_at || Date.parse(key.expires_at) > now.getTime());
}

/** The live key a presented value names, or undefined for an unknown, wrong, revoked or expired one. */
export function verifyIngestKey(services: Services, presented: ParsedValue): IngestKey | undefined {
  const row = cachedStatement(services.meta, `SELECT ${COLUMNS} FROM ingest_keys WHERE public_id = ?`).get(presented.publicId) as KeyRow | undefined;
  if (!row) {
    spendComparison(services, presented.secret);
    return undefined;
  }
  const matches = secretMatches(services, presented.secret, row.secret_hash);
  if (!matches || row.type !== presented.kind || !isLive(row, services.clock.now())) return undefined;
  return fromRow(row);
}

/** The project whose public collection configuration a prefix may read: live browser or legacy keys only. */
export function projectForPublicId(meta: MetaDb, publicId: string, now: Date): number | undefined {
  const row = meta.prepare(`SELECT project_id, expires_at, revoked_at FROM ingest_keys WHERE public_id = ? AND type IN ('browser', 'legacy')`).get(publicId) as
    | { project_id: number; expires_at: string | null; revoked_at: string | null }
    | undefined;
  return row && isLive(row, now) ? row.project_id : undefined;
}

export interface LegacyImport {
  imported: Array<{ id: number; prefix: string }>;
  skipped: Array<{ line: number; prefix?: string; reason: string }>;
}

/**
 * Stores pp_wk_ values carried over from an older installation. They keep every ingestion scope
 * but were issued before identity linking became its own right, so identify and alias refuse them
 * until they are rotated.
 */
export function importLegacyKeys(services: Services, projectId: number, values: string[], options: { name?: string; domains?: string[] } = {}): LegacyImport {
  const domains = (options.domains ?? []).map((d) => {
    const n = normalizeDomainEntry(d);
    if (!n) throw new ValidationError(`domain ${JSON.stringify(d)} ${DOMAIN_ENTRY_HELP}`, 'domains');
    return n;
  });
  const result: LegacyImport = { imported: [], skipped: [] };
  const exists = services.meta.prepare('SELECT 1 FROM ingest_keys WHERE public_id = ?');
  services.meta.transaction(() => {
    values.forEach((raw, i) => {
      const value = raw.trim();
      const parsed = parseValue(value);
      if (parsed?.kind !== 'legacy') return void result.skipped.push({ line: i + 1, reason: 'not a pp_wk_ key value' });
      if (exists.get(parsed.publicId)) return void result.skipped.push({ line: i + 1, prefix: parsed.publicId, reason: 'already present' });
      const issued = insertKey(services, {
        projectId,
        type: 'legacy',
        name: options.name ?? 'imported legacy key',
        scopes: INGEST_SCOPES,
        domains,
        expiresAt: null,
        linkingSplit: false,
        createdBy: null,
        value: { ...parsed, value },
      });
      result.imported.push({ id: issued.key.id, prefix: parsed.publicId });
    });
  })();
  return result;
}

export function keyStatus(key: Pick<IngestKey, 'revoked_at' | 'expires_at'>, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revoked_at) return 'revoked';
  return isLive(key, now) ? 'active' : 'expired';
}

export function presentIngestKey(key: IngestKey, now: Date): Record<string, unknown> {
  return {
    id: key.id,
    type: key.type,
    name: key.name,
    prefix: key.public_id,
    scopes: key.scopes,
    domains: key.domains,
    expires_at: key.expires_at,
    status: keyStatus(key, now),
    linking_split: key.linking_split,
    rotated_from: key.rotated_from,
    created_at: key.created_at,
    revoked_at: key.revoked_at,
  };
}
