// Real Ed25519 keys in a temporary trusted-keys directory, and token builders that can
// produce both honest licenses and hand-crafted hostile ones.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LicenseError } from '../../license/LicenseError.js';
import { signLicense, type LicenseTerms } from '../../license/signLicense.js';
import { builtinKeysDir, loadTrustedKeys, type TrustedKeys } from '../../license/trustedKeys.js';
import { verifyLicense, type VerifyLicenseOptions } from '../../license/verifyLicense.js';
import { processTempDir } from '../support/tempDir.js';

export const DAY_MS = 86_400_000;
export const NOW = new Date('2026-06-01T12:00:00Z');

export interface Signer {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicPem: string;
}

export function makeSigner(kid: string): Signer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { kid, privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

// The way a test installation trusts its own key: a directory named by configuration.
export function trustDir(...signers: Signer[]): string {
  const dir = processTempDir('pp-license-keys-');
  for (const s of signers) writeFileSync(join(dir, `${s.kid}.pem`), s.publicPem);
  return dir;
}

export const vendor = makeSigner('test-vendor-a');
export const trustedKeys: TrustedKeys = loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: trustDir(vendor) });

export function terms(overrides: Partial<LicenseTerms> = {}): LicenseTerms {
  return {
    customerId: 'cus_acme',
    licensee: 'Acme Corp',
    edition: 'enterprise',
    features: ['actor_drilldown', 'saved_segments'],
    limits: { projects: 10 },
    graceDays: 14,
    issuedAt: new Date(NOW.getTime() - 10 * DAY_MS),
    expiresAt: new Date(NOW.getTime() + 365 * DAY_MS),
    ...overrides,
  };
}

export function signFor(overrides: Partial<LicenseTerms> = {}, signer: Signer = vendor): Promise<string> {
  return signLicense(terms(overrides), signer.privateKey, signer.kid);
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

// Signs arbitrary header and payload with a real Ed25519 signature, bypassing
// signLicense so a test can produce a correctly signed but wrong token.
export function signRaw(header: Record<string, unknown>, payload: Record<string, unknown>, signer: Signer = vendor): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), signer.privateKey).toString('base64url')}`;
}

export function goodHeader(signer: Signer = vendor): Record<string, unknown> {
  return { alg: 'EdDSA', kid: signer.kid, typ: 'license+jwt' };
}

export function goodPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const iat = Math.floor(NOW.getTime() / 1000) - 10 * 86_400;
  return {
    iss: 'pp-licensing',
    aud: 'pp-appliance',
    sub: 'cus_acme',
    jti: 'lic_1',
    iat,
    nbf: iat,
    exp: iat + 400 * 86_400,
    lic: { licensee: 'Acme Corp', edition: 'enterprise', features: ['actor_drilldown'], limits: {}, grace_days: 14 },
    ...overrides,
  };
}

export function options(overrides: Partial<VerifyLicenseOptions> = {}): VerifyLicenseOptions {
  return { trustedKeys, now: NOW, ...overrides };
}

// Resolves to the LicenseError a refusal throws, or undefined when the token verified,
// so a test comparing `.check` fails loudly if nothing was refused.
export async function refusal(token: string, opts: VerifyLicenseOptions = options()): Promise<LicenseError | undefined> {
  try {
    await verifyLicense(token, opts);
    return undefined;
  } catch (err) {
    if (err instanceof LicenseError) return err;
    throw err;
  }
}
