// Rolling ranges (server/engine/rollingRange.ts) against a plain reference that walks the calendar
// with the runtime's Date, on random days (leap years and month ends included) and on random
// instants seen in random time zones around DST changes; and the written forms' checks.

import t from 'tap';
import fc from 'fast-check';
import { LAST_MAX, parseRollingRange, resolveRollingRange, rollingDates, writeRollingRange, type RollingRange } from '../../server/engine/rollingRange.js';
import { localDate } from '../../server/engine/localTime.js';

// ---- the reference: calendar walks on Date objects in UTC, one day at a time ----

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const dateOf = (text: string) => new Date(`${text}T00:00:00Z`);
const stepDays = (text: string, days: number) => {
  const d = dateOf(text);
  d.setUTCDate(d.getUTCDate() + days);
  return ymd(d);
};
/** Walks back a day at a time until `ok` holds. */
const backUntil = (text: string, ok: (d: Date) => boolean) => {
  let d = dateOf(text);
  while (!ok(d)) d = new Date(d.getTime() - 86_400_000);
  return ymd(d);
};
const firstOf = (text: string, period: string): string => {
  switch (period) {
    case 'week':
      return backUntil(text, (d) => d.getUTCDay() === 1);
    case 'month':
      return backUntil(text, (d) => d.getUTCDate() === 1);
    case 'quarter':
      return backUntil(text, (d) => d.getUTCDate() === 1 && d.getUTCMonth() % 3 === 0);
    default:
      return backUntil(text, (d) => d.getUTCDate() === 1 && d.getUTCMonth() === 0);
  }
};

function reference(range: RollingRange, today: string): { date_from: string; date_to: string } {
  switch (range.kind) {
    case 'today':
      return { date_from: today, date_to: today };
    case 'yesterday':
      return { date_from: stepDays(today, -1), date_to: stepDays(today, -1) };
    case 'last': {
      if (range.unit === 'days') return { date_from: stepDays(today, 1 - range.count), date_to: today };
      if (range.unit === 'weeks') return { date_from: stepDays(today, 1 - 7 * range.count), date_to: today };
      // The same day-of-month `count` months back, or that month's last day; then the day after.
      const t0 = dateOf(today);
      const target = new Date(Date.UTC(t0.getUTCFullYear(), t0.getUTCMonth() - range.count, 1));
      let d = target;
      while (d.getUTCMonth() === target.getUTCMonth() && d.getUTCDate() < t0.getUTCDate()) {
        const next = new Date(d.getTime() + 86_400_000);
        if (next.getUTCMonth() !== target.getUTCMonth()) break;
        d = next;
      }
      return { date_from: stepDays(ymd(d), 1), date_to: today };
    }
    case 'this':
      return { date_from: firstOf(today, range.period), date_to: today };
    case 'previous': {
      const end = stepDays(firstOf(today, range.period), -1);
      return { date_from: firstOf(end, range.period), date_to: end };
    }
    case 'since': {
      let from = range.date;
      if (from > today) from = today;
      if (stepDays(from, 399) < today) from = stepDays(today, -399);
      return { date_from: from, date_to: today };
    }
  }
}

// ---- generators ----

const day = fc.integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2060, 11, 31) / 86_400_000 }).map((n) => ymd(new Date(n * 86_400_000)));
/** Days near month and year ends and leap days, where calendar arithmetic goes wrong. */
const edgeDay = fc
  .tuple(fc.integer({ min: 1995, max: 2045 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: -3, max: 3 }))
  .map(([y, m, off]) => ymd(new Date(Date.UTC(y, m + 1, 1) + off * 86_400_000)));
const anyDay = fc.oneof(day, edgeDay);
const range: fc.Arbitrary<RollingRange> = fc.oneof(
  fc.constantFrom<RollingRange>({ kind: 'today' }, { kind: 'yesterday' }),
  fc.constantFrom('days' as const, 'weeks' as const, 'months' as const).chain((unit) => fc.integer({ min: 1, max: LAST_MAX[unit] }).map((count): RollingRange => ({ kind: 'last', count, unit }))),
  fc
    .tuple(fc.constantFrom('this' as const, 'previous' as const), fc.constantFrom('week' as const, 'month' as const, 'quarter' as const, 'year' as const))
    .map(([kind, period]): RollingRange => ({ kind, period })),
  anyDay.map((date): RollingRange => ({ kind: 'since', date })),
);

t.test('every rule resolves as the calendar walk does', async (t) => {
  fc.assert(
    fc.property(range, anyDay, (r, today) => {
      const got = resolveRollingRange(r, today);
      t.same(got, reference(r, today), `${writeRollingRange(r)} on ${today}`);
      return got.date_from <= got.date_to;
    }),
    { numRuns: 3000 },
  );
});

