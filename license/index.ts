// The license library's public interface, for the server, ppctl and the bootstrap section.
export { LicenseError, type LicenseCheck } from './LicenseError.js';
export {
  KNOWN_FEATURES,
  LICENSE_ALG,
  LICENSE_AUDIENCE,
  LICENSE_ISSUER,
  LICENSE_TYP,
  type LicenseBody,
  type LicenseClaims,
} from './licenseClaims.js';
export { verifyLicense, type VerifiedLicense, type VerifyLicenseOptions } from './verifyLicense.js';
export { signLicense, type LicenseTerms } from './signLicense.js';
export {
  builtinKeysDir,
  loadTrustedKeys,
  TrustedKeyError,
  type LoadTrustedKeysOptions,
  type TrustedKey,
  type TrustedKeys,
} from './trustedKeys.js';
export {
  advanceHighWater,
  licenseState,
  trustedTime,
  type LicenseState,
  type LicenseStatus,
  type NoticeDays,
  type TimeSources,
  type TrustedTime,
} from './licenseState.js';
export { entitlementsOf, isEntitlement, type Entitlement } from './entitlements.js';
