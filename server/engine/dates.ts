// Calendar arithmetic on local dates written `YYYY-MM-DD`: ranges, bucket starts (Monday weeks,
// first-of-month months) and bucket lists. Pure and zone-free; instants and hours are localTime.ts's.

export type DateInterval = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (the calendar date itself, no zone involved). */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

export function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** Days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** Number of dates in the inclusive range. */
export function rangeLength(from: string, to: string): number {
  return daysBetween(from, to) + 1;
}

export function addMonths(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) + months;
  return `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}-01`;
}

/** The local start of the bucket holding `date`: itself, its Monday, or the 1st of its month. */
export function bucketStart(date: string, interval: DateInterval): string {
  switch (interval) {
    case 'day':
      return date;
    case 'week': {
      const n = dayNumber(date);
      // 1970-01-01 was a Thursday, three days after a Monday.
      return fromDayNumber(n - ((n + 3) % 7));
    }
    case 'month':
      return `${date.slice(0, 7)}-01`;
  }
}

/** The start of the bucket `steps` buckets after the one starting at `start`. */
export function nextBucket(start: string, interval: DateInterval, steps = 1): string {
  switch (interval) {
    case 'day':
      return addDays(start, steps);
    case 'week':
      return addDays(start, 7 * steps);
    case 'month':
      return addMonths(start, steps);
  }
}

/** Every bucket start touching the inclusive range, oldest first; the first may precede `from`. */
export function bucketsOf(from: string, to: string, interval: DateInterval): string[] {
  const out: string[] = [];
  for (let b = bucketStart(from, interval); b <= to; b = nextBucket(b, interval)) out.push(b);
  return out;
}

/** The range of the same length that ends the day before `from`. */
export function previousRange(from: string, to: string): { date_from: string; date_to: string } {
  const length = rangeLength(from, to);
  return { date_from: addDays(from, -length), date_to: addDays(from, -1) };
}
