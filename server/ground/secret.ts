// The server secret: from configuration, or generated once into DATA_DIR/secret.key (mode 0600).

import { randomBytes, createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function loadSecret(dataDir: string, configured?: string): Buffer {
  if (configured) return createHash('sha256').update(configured).digest();
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} is not a 64-character hex secret`);
  return Buffer.from(hex, 'hex');
}