t.test('the written form reads back as the rule', async (t) => {
  fc.assert(
    fc.property(range, (r) => {
      const text = writeRollingRange(r);
      t.same(parseRollingRange(text), r, text);
      t.match(text, /^(today|yesterday|last_[1-9][0-9]{0,2}_(days|weeks|months)|(this|last)_(week|month|quarter|year)|since_[0-9]{4}-[0-9]{2}-[0-9]{2})$/);
    }),
    { numRuns: 500 },
  );
});

t.test('no rule spans more than 400 days', async (t) => {
  fc.assert(
    fc.property(range, anyDay, (r, today) => {
      const { date_from: from, date_to: to } = resolveRollingRange(r, today);
      const days = (dateOf(to).getTime() - dateOf(from).getTime()) / 86_400_000 + 1;
      if (days > 400) t.fail(`${writeRollingRange(r)} on ${today} spans ${days}`);
      return days <= 400;
    }),
    { numRuns: 2000 },
  );
});

/** The project's today by another road: Intl's sv-SE date in the zone. */
const referenceToday = (ms: number, tz: string) => new Date(ms).toLocaleDateString('sv-SE', { timeZone: tz });

t.test('today in the project’s zone, around DST changes, picks the day the rule ends on', async (t) => {
  const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Pago_Pago'];
  // The hours around 2026's changes in Europe and America, and random instants.
  const changes = [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 3, 5, 2)];
  const instant = fc.oneof(
    fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -36 * 60, max: 36 * 60 })).map(([at, min]) => at + min * 60_000),
    fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
  );
  fc.assert(
    fc.property(range, instant, fc.constantFrom(...zones), (r, ms, tz) => {
      const today = localDate(ms, tz);
      t.equal(today, referenceToday(ms, tz), `${new Date(ms).toISOString()} in ${tz}`);
      t.same(resolveRollingRange(r, today), reference(r, referenceToday(ms, tz)));
    }),
    { numRuns: 1500 },
  );
});

t.test('worked examples', async (t) => {
  const on = (text: string, today: string) => rollingDates(text, today);
  t.same(on('last_7_days', '2026-11-27'), { date_from: '2026-11-21', date_to: '2026-11-27' }, 'today and the six days before');
  t.same(on('last_2_weeks', '2026-11-27'), { date_from: '2026-11-14', date_to: '2026-11-27' });
  t.same(on('last_1_months', '2026-03-31'), { date_from: '2026-03-01', date_to: '2026-03-31' }, 'February has no 31st: from its last day, the day after');
  t.same(on('last_12_months', '2026-11-27'), { date_from: '2025-11-28', date_to: '2026-11-27' });
  t.same(on('this_week', '2026-11-29'), { date_from: '2026-11-23', date_to: '2026-11-29' }, 'a Sunday is in the week of the Monday before');
  t.same(on('last_week', '2026-11-23'), { date_from: '2026-11-16', date_to: '2026-11-22' });
  t.same(on('this_quarter', '2026-11-27'), { date_from: '2026-10-01', date_to: '2026-11-27' });
  t.same(on('last_quarter', '2026-01-15'), { date_from: '2025-10-01', date_to: '2025-12-31' });
  t.same(on('last_month', '2024-03-10'), { date_from: '2024-02-01', date_to: '2024-02-29' }, 'a leap February');
  t.same(on('last_year', '2026-06-01'), { date_from: '2025-01-01', date_to: '2025-12-31' });
  t.same(on('since_2026-11-01', '2026-11-27'), { date_from: '2026-11-01', date_to: '2026-11-27' });
  t.same(on('since_2020-01-01', '2026-11-27'), { date_from: '2025-10-24', date_to: '2026-11-27' }, 'only the latest 400 days');
  t.same(on('since_2026-12-05', '2026-11-27'), { date_from: '2026-11-27', date_to: '2026-11-27' }, 'a clock stepped back: today alone');
});

t.test('texts that are no rule say why', async (t) => {
  for (const [text, says] of [
    ['last_401_days', /more than 400 days/],
    ['last_58_weeks', /more than 57 weeks/],
    ['last_14_months', /more than 13 months/],
    ['last_0_days', /whole number from 1/],
    ['last_07_days', /whole number/],
    ['since_2026-02-30', /calendar date/],
    ['since_yesterday', /calendar date/],
    ['next_week', /not a date range/],
    ['this_decade', /not a date range/],
    ['', /not a date range/],
    ['last_'.repeat(5000), /not a date range/],
  ] as Array<[string, RegExp]>) {
    const got = parseRollingRange(text);
    t.type(got, 'string', text.slice(0, 40));
    t.match(got, says, text.slice(0, 40));
  }
});
