// Number and date formatting shared by pages and charts.

// One formatter each: `toLocaleString` builds a new one on every call, which a chart of a thousand
// labels pays for in tens of milliseconds.
const NUMBER = new Intl.NumberFormat('en-US');
const COMPACT = new Intl.NumberFormat(undefined, { notation: 'compact', maximumSignificantDigits: 3 });

export const formatNumber = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : NUMBER.format(n));

export const formatPercent = (fraction: number | null | undefined, digits = 1): string => (fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(digits)}%`);

/** A count with its noun, singular for one: 1 day, 2 days, 1 hour. */
export const countOf = (n: number, noun: string): string => `${formatNumber(n)} ${n === 1 ? noun : `${noun}s`}`;

/** Today's date (YYYY-MM-DD) in a time zone, the calendar the project's reports use. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** A YYYY-MM-DD date moved by whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// Dates, one way on every screen: in the reader's own locale (the browser's, navigator.language:
// `undefined` asks Intl for it), a day as its medium date (Nov 16, 2026 in en-US, 16 Nov 2026 in
// en-GB), a day and time with the short time after it, a month as its name and year. A moment (a
// timestamp) is shown where the reader is; a report's bucket is a calendar day or hour of the
// project's own zone, so it is shown as written (formatted in UTC, which moves nothing).
const DAY_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DAY_TIME_OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const MONTH_OPTIONS: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' };
const MOMENT_DAY = new Intl.DateTimeFormat(undefined, DAY_OPTIONS);
const MOMENT_DAY_TIME = new Intl.DateTimeFormat(undefined, DAY_TIME_OPTIONS);
const CALENDAR_DAY = new Intl.DateTimeFormat(undefined, { ...DAY_OPTIONS, timeZone: 'UTC' });
const CALENDAR_DAY_TIME = new Intl.DateTimeFormat(undefined, { ...DAY_TIME_OPTIONS, timeZone: 'UTC' });
const CALENDAR_MONTH = new Intl.DateTimeFormat(undefined, { ...MONTH_OPTIONS, timeZone: 'UTC' });

/** A moment's day and time where the reader is, e.g. Nov 16, 2026, 1:05 PM. */
export const formatDateTime = (iso: string | null | undefined): string => (iso ? MOMENT_DAY_TIME.format(new Date(iso)) : '—');

/** A moment's calendar day where the reader is, e.g. Nov 16, 2026. */
export const formatDate = (iso: string | null | undefined): string => (iso ? MOMENT_DAY.format(new Date(iso)) : '—');

/** The wall-clock fields of `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM…` (any offset after them is the project's and left alone), as a UTC instant. */
function wallClock(value: string): Date {
  const hour = value.length > 10 ? Number(value.slice(11, 13)) : 0;
  const minute = value.length > 10 ? Number(value.slice(14, 16)) : 0;
  return new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10)), hour, minute));
}

export type Interval = 'hour' | 'day' | 'week' | 'month';

/** A calendar day (YYYY-MM-DD) as the reader writes it, e.g. Nov 16, 2026. */
export const formatDay = (day: string): string => CALENDAR_DAY.format(wallClock(day));

/** A month (YYYY-MM or YYYY-MM-DD) by its name, e.g. November 2026. */
export const formatMonth = (month: string): string => CALENDAR_MONTH.format(wallClock(month.length === 7 ? `${month}-01` : month));

/**
 * A report's bucket as the reader writes it: an hour (local RFC 3339) as its day and time, a month
 * as its name, a day or a week (its first day) as the day.
 */
export function formatBucket(bucket: string, interval?: Interval): string {
  if (bucket.length > 10) return CALENDAR_DAY_TIME.format(wallClock(bucket));
  return interval === 'month' ? formatMonth(bucket) : formatDay(bucket);
}

/**
 * Which buckets are still filling (the current hour, today, this week or this month, by the
 * project's clock): the index of the one holding `now`, or -1 when the range has none or ended
 * before today (`to`, its last day: what it covers is complete).
 * `now` is the project's wall clock, `YYYY-MM-DDTHH:MM`.
 */
export function partialBucket(buckets: string[], now: string, to?: string): number {
  if (to !== undefined && to < now.slice(0, 10)) return -1;
  const at = wallClock(now).getTime();
  for (let i = buckets.length - 1; i >= 0; i--) {
    const start = wallClock(buckets[i]!).getTime();
    if (start > at) continue;
    const next = buckets[i + 1];
    // The last bucket ends where its own period does; one hour, or a day at least (a day, a week or a month begin there).
    const end = next ? wallClock(next).getTime() : start + (buckets[i]!.length > 10 ? 3_600_000 : periodAfter(buckets, i));
    return at < end ? i : -1;
  }
  return -1;
}

/** The length of the period a last day-like bucket covers, read from the spacing of the buckets before it. */
function periodAfter(buckets: string[], i: number): number {
  if (i === 0) return 86_400_000;
  const step = wallClock(buckets[i]!).getTime() - wallClock(buckets[i - 1]!).getTime();
  if (step < 27 * 86_400_000) return step;
  // Months differ in length: up to the same day of the next month.
  const d = wallClock(buckets[i]!);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - d.getTime();
}

/** The project's wall clock now, `YYYY-MM-DDTHH:MM`: what partialBucket compares buckets with. */
export function nowIn(timeZone: string, now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * A grouped value as the reader sees it: the server's markers in words, `$none` (the property was
 * not set) and `$other` (the values past the limit, together); any other value as it is.
 */
export const valueLabel = (name: string): string => (name === '$none' ? 'not set' : name === '$other' ? 'other values' : name);

/** A duration in seconds as the largest two units, e.g. 2h 5m, 3d 4h, 45s. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** A number as an axis tick shows it: 12K, 1.25M (three significant digits, so neighbours differ). */
export const formatCompact = (n: number): string => COMPACT.format(n);

// Money is formatted in the reader's own locale (the browser's: `undefined` asks Intl for it) and
// the project's ISO 4217 currency; one formatter per currency and form, kept as above.
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string | undefined, compact: boolean): Intl.NumberFormat {
  const key = `${currency ?? ''}|${compact}`;
  let format = moneyFormats.get(key);
  if (!format) moneyFormats.set(key, (format = new Intl.NumberFormat(undefined, moneyOptions(currency, compact))));
  return format;
}

function moneyOptions(currency: string | undefined, compact: boolean): Intl.NumberFormatOptions {
  // Without a known currency (an answer shown outside its project) the amount stands alone rather than in a guessed one.
  const amount: Intl.NumberFormatOptions = currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  // Compact ticks take the narrow symbol ($, ₽, €); the chart's title names the code.
  return compact ? { ...amount, notation: 'compact', maximumSignificantDigits: 3, currencyDisplay: 'narrowSymbol' } : amount;
}

/** An amount in a currency, e.g. $1,234.50 or 1.234,50 € (the separator before a symbol never breaks). */
export const formatMoney = (n: number | null | undefined, currency: string | undefined): string => (n === null || n === undefined ? '—' : moneyFormat(currency, false).format(n));

/** An amount as an axis tick shows it: $12K, ₽1.2K. */
export const formatMoneyCompact = (n: number, currency: string | undefined): string => moneyFormat(currency, true).format(n);
