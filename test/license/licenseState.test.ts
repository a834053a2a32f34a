// License states at the day thresholds, entitlements per state, and trusted time when
// the clock is turned back. `now` is always passed in.
import fc from 'fast-check';
import t from 'tap';
import { entitlementsOf, isEntitlement } from '../../license/entitlements.js';
import { advanceHighWater, licenseState, trustedTime } from '../../license/licenseState.js';
import { verifyLicense, type VerifiedLicense } from '../../license/verifyLicense.js';
import { DAY_MS, NOW, options, refusal, signFor } from './licenseFixtures.js';

const HOUR_MS = 3_600_000;
const EXP = new Date('2027-03-01T00:00:00Z');

async function license(graceDays: number, features = ['actor_drilldown', 'saved_segments']): Promise<VerifiedLicense> {
  return verifyLicense(await signFor({ expiresAt: EXP, graceDays, features }), options());
}

const at = (offsetMs: number): Date => new Date(EXP.getTime() + offsetMs);

t.test('no license: none, nothing granted', async (t) => {
  const state = licenseState(null, NOW);
  t.same(state, { status: 'none', licensee: null, days_left: null, notice_days: null, expires_at: null, grace_ends_at: null, warnings: [], features: [] });
  t.same([...entitlementsOf(state)], []);
});

t.test('status, days left and notice at each threshold (grace 14 days)', async (t) => {
  const lic = await license(14);
  // [when, status, days_left, notice_days, features on]
  const rows: [string, number, string, number, number | null, boolean][] = [
    ['a year before', -365 * DAY_MS, 'valid', 365, null, true],
    ['31 days before', -31 * DAY_MS, 'valid', 31, null, true],
    ['30 days and 1 ms before', -30 * DAY_MS - 1, 'valid', 31, null, true],
    ['exactly 30 days before', -30 * DAY_MS, 'expiring', 30, 30, true],
    ['29.5 days before (rounded up)', -29.5 * DAY_MS, 'expiring', 30, 30, true],
    ['15 days before', -15 * DAY_MS, 'expiring', 15, 30, true],
    ['exactly 14 days before', -14 * DAY_MS, 'expiring', 14, 14, true],
    ['8 days before', -8 * DAY_MS, 'expiring', 8, 14, true],
    ['exactly 7 days before', -7 * DAY_MS, 'expiring', 7, 7, true],
    ['one hour before', -HOUR_MS, 'expiring', 1, 7, true],
    ['at exp: grace begins', 0, 'grace', 14, null, true],
    ['13.5 days after', 13.5 * DAY_MS, 'grace', 1, null, true],
    ['1 ms before grace ends', 14 * DAY_MS - 1, 'grace', 1, null, true],
    ['when grace ends', 14 * DAY_MS, 'expired', 0, null, false],
    ['a year after', 365 * DAY_MS, 'expired', 0, null, false],
  ];
  for (const [name, offset, status, daysLeft, notice, on] of rows) {
    const state = licenseState(lic, at(offset));
    t.equal(state.status, status, `${name}: status`);
    t.equal(state.days_left, daysLeft, `${name}: days_left`);
    t.equal(state.notice_days, notice, `${name}: notice_days`);
    t.equal(state.warnings.length, status === 'valid' ? 0 : 1, `${name}: one warning unless valid`);
    t.same([...entitlementsOf(state)].sort(), on ? ['actor_drilldown', 'saved_segments'] : [], `${name}: entitlements`);
    t.equal(state.expires_at, EXP.toISOString());
    t.equal(state.grace_ends_at, new Date(EXP.getTime() + 14 * DAY_MS).toISOString());
  }
});

t.test('warnings say what happens, in plain words', async (t) => {
  const lic = await license(14);
  t.match(licenseState(lic, at(-7 * DAY_MS)).warnings[0], /expires in 7 days, on 2027-03-01\. A 14-day grace period follows/);
  t.match(licenseState(lic, at(-DAY_MS)).warnings[0], /expires in 1 day, /);
  t.match(licenseState(lic, at(2 * DAY_MS)).warnings[0], /expired on 2027-03-01; the grace period ends in 12 days \(on 2027-03-15\)/);
  t.match(licenseState(lic, at(20 * DAY_MS)).warnings[0], /are off\. Ingestion, reports and export continue/);
});

