// The rows of SMS activation: one per code sent to a held organization, and one per phone number that
// activated an organization. Numbers and codes are kept only as keyed hashes (HMAC-SHA256 with a key
// derived from the server secret). Whoever calls these decides the rules; this file reads and writes.

import type { Services } from '../../http/services.js';
import { latestLiveExpiry } from '../../ground/clock.js';
import { hashMatches, hashToken } from '../../ground/tokenHash.js';

/** More wrong codes than this and the code is dead. */
export const MAX_WRONG_SMS_CODES = 10;
export const SMS_CODE_TTL_MS = 10 * 60_000;

export interface SmsCode {
  id: number;
  org_id: number;
  phone_hash: string;
  code_hash: string;
  expires_at: string;
}

export function hashPhone(services: Services, phone: string): string {
  return hashToken(services, 'sms-phone', phone);
}

// The code is hashed with its organization so that one code hash says nothing about another row's.
const smsCodeText = (orgId: number, code: string) => `${orgId}\u0000${code}`;

export function hashSmsCode(services: Services, orgId: number, code: string): string {
  return hashToken(services, 'sms-code', smsCodeText(orgId, code));
}

export function smsCodeMatches(services: Services, row: SmsCode, code: string): boolean {
  return hashMatches(services, 'sms-code', smsCodeText(row.org_id, code), row.code_hash);
}

/** The organization's latest code while it can still be proven: not replaced, used, expired or dead. */
export function liveSmsCode(services: Services, orgId: number): SmsCode | undefined {
  return services.meta
    .prepare(
      `SELECT id, org_id, phone_hash, code_hash, expires_at FROM sms_codes
        WHERE org_id = ? AND retired_at IS NULL AND consumed_at IS NULL AND expires_at > ? AND expires_at <= ? AND wrong_attempts <= ?
        ORDER BY id DESC LIMIT 1`,
    )
    .get(orgId, services.clock.now().toISOString(), latestLiveExpiry(services.clock.now(), SMS_CODE_TTL_MS), MAX_WRONG_SMS_CODES) as SmsCode | undefined;
}

/** Stores a new code; every earlier code of the organization stops working. */
export function insertSmsCode(services: Services, orgId: number, hashes: { phoneHash: string; codeHash: string }, expiresAt: Date): void {
  const now = services.clock.now().toISOString();
  services.meta.prepare('UPDATE sms_codes SET retired_at = ? WHERE org_id = ? AND retired_at IS NULL AND consumed_at IS NULL').run(now, orgId);
  services.meta
    .prepare('INSERT INTO sms_codes (org_id, phone_hash, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
    .run(orgId, hashes.phoneHash, hashes.codeHash, now, expiresAt.toISOString());
}

export function countWrongSmsCode(services: Services, id: number): void {
  services.meta.prepare('UPDATE sms_codes SET wrong_attempts = wrong_attempts + 1 WHERE id = ?').run(id);
}

export function markSmsCodeConsumed(services: Services, id: number): void {
  services.meta.prepare('UPDATE sms_codes SET consumed_at = ? WHERE id = ?').run(services.clock.now().toISOString(), id);
}

/** When codes matching `by` were sent after `since` and up to `until`, oldest first (`by` is a fixed column). */
function sendsBetween(services: Services, by: 'org_id' | 'phone_hash', key: number | string, since: Date, until: Date): Date[] {
  const rows = services.meta
    .prepare(`SELECT created_at FROM sms_codes WHERE ${by} = ? AND created_at > ? AND created_at <= ? ORDER BY created_at, id`)
    .all(key, since.toISOString(), until.toISOString()) as Array<{ created_at: string }>;
  return rows.map((r) => new Date(r.created_at));
}

/** When the organization's codes after `since` and up to `until` were sent, oldest first. */
export const smsSendsBetween = (services: Services, orgId: number, since: Date, until: Date): Date[] => sendsBetween(services, 'org_id', orgId, since, until);

/** When codes after `since` and up to `until` were sent to the number, for any organization, oldest first. */
export const phoneSendsBetween = (services: Services, phoneHash: string, since: Date, until: Date): Date[] => sendsBetween(services, 'phone_hash', phoneHash, since, until);

/** The organization a number activated, if any. */
export function orgActivatedByPhone(services: Services, phoneHash: string): number | undefined {
  const row = services.meta.prepare('SELECT org_id FROM sms_used_phones WHERE phone_hash = ?').get(phoneHash) as { org_id: number } | undefined;
  return row?.org_id;
}

export function recordPhoneUsed(services: Services, phoneHash: string, orgId: number): void {
  services.meta.prepare('INSERT INTO sms_used_phones (phone_hash, org_id, activated_at) VALUES (?, ?, ?)').run(phoneHash, orgId, services.clock.now().toISOString());
}
