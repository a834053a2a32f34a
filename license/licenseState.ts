// Pure time logic: where a verified license stands at a trusted `now`, and how that
// trusted `now` is derived from a clock that may have been turned back.
import type { VerifiedLicense } from './verifyLicense.js';

export type LicenseStatus = 'none' | 'valid' | 'expiring' | 'grace' | 'expired';
export type NoticeDays = 30 | 14 | 7;

export interface LicenseState {
  status: LicenseStatus;
  licensee: string | null;
  // Whole days until the gated features turn off: until expiry while valid or
  // expiring, until the end of grace during grace, 0 once expired.
  days_left: number | null;
  // The warning threshold (30, 14 or 7 days) reached, so a notifier can send one notice
  // per threshold; null outside the expiring status.
  notice_days: NoticeDays | null;
  expires_at: string | null;
  grace_ends_at: string | null;
  warnings: string[];
  // The license's feature names while it grants anything (unknown names included,
  // entitlementsOf filters them); empty when expired or absent.
  features: string[];
}

const DAY_MS = 86_400_000;
// Ascending, so the first threshold at or above the days left is the one reached.
const NOTICE_THRESHOLDS: readonly NoticeDays[] = [7, 14, 30];
const EXPIRING_WITHIN_DAYS = 30;
const CLOCK_SKEW_TOLERANCE_MS = DAY_MS;

const day = (date: Date): string => date.toISOString().slice(0, 10);
const plural = (n: number): string => `${n} day${n === 1 ? '' : 's'}`;

function expiringWarning(license: VerifiedLicense, daysLeft: number): string {
  const after = license.grace_days > 0 ? `A ${license.grace_days}-day grace period follows, then actor drill-down and saved segments turn off` : 'Actor drill-down and saved segments then turn off';
  return `License for ${license.licensee} expires in ${plural(daysLeft)}, on ${day(license.expires_at)}. ${after}. Ingestion, reports and export are not affected.`;
}

export function licenseState(license: VerifiedLicense | null, now: Date): LicenseState {
  if (!license) {
    return { status: 'none', licensee: null, days_left: null, notice_days: null, expires_at: null, grace_ends_at: null, warnings: [], features: [] };
  }
  const base = {
    licensee: license.licensee,
    notice_days: null,
    expires_at: license.expires_at.toISOString(),
    grace_ends_at: license.grace_ends_at.toISOString(),
  };
  const t = now.getTime();
  const toExpiry = license.expires_at.getTime() - t;
  const toGraceEnd = license.grace_ends_at.getTime() - t;
  if (toGraceEnd <= 0) {
    const warning = `License for ${license.licensee} expired on ${day(license.expires_at)}: actor drill-down and saved segments are off. Ingestion, reports and export continue.`;
    return { status: 'expired', ...base, days_left: 0, warnings: [warning], features: [] };
  }
  if (toExpiry <= 0) {
    const daysLeft = Math.ceil(toGraceEnd / DAY_MS);
    const warning = `License for ${license.licensee} expired on ${day(license.expires_at)}; the grace period ends in ${plural(daysLeft)} (on ${day(license.grace_ends_at)}), then actor drill-down and saved segments turn off.`;
    return { status: 'grace', ...base, days_left: daysLeft, warnings: [warning], features: [...license.features] };
  }
  // Rounded up so that "30 days left" and "expiring" begin at the same instant.
  const daysLeft = Math.ceil(toExpiry / DAY_MS);
  if (daysLeft <= EXPIRING_WITHIN_DAYS) {
    const notice = NOTICE_THRESHOLDS.find((t) => daysLeft <= t) ?? 30;
    return { status: 'expiring', ...base, days_left: daysLeft, notice_days: notice, warnings: [expiringWarning(license, daysLeft)], features: [...license.features] };
  }
  return { status: 'valid', ...base, days_left: daysLeft, warnings: [], features: [...license.features] };
}

export interface TimeSources {
  clock: Date;
  // The persisted high-water mark; null on a fresh installation.
  highWater: Date | null;
  // Use the newest event's server receive time, never its client-sent timestamp:
  // anyone holding a browser key could otherwise push time forward and expire the license.
  newestEventAt?: Date | null;
  // iat of the applied license: the vendor's clock, so the present is at least that.
  iat?: Date | null;
}

export interface TrustedTime {
  now: Date;
  clock_skew_warning?: string;
}

function latest(dates: (Date | null | undefined)[]): Date | null {
  let best: Date | null = null;
  for (const d of dates) if (d && (!best || d.getTime() > best.getTime())) best = d;
  return best;
}

// A clock turned back cannot revive an expired license, but it is only reported:
// VMs restored from snapshots and broken NTP turn clocks back innocently.
export function trustedTime(sources: TimeSources): TrustedTime {
  const mark = latest([sources.highWater, sources.newestEventAt, sources.iat]);
  if (!mark || mark.getTime() <= sources.clock.getTime()) return { now: new Date(sources.clock.getTime()) };
  const behind = mark.getTime() - sources.clock.getTime();
  const result: TrustedTime = { now: new Date(mark.getTime()) };
  if (behind > CLOCK_SKEW_TOLERANCE_MS) {
    result.clock_skew_warning = `The system clock (${sources.clock.toISOString()}) is ${plural(Math.floor(behind / DAY_MS))} behind the latest time this installation has seen (${mark.toISOString()}); license checks use the later time. Check the clock and NTP.`;
  }
  return result;
}

// The value to persist as the new high-water mark; it never moves backwards.
export function advanceHighWater(sources: TimeSources): Date {
  return new Date((latest([sources.clock, sources.highWater, sources.newestEventAt, sources.iat]) as Date).getTime());
}
