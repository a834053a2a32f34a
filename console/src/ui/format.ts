// Number and date formatting shared by pages and charts.

// One formatter each: `toLocaleString` builds a new one on every call, which a chart of a thousand
// labels pays for in tens of milliseconds.
const NUMBER = new Intl.NumberFormat('en-US');
const COMPACT = new Intl.NumberFormat(undefined, { notation: 'compact', maximumSignificantDigits: 3 });

export const formatNumber = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : NUMBER.format(n));

export const formatPercent = (fraction: number | null | undefined, digits = 1): string =>
  fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(digits)}%`;

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

export const formatDateTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—');

/** A moment's calendar day where the reader is, e.g. 16 Nov 2026. */
export const formatDate = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' }) : '—');

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
export const formatMoney = (n: number | null | undefined, currency: string | undefined): string =>
  n === null || n === undefined ? '—' : moneyFormat(currency, false).format(n);

/** An amount as an axis tick shows it: $12K, ₽1.2K. */
export const formatMoneyCompact = (n: number, currency: string | undefined): string => moneyFormat(currency, true).format(n);
