// The rows of pending signups and the log of verification emails. A row holds what the person typed
// (password already hashed) until they prove the address; its code and link token are kept only as
// keyed hashes. Whoever calls these decides the rules; this file only reads and writes.

import type { Services } from '../../http/services.js';
import { normalizeEmail } from '../../accounts/users.js';
import { hashMatches, hashToken } from '../../ground/tokenHash.js';
import { latestLiveExpiry } from '../../ground/clock.js';

/** More wrong codes than this and the verification is dead. */
export const MAX_WRONG_CODES = 10;
export const VERIFICATION_TTL_MS = 10 * 60_000;

export interface PendingSignup {
  id: number;
  email: string;
  password_hash: string;
  name: string | null;
  org_name: string | null;
  timezone: string | null;
  device_fp: string | null;
  utm: string | null;
  ip: string | null;
  code_hash: string;
  expires_at: string;
}

export interface NewSignup {
  email: string;
  passwordHash: string;
  name?: string;
  orgName?: string;
  timezone?: string;
  deviceFp?: string;
  utm?: Record<string, string>;
  ip?: string;
}

const COLUMNS = 'id, email, password_hash, name, org_name, timezone, device_fp, utm, ip, code_hash, expires_at';
// An expiry further ahead than the lifetime was set before the clock stepped back (see clock.ts).
const LIVE = 'consumed_at IS NULL AND retired_at IS NULL AND expires_at > ? AND expires_at <= ? AND wrong_attempts <= ?';
const liveBounds = (services: Services) => [services.clock.now().toISOString(), latestLiveExpiry(services.clock.now(), VERIFICATION_TTL_MS), MAX_WRONG_CODES];

// The code is hashed with its address so that one code hash says nothing about another row's.
const codeText = (email: string, code: string) => `${normalizeEmail(email)}\u0000${code}`;

export function hashCode(services: Services, email: string, code: string): string {
  return hashToken(services, 'signup-code', codeText(email, code));
}

export function hashLinkToken(services: Services, token: string): string {
  return hashToken(services, 'signup-link', token);
}

export function codeMatches(services: Services, row: PendingSignup, code: string): boolean {
  return hashMatches(services, 'signup-code', codeText(row.email, code), row.code_hash);
}

export function liveSignupByEmail(services: Services, email: string): PendingSignup | undefined {
  return services.meta.prepare(`SELECT ${COLUMNS} FROM signup_verifications WHERE email = ? AND ${LIVE} ORDER BY id DESC LIMIT 1`).get(normalizeEmail(email), ...liveBounds(services)) as
    | PendingSignup
    | undefined;
}

export function liveSignupByToken(services: Services, token: string): PendingSignup | undefined {
  return services.meta.prepare(`SELECT ${COLUMNS} FROM signup_verifications WHERE token_hash = ? AND ${LIVE}`).get(hashLinkToken(services, token), ...liveBounds(services)) as
    | PendingSignup
    | undefined;
}

export function liveSignupById(services: Services, id: number): PendingSignup | undefined {
  return services.meta.prepare(`SELECT ${COLUMNS} FROM signup_verifications WHERE id = ? AND ${LIVE}`).get(id, ...liveBounds(services)) as PendingSignup | undefined;
}

export function countWrongCode(services: Services, id: number): void {
  services.meta.prepare('UPDATE signup_verifications SET wrong_attempts = wrong_attempts + 1 WHERE id = ?').run(id);
}

export function markConsumed(services: Services, id: number): void {
  services.meta.prepare('UPDATE signup_verifications SET consumed_at = ? WHERE id = ?').run(services.clock.now().toISOString(), id);
}

/** Inserts a pending signup, retiring any earlier one of the same address; returns its id. */
export function insertSignup(services: Services, input: NewSignup, secrets: { codeHash: string; tokenHash: string }, expiresAt: Date): number {
  const now = services.clock.now().toISOString();
  const email = normalizeEmail(input.email);
  services.meta.prepare('UPDATE signup_verifications SET retired_at = ? WHERE email = ? AND consumed_at IS NULL AND retired_at IS NULL').run(now, email);
  const info = services.meta
    .prepare(
      `INSERT INTO signup_verifications (email, password_hash, name, org_name, timezone, device_fp, utm, ip, code_hash, token_hash, created_at, expires_at, last_sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      email,
      input.passwordHash,
      input.name ?? null,
      input.orgName ?? null,
      input.timezone ?? null,
      input.deviceFp ?? null,
      input.utm ? JSON.stringify(input.utm) : null,
      input.ip ?? null,
      secrets.codeHash,
      secrets.tokenHash,
      now,
      expiresAt.toISOString(),
      now,
    );
  return Number(info.lastInsertRowid);
}

/** New code and token for a live row; the old ones stop matching at once. The deadline stays. */
export function replaceSecrets(services: Services, id: number, secrets: { codeHash: string; tokenHash: string }): void {
  services.meta
    .prepare('UPDATE signup_verifications SET code_hash = ?, token_hash = ?, last_sent_at = ? WHERE id = ?')
    .run(secrets.codeHash, secrets.tokenHash, services.clock.now().toISOString(), id);
}

/** When the row's latest email went out. */
export function lastSentAt(services: Services, id: number): Date {
  const row = services.meta.prepare('SELECT last_sent_at FROM signup_verifications WHERE id = ?').get(id) as { last_sent_at: string };
  return new Date(row.last_sent_at);
}

export function recordEmailSent(services: Services, email: string): void {
  services.meta.prepare('INSERT INTO signup_emails (email, sent_at) VALUES (?, ?)').run(normalizeEmail(email), services.clock.now().toISOString());
}

export function emailsSentBetween(services: Services, email: string, since: Date, until: Date): number {
  const row = services.meta
    .prepare('SELECT count(*) AS n FROM signup_emails WHERE email = ? AND sent_at > ? AND sent_at <= ?')
    .get(normalizeEmail(email), since.toISOString(), until.toISOString()) as { n: number };
  return row.n;
}

/** How many different addresses began a signup from `ip` after `since` (risk rules). */
export function signupsFromIpSince(services: Services, ip: string, since: Date): number {
  const row = services.meta.prepare('SELECT count(DISTINCT email) AS n FROM signup_verifications WHERE ip = ? AND created_at > ?').get(ip, since.toISOString()) as { n: number };
  return row.n;
}