t.test('without grace, expiry turns features off at exp', async (t) => {
  const lic = await license(0);
  t.equal(licenseState(lic, at(-1)).status, 'expiring');
  const state = licenseState(lic, at(0));
  t.equal(state.status, 'expired');
  t.same(state.features, []);
  t.equal(entitlementsOf(state).size, 0);
});

t.test('unknown features are listed but grant nothing', async (t) => {
  const state = licenseState(await license(14, ['saved_segments', 'teleport']), NOW);
  t.same(state.features, ['saved_segments', 'teleport']);
  t.same([...entitlementsOf(state)], ['saved_segments']);
  t.equal(isEntitlement('teleport'), false);
  t.equal(isEntitlement('actor_drilldown'), true);
});

t.test('trustedTime: the later of the clock and the high-water mark', async (t) => {
  const mark = new Date('2026-09-01T00:00:00Z');
  const ahead = trustedTime({ clock: new Date(mark.getTime() + HOUR_MS), highWater: mark });
  t.equal(ahead.now.getTime(), mark.getTime() + HOUR_MS);
  t.equal(ahead.clock_skew_warning, undefined);
  t.equal(trustedTime({ clock: NOW, highWater: null }).now.getTime(), NOW.getTime(), 'fresh installation');

  const slightlyBehind = trustedTime({ clock: new Date(mark.getTime() - 23 * HOUR_MS), highWater: mark });
  t.equal(slightlyBehind.now.getTime(), mark.getTime());
  t.equal(slightlyBehind.clock_skew_warning, undefined, 'less than a day behind is not worth a warning');

  const movedBack = trustedTime({ clock: new Date(mark.getTime() - 90 * DAY_MS), highWater: mark });
  t.equal(movedBack.now.getTime(), mark.getTime(), 'time does not go back');
  t.match(movedBack.clock_skew_warning, /90 days behind.*2026-09-01/);
});

t.test('trustedTime: newest event and license iat raise the floor', async (t) => {
  const clock = new Date('2026-01-01T00:00:00Z');
  const event = new Date('2026-05-01T00:00:00Z');
  const iat = new Date('2026-04-01T00:00:00Z');
  const tt = trustedTime({ clock, highWater: new Date('2025-12-31T00:00:00Z'), newestEventAt: event, iat });
  t.equal(tt.now.getTime(), event.getTime());
  t.match(tt.clock_skew_warning, /120 days behind/);
  t.equal(trustedTime({ clock, highWater: null, iat }).now.getTime(), iat.getTime());
});

t.test('a clock turned back cannot revive an expired license, and is not punished otherwise', async (t) => {
  const token = await signFor({ expiresAt: EXP, graceDays: 14, issuedAt: new Date('2026-01-01T00:00:00Z') });
  const highWater = at(30 * DAY_MS);
  const backdated = at(-200 * DAY_MS);
  const tt = trustedTime({ clock: backdated, highWater });
  t.equal((await refusal(token, options({ now: tt.now })))?.check, 'expired');
  t.ok(tt.clock_skew_warning);

  // The same kind of turned-back clock while the license is current: the features stay
  // on exactly as they would with a correct clock.
  const early = trustedTime({ clock: at(-300 * DAY_MS), highWater: at(-60 * DAY_MS) });
  t.ok(early.clock_skew_warning);
  const current = await verifyLicense(token, options({ now: early.now }));
  const state = licenseState(current, early.now);
  t.equal(state.status, 'valid');
  t.same(state, licenseState(current, at(-60 * DAY_MS)));
});

t.test('advanceHighWater never moves backwards', async (t) => {
  const date = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true });
  fc.assert(
    fc.property(date, fc.option(date), fc.option(date), fc.option(date), (clock, highWater, newestEventAt, iat) => {
      const next = advanceHighWater({ clock, highWater, newestEventAt, iat });
      const inputs = [clock, highWater, newestEventAt, iat].filter((d): d is Date => d !== null);
      return inputs.every((d) => next.getTime() >= d.getTime()) && inputs.some((d) => d.getTime() === next.getTime());
    }),
  );
  t.equal(advanceHighWater({ clock: at(-DAY_MS), highWater: at(0) }).getTime(), EXP.getTime());
});
