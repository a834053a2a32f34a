// Rolling date ranges: a saved insight's or a dashboard's dates written as a rule ("the last 30
// days", "this quarter", "since 2026-03-01") and turned into two local dates of the project when
// answered, so a saved view moves forward with the calendar. Pure and zone-free: `today` is the
// project's local date, given by the caller. The console resolves ranges with this same module.

import { addDays, addMonths, bucketStart } from './dates.js';

/** The longest range a query accepts (ranges.ts's MAX_RANGE_DAYS; this module imports nothing zoned). */
const MAX_DAYS = 400;

export const CALENDAR_PERIODS = ['week', 'month', 'quarter', 'year'] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];
export const LAST_UNITS = ['days', 'weeks', 'months'] as const;
export type LastUnit = (typeof LAST_UNITS)[number];

/** The most of each unit a `last_N_…` range may count, so it stays within 400 days. */
export const LAST_MAX: Record<LastUnit, number> = { days: 400, weeks: 57, months: 13 };

export type RollingRange = { kind: 'today' | 'yesterday' } | { kind: 'last'; count: number; unit: LastUnit } | { kind: 'this' | 'previous'; period: CalendarPeriod } | { kind: 'since'; date: string };

/** The written forms, for schemas: the shape only; parseRollingRange checks counts and dates. */
export const ROLLING_RANGE_PATTERN = '^(today|yesterday|last_[1-9][0-9]{0,2}_(days|weeks|months)|(this|last)_(week|month|quarter|year)|since_[0-9]{4}-[0-9]{2}-[0-9]{2})$';

export const ROLLING_RANGE_HELP =
  '`today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, ' +
  '`this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const back = new Date(Date.UTC(y, m - 1, d));
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d;
}

/** The rule a text names, or a sentence saying what is wrong with it. */
export function parseRollingRange(text: string): RollingRange | string {
  if (text === 'today' || text === 'yesterday') return { kind: text };
  const parts = text.split('_');
  if (parts.length === 3 && parts[0] === 'last' && (LAST_UNITS as readonly string[]).includes(parts[2]!)) {
    const unit = parts[2] as LastUnit;
    if (!/^[1-9]\d{0,2}$/.test(parts[1]!)) return `${text}: the count must be a whole number from 1`;
    const count = Number(parts[1]);
    if (count > LAST_MAX[unit]) return `${text} counts more than ${LAST_MAX[unit]} ${unit}; a range spans at most ${MAX_DAYS} days`;
    return { kind: 'last', count, unit };
  }
  if (parts.length === 2 && (parts[0] === 'this' || parts[0] === 'last') && (CALENDAR_PERIODS as readonly string[]).includes(parts[1]!)) {
    return { kind: parts[0] === 'this' ? 'this' : 'previous', period: parts[1] as CalendarPeriod };
  }
  if (text.startsWith('since_')) {
    const date = text.slice('since_'.length);
    return isDate(date) ? { kind: 'since', date } : `${text}: since_ takes a calendar date YYYY-MM-DD`;
  }
  return `${text} is not a date range; use ${ROLLING_RANGE_HELP}`;
}

export function writeRollingRange(range: RollingRange): string {
  switch (range.kind) {
    case 'today':
    case 'yesterday':
      return range.kind;
    case 'last':
      return `last_${range.count}_${range.unit}`;
    case 'this':
      return `this_${range.period}`;
    case 'previous':
      return `last_${range.period}`;
    case 'since':
      return `since_${range.date}`;
  }
}

/** The first day of the calendar period holding `date` (weeks start on Monday). */
function periodStart(date: string, period: CalendarPeriod): string {
  switch (period) {
    case 'week':
      return bucketStart(date, 'week');
    case 'month':
      return bucketStart(date, 'month');
    case 'quarter': {
      const month = Number(date.slice(5, 7));
      return `${date.slice(0, 5)}${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
    }
    case 'year':
      return `${date.slice(0, 4)}-01-01`;
  }
}

const PERIOD_MONTHS: Record<Exclude<CalendarPeriod, 'week'>, number> = { month: 1, quarter: 3, year: 12 };

/** The first day of the period before the one starting at `start`. */
function previousStart(start: string, period: CalendarPeriod): string {
  return period === 'week' ? addDays(start, -7) : addMonths(start, -PERIOD_MONTHS[period]);
}

/** The same day `months` months earlier, or that month's last day when it is shorter. */
function monthsBack(date: string, months: number): string {
  const first = addMonths(date, -months);
  const lastDay = addDays(addMonths(first, 1), -1);
  const day = Math.min(Number(date.slice(8, 10)), Number(lastDay.slice(8, 10)));
  return `${first.slice(0, 8)}${String(day).padStart(2, '0')}`;
}

/**
 * The inclusive local dates a rule stands for on `today`. `last_N_…` ends today (`last_7_days` is
 * today and the six days before it; `last_N_weeks` is 7×N days; `last_N_months` starts the day after
 * the same date N months back); `this_…` runs from the period's first day to today, `last_…` is the
 * whole previous period; `since_D` runs to today and keeps only its latest 400 days, and a D after
 * today (the clock moved back) is today alone.
 */
export function resolveRollingRange(range: RollingRange, today: string): { date_from: string; date_to: string } {
  switch (range.kind) {
    case 'today':
      return { date_from: today, date_to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { date_from: day, date_to: day };
    }
    case 'last': {
      const from = range.unit === 'months' ? addDays(monthsBack(today, range.count), 1) : addDays(today, -((range.unit === 'weeks' ? 7 : 1) * range.count - 1));
      return { date_from: from, date_to: today };
    }
    case 'this':
      return { date_from: periodStart(today, range.period), date_to: today };
    case 'previous': {
      const current = periodStart(today, range.period);
      return { date_from: previousStart(current, range.period), date_to: addDays(current, -1) };
    }
    case 'since': {
      const earliest = addDays(today, -(MAX_DAYS - 1));
      const from = range.date > today ? today : range.date < earliest ? earliest : range.date;
      return { date_from: from, date_to: today };
    }
  }
}

/** A written rule's dates on `today`; undefined for a text that is no rule. */
export function rollingDates(text: string, today: string): { date_from: string; date_to: string } | undefined {
  const range = parseRollingRange(text);
  return typeof range === 'string' ? undefined : resolveRollingRange(range, today);
}
