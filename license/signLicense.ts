// Vendor side: turns license terms into a signed token. Used by the sign CLI and by
// tests; the appliance itself never signs.
import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { LICENSE_ALG, LICENSE_AUDIENCE, LICENSE_ISSUER, LICENSE_TYP, type LicenseBody } from './licenseClaims.js';

export interface LicenseTerms {
  customerId: string;
  licensee: string;
  edition: string;
  features: string[];
  limits?: Record<string, unknown>;
  graceDays: number;
  installId?: string;
  expiresAt: Date;
  // Defaults to issuedAt.
  notBefore?: Date;
  issuedAt: Date;
  // Defaults to a random UUID.
  licenseId?: string;
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export async function signLicense(terms: LicenseTerms, privateKey: KeyObject, kid: string): Promise<string> {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error('A license must be signed with an Ed25519 private key.');
  }
  const lic: LicenseBody = {
    licensee: terms.licensee,
    edition: terms.edition,
    features: [...terms.features],
    limits: { ...(terms.limits ?? {}) },
    grace_days: terms.graceDays,
  };
  if (terms.installId !== undefined) lic.install_id = terms.installId;
  return new SignJWT({ lic })
    .setProtectedHeader({ alg: LICENSE_ALG, kid, typ: LICENSE_TYP })
    .setIssuer(LICENSE_ISSUER)
    .setAudience(LICENSE_AUDIENCE)
    .setSubject(terms.customerId)
    .setJti(terms.licenseId ?? randomUUID())
    .setIssuedAt(seconds(terms.issuedAt))
    .setNotBefore(seconds(terms.notBefore ?? terms.issuedAt))
    .setExpirationTime(seconds(terms.expiresAt))
    .sign(privateKey);
}
