// The one error a license refusal throws: `check` names the failed check for code,
// `message` says it for a person. Mapping to HTTP or exit codes is left to callers.
import type { VerifiedLicense } from './verifyLicense.js';

export type LicenseCheck = 'format' | 'alg' | 'typ' | 'kid' | 'signature' | 'iss' | 'aud' | 'claims' | 'install_id' | 'nbf' | 'expired';

export class LicenseError extends Error {
  override readonly name = 'LicenseError';
  readonly check: LicenseCheck;
  // Set only for 'expired': every other check passed, so the server can still show
  // who the license was for and when it ended instead of pretending there is none.
  readonly license?: VerifiedLicense;

  constructor(check: LicenseCheck, message: string, license?: VerifiedLicense) {
    super(message);
    this.check = check;
    if (license) this.license = license;
  }
}
