// Purpose-bound keys derived from the server secret (HKDF), so one leaked purpose never unlocks another.

import { hkdfSync } from 'node:crypto';

export type KeyPurpose =
  | 'access-token'
  | 'cursor'
  | 'totp-encryption'
  | 'oidc-encryption'
  | 'picker-token'
  | 'token-hash'
  | 'mail-encryption';

export function deriveKey(secret: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `pp/${purpose}`, 32));
}
