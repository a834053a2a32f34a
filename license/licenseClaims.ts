// The license format: fixed header and claim values, the claim types, and the shape
// check run on a payload whose signature is already verified.
import { LicenseError } from './LicenseError.js';

export const LICENSE_ALG = 'EdDSA';
export const LICENSE_TYP = 'license+jwt';
export const LICENSE_ISSUER = 'pp-licensing';
export const LICENSE_AUDIENCE = 'pp-appliance';

// Feature names the appliance acts on. A license may name others (a newer vendor
// tool, a typo); they are kept and shown but unlock nothing.
export const KNOWN_FEATURES = ['actor_drilldown', 'saved_segments'] as const;

export interface LicenseBody {
  licensee: string;
  edition: string;
  features: string[];
  limits: Record<string, unknown>;
  grace_days: number;
  install_id?: string;
}

export interface LicenseClaims {
  iss: string;
  aud: string | string[];
  sub: string;
  jti: string;
  iat: number;
  nbf: number;
  exp: number;
  lic: LicenseBody;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(message: string): never {
  throw new LicenseError('claims', `License claims are malformed: ${message}.`);
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') refuse(`${name} must be a non-empty string`);
  return value;
}

function requireNumericDate(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    refuse(`${name} must be a date in seconds since 1970`);
  }
  return value;
}

function parseBody(lic: unknown): LicenseBody {
  if (!isPlainObject(lic)) refuse('lic must be an object');
  const features = lic.features;
  if (!Array.isArray(features) || !features.every((f) => typeof f === 'string')) {
    refuse('lic.features must be a list of strings');
  }
  if (!isPlainObject(lic.limits)) refuse('lic.limits must be an object');
  const grace = lic.grace_days;
  if (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0) {
    refuse('lic.grace_days must be a whole number of days, 0 or more');
  }
  const body: LicenseBody = {
    licensee: requireText(lic.licensee, 'lic.licensee'),
    edition: requireText(lic.edition, 'lic.edition'),
    features: [...features],
    limits: { ...lic.limits },
    grace_days: grace,
  };
  if (lic.install_id !== undefined) body.install_id = requireText(lic.install_id, 'lic.install_id');
  return body;
}

// iss and aud are compared by the caller (they have their own checks); here they only
// need to exist with the right type.
export function parseLicenseClaims(payload: unknown): LicenseClaims {
  if (!isPlainObject(payload)) refuse('the payload is not a JSON object');
  const aud = payload.aud;
  const audOk = typeof aud === 'string' || (Array.isArray(aud) && aud.every((a) => typeof a === 'string'));
  if (!audOk) refuse('aud must be a string or a list of strings');
  const claims: LicenseClaims = {
    iss: requireText(payload.iss, 'iss'),
    aud: aud as string | string[],
    sub: requireText(payload.sub, 'sub'),
    jti: requireText(payload.jti, 'jti'),
    iat: requireNumericDate(payload.iat, 'iat'),
    nbf: requireNumericDate(payload.nbf, 'nbf'),
    exp: requireNumericDate(payload.exp, 'exp'),
    lic: parseBody(payload.lic),
  };
  if (claims.exp <= claims.nbf) refuse('exp must be later than nbf');
  return claims;
}
