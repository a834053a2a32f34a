// A license key pair for tests: its public half is trusted through the documented setting
// (license.trusted_keys_dir), its private half signs test licenses.

import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { signLicense, type LicenseTerms } from '../../license/index.js';
import type { Entitlement } from '../../server/license/requireEntitlement.js';
import type { TestServer } from './testServer.js';
import { processTempDir } from './tempDir.js';

export const TEST_KID = 'pp-test-key';
const DAY_MS = 86_400_000;

let keys: { dir: string; privateKey: KeyObject } | undefined;

/** The directory holding the test public key, created once per process. */
export function testKeysDir(): string {
  if (!keys) {
    const dir = processTempDir('pp-license-keys-');
    const pair = generateKeyPairSync('ed25519');
    writeFileSync(path.join(dir, `${TEST_KID}.pem`), pair.publicKey.export({ type: 'spki', format: 'pem' }));
    keys = { dir, privateKey: pair.privateKey };
  }
  return keys.dir;
}

export function testPrivateKey(): KeyObject {
  testKeysDir();
  return keys!.privateKey;
}

/** Signs a license with the test key; terms default to a year from `now` with both features. */
export function signTestLicense(now: Date, terms: Partial<LicenseTerms> = {}): Promise<string> {
  return signLicense(
    {
      customerId: 'cust-test',
      licensee: 'Test Customer',
      edition: 'scale',
      features: ['actor_drilldown', 'saved_segments'],
      graceDays: 14,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 365 * DAY_MS),
      ...terms,
    },
    testPrivateKey(),
    TEST_KID,
  );
}

/** Applies a signed license granting exactly `entitlements`, as `ppctl license apply` does. */
export async function grantEntitlements(server: TestServer, entitlements: Entitlement[]): Promise<void> {
  const now = server.clock.now();
  await server.running.services.license.apply(await signTestLicense(now, { features: entitlements }));
}
