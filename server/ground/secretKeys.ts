// Purpose-bound keys derived from the server secret (HKDF), so one leaked purpose never unlocks another.

import { hkdfSync } from 'node:crypto';
import { PerOwner } from './perOwner.js';

export type KeyPurpose = 'access-token' | 'cursor' | 'totp-encryption' | 'oidc-encryption' | 'picker-token' | 'token-hash' | 'mail-encryption' | 'sms-encryption' | 'email-unsubscribe';

const derived = new PerOwner<Buffer, KeyPurpose, Buffer>();

/**
 * The key for `purpose`, derived once per secret and kept: ingestion and every API request need
 * one, and HKDF is not free. Callers must not modify the returned buffer.
 */
export function deriveKey(secret: Buffer, purpose: KeyPurpose): Buffer {
  return derived.get(secret, purpose, () => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `pp/${purpose}`, 32)));
}
