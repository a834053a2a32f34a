// Verifies a license token against the trusted keys and a trusted `now`, returning its
// contents or throwing a LicenseError naming the first failed check. Storage is not here.
import { compactVerify, decodeProtectedHeader, errors } from 'jose';
import { LICENSE_ALG, LICENSE_AUDIENCE, LICENSE_ISSUER, LICENSE_TYP, parseLicenseClaims, type LicenseClaims } from './licenseClaims.js';
import { LicenseError } from './LicenseError.js';
import type { TrustedKeys } from './trustedKeys.js';

export interface VerifyLicenseOptions {
  trustedKeys: TrustedKeys;
  // The trusted time (see trustedTime), never read from the clock here.
  now: Date;
  // This installation's id; a license bound to an installation needs it to match.
  installId?: string;
  // Leeway for nbf only: a license signed a moment ago must apply on a machine whose
  // clock lags a little. Expiry gets no leeway; grace_days is the leeway there.
  notBeforeToleranceSeconds?: number;
}

export interface VerifiedLicense {
  kid: string;
  license_id: string;
  customer_id: string;
  licensee: string;
  edition: string;
  features: string[];
  limits: Record<string, unknown>;
  grace_days: number;
  install_id?: string;
  issued_at: Date;
  not_before: Date;
  expires_at: Date;
  grace_ends_at: Date;
  claims: LicenseClaims;
}

const DAY_MS = 86_400_000;
const MAX_TOKEN_LENGTH = 16_384;
const DEFAULT_NBF_TOLERANCE_SECONDS = 300;
// Empty payload and signature segments are allowed through so that an `alg: none`
// token is reported as a refused algorithm rather than as a formatting problem.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

// Header values come from an unverified token: quote them, shortened, never raw.
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function checkFormat(token: string): void {
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
    throw new LicenseError('format', 'License is not a well-formed token: expected three base64url parts separated by dots.');
  }
  // Base64url has spare bits in its last character; insisting on the canonical form
  // means an edited character can never decode to the same bytes and slip through.
  for (const part of token.split('.')) {
    if (Buffer.from(part, 'base64url').toString('base64url') !== part) {
      throw new LicenseError('format', 'License is not a well-formed token: a part is not canonical base64url.');
    }
  }
}

function readHeader(token: string): { kid: string } & Record<string, unknown> {
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token) as Record<string, unknown>;
  } catch {
    throw new LicenseError('format', 'License is not a well-formed token: its header is not a JSON object.');
  }
  if (header.alg !== LICENSE_ALG) {
    throw new LicenseError('alg', `License algorithm ${quote(header.alg)} is refused: only ${LICENSE_ALG} (Ed25519) signatures are accepted.`);
  }
  if (header.typ !== LICENSE_TYP) {
    throw new LicenseError('typ', `License type ${quote(header.typ)} is refused: expected "${LICENSE_TYP}".`);
  }
  if (typeof header.kid !== 'string') {
    throw new LicenseError('kid', 'License header names no signing key (kid).');
  }
  return header as { kid: string } & Record<string, unknown>;
}

async function checkSignature(token: string, header: { kid: string }, keys: TrustedKeys): Promise<Uint8Array> {
  const trusted = keys.get(header.kid);
  if (!trusted) {
    throw new LicenseError('kid', `License was signed with key ${quote(header.kid)}, which is not a trusted license key.`);
  }
  try {
    const { payload } = await compactVerify(token, trusted.key, { algorithms: [LICENSE_ALG] });
    return payload;
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed) {
      throw new LicenseError('signature', `License signature check failed: the license was altered or was not signed by key "${header.kid}".`);
    }
    // Anything else jose refuses (crit parameters, b64:false…) is a malformed token.
    throw new LicenseError('format', `License is not a well-formed token: ${(err as Error).message}.`);
  }
}

function readPayload(bytes: Uint8Array): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new LicenseError('claims', 'License claims are malformed: the payload is not JSON.');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new LicenseError('claims', 'License claims are malformed: the payload is not a JSON object.');
  }
  return payload as Record<string, unknown>;
}

function checkIssuerAndAudience(payload: Record<string, unknown>): void {
  if (payload.iss !== LICENSE_ISSUER) {
    throw new LicenseError('iss', `License issuer ${quote(payload.iss)} is refused: expected "${LICENSE_ISSUER}".`);
  }
  const aud = payload.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(LICENSE_AUDIENCE)) {
    throw new LicenseError('aud', `License audience ${quote(aud)} is refused: the license is not meant for "${LICENSE_AUDIENCE}".`);
  }
}

function toVerified(kid: string, claims: LicenseClaims): VerifiedLicense {
  const expiresAt = new Date(claims.exp * 1000);
  const verified: VerifiedLicense = {
    kid,
    license_id: claims.jti,
    customer_id: claims.sub,
    licensee: claims.lic.licensee,
    edition: claims.lic.edition,
    features: [...claims.lic.features],
    limits: { ...claims.lic.limits },
    grace_days: claims.lic.grace_days,
    issued_at: new Date(claims.iat * 1000),
    not_before: new Date(claims.nbf * 1000),
    expires_at: expiresAt,
    grace_ends_at: new Date(expiresAt.getTime() + claims.lic.grace_days * DAY_MS),
    claims,
  };
  if (claims.lic.install_id !== undefined) verified.install_id = claims.lic.install_id;
  return verified;
}

function checkInstallation(license: VerifiedLicense, installId: string | undefined): void {
  if (license.install_id === undefined || license.install_id === installId) return;
  const here = installId === undefined ? 'this installation has no id' : `this installation is ${quote(installId)}`;
  throw new LicenseError('install_id', `License is bound to installation ${quote(license.install_id)}, but ${here}.`);
}

function checkTime(license: VerifiedLicense, now: Date, toleranceSeconds: number): void {
  if (license.not_before.getTime() - toleranceSeconds * 1000 > now.getTime()) {
    throw new LicenseError('nbf', `License is not valid yet: it starts on ${license.not_before.toISOString()}.`);
  }
  // JWT expiry is exclusive: at exp itself the license has ended (and grace begins).
  if (now.getTime() >= license.grace_ends_at.getTime()) {
    const grace = license.grace_days > 0 ? ` and its ${license.grace_days}-day grace period ended on ${license.grace_ends_at.toISOString()}` : '';
    throw new LicenseError('expired', `License has expired: it ended on ${license.expires_at.toISOString()}${grace}.`, license);
  }
}

export async function verifyLicense(token: string, options: VerifyLicenseOptions): Promise<VerifiedLicense> {
  if (typeof token !== 'string') throw new LicenseError('format', 'License is not a well-formed token: it is not text.');
  // License files usually end with a newline; nothing else around the token is accepted.
  const compact = token.trim();
  checkFormat(compact);
  const header = readHeader(compact);
  const payload = readPayload(await checkSignature(compact, header, options.trustedKeys));
  checkIssuerAndAudience(payload);
  const license = toVerified(header.kid, parseLicenseClaims(payload));
  checkInstallation(license, options.installId);
  checkTime(license, options.now, options.notBeforeToleranceSeconds ?? DEFAULT_NBF_TOLERANCE_SECONDS);
  return license;
}
