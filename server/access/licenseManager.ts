// The installation's license at run time: verifies the stored token at start and on apply, keeps
// the high-water mark of trusted time, and answers which entitlements hold right now. A license
// never stops ingestion or reports; it only switches the gated features.

import path from 'node:path';
import type { Clock } from '../ground/clock.js';
import type { Config } from '../ground/config.js';
import type { Logger } from '../ground/logger.js';
import type { MetaDb } from '../store/sqlite.js';
import {
  advanceHighWater,
  entitlementsOf,
  licenseState,
  LicenseError,
  loadTrustedKeys,
  trustedTime,
  verifyLicense,
  type Entitlement,
  type LicenseState,
  type TrustedKeys,
  type VerifiedLicense,
} from '../../license/index.js';
import { packageRoot } from '../ground/packageRoot.js';
import { installId, readInstallationValue, writeInstallationValue } from './installation.js';

const HIGH_WATER_KEY = 'license_high_water';
const PERSIST_EVERY_MS = 60_000;

export interface LicenseReport extends LicenseState {
  license_id: string | null;
  customer_id: string | null;
  edition: string | null;
  install_id: string;
  clock_warning?: string;
  /** Why the stored license was refused at start (key no longer trusted, edited file …). */
  refused?: string;
}

export class LicenseRefusedError extends Error {
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(message);
  }
}

export class LicenseManager {
  private license: VerifiedLicense | null = null;
  private refused: string | undefined;
  private highWater: Date | null;
  private lastPersistMs = 0;
  private readonly keys: TrustedKeys;

  constructor(
    private readonly db: MetaDb,
    private readonly clock: Clock,
    private readonly log: Logger,
    config: Config,
  ) {
    this.keys = loadTrustedKeys({ builtinDir: path.join(packageRoot(), 'license', 'keys'), extraDir: config.license.trusted_keys_dir });
    const stored = readInstallationValue(db, HIGH_WATER_KEY);
    this.highWater = stored ? new Date(stored) : null;
  }

  /** Re-verifies the stored license; called at every start. `newestEventAt` is the latest receipt time. */
  async load(newestEventAt: Date | null): Promise<void> {
    this.advance(newestEventAt, true);
    const row = this.db.prepare('SELECT token FROM licenses WHERE removed_at IS NULL ORDER BY id DESC LIMIT 1').get() as { token: string } | undefined;
    this.license = null;
    this.refused = undefined;
    if (!row) return;
    try {
      this.license = await this.verify(row.token);
    } catch (err) {
      if (err instanceof LicenseError && err.check === 'expired' && err.license) {
        this.license = err.license;
        return;
      }
      this.refused = (err as Error).message;
      this.log.warn({ reason: this.refused }, 'stored license refused');
    }
  }

  /** Verifies and stores a license token, replacing the current one. Throws LicenseRefusedError. */
  async apply(token: string): Promise<LicenseReport> {
    this.advance(null, true);
    let verified: VerifiedLicense;
    try {
      verified = await this.verify(token.trim());
    } catch (err) {
      if (err instanceof LicenseError) throw new LicenseRefusedError(err.check, err.message);
      throw err;
    }
    const now = this.clock.now().toISOString();
    this.db.transaction(() => {
      this.db.prepare('UPDATE licenses SET removed_at = ? WHERE removed_at IS NULL').run(now);
      this.db.prepare('INSERT INTO licenses (token, license_id, applied_at) VALUES (?, ?, ?)').run(token.trim(), verified.license_id, now);
    })();
    this.license = verified;
    this.refused = undefined;
    this.log.info({ license_id: verified.license_id, licensee: verified.licensee, expires_at: verified.expires_at }, 'license applied');
    return this.report();
  }

  remove(): LicenseReport {
    this.db.prepare('UPDATE licenses SET removed_at = ? WHERE removed_at IS NULL').run(this.clock.now().toISOString());
    this.license = null;
    this.refused = undefined;
    this.log.info('license removed');
    return this.report();
  }

  report(): LicenseReport {
    const time = this.advance(null, false);
    const state = licenseState(this.license, time.now);
    const report: LicenseReport = {
      ...state,
      license_id: this.license?.license_id ?? null,
      customer_id: this.license?.customer_id ?? null,
      edition: this.license?.edition ?? null,
      install_id: installId(this.db),
    };
    if (time.clock_skew_warning) report.clock_warning = time.clock_skew_warning;
    if (this.refused) report.refused = this.refused;
    return report;
  }

  entitlements(): ReadonlySet<Entitlement> {
    if (!this.license) return new Set();
    return entitlementsOf(licenseState(this.license, this.advance(null, false).now));
  }

  private verify(token: string): Promise<VerifiedLicense> {
    return verifyLicense(token, { trustedKeys: this.keys, now: this.advance(null, false).now, installId: installId(this.db) });
  }

  /** Moves the high-water mark forward (never back) and persists it at most once a minute. */
  private advance(newestEventAt: Date | null, persist: boolean): { now: Date; clock_skew_warning?: string } {
    const sources = { clock: this.clock.now(), highWater: this.highWater, newestEventAt, iat: this.license?.issued_at ?? null };
    const time = trustedTime(sources);
    this.highWater = advanceHighWater(sources);
    const nowMs = sources.clock.getTime();
    if (persist || nowMs - this.lastPersistMs > PERSIST_EVERY_MS) {
      writeInstallationValue(this.db, HIGH_WATER_KEY, this.highWater.toISOString());
      this.lastPersistMs = nowMs;
    }
    return time;
  }
}
