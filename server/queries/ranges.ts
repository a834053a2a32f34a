// Date ranges shared by the queries: the semantic checks on `date_from`/`date_to` and `compare`, the
// default range, and the comparison range. Dates are inclusive local dates.

import { ValidationError } from '../ground/errors.js';
import { addDays, previousRange, rangeLength } from '../engine/dates.js';
import { today, type QueryContext } from './context.js';

export const MAX_RANGE_DAYS = 400;
export const DEFAULT_RANGE_DAYS = 30;
export const FIRST_DATE = '1970-01-01';
export const LAST_DATE = '2999-12-31';

export interface DateRange {
  date_from: string;
  date_to: string;
}

export type CompareRequest = { period: 'previous' } | DateRange;

/** Dates far outside any recorded data are refused rather than carried into timestamp arithmetic. */
export function checkDate(date: string, field: string): void {
  if (date < FIRST_DATE || date > LAST_DATE) throw new ValidationError(`${field} ${date} is outside ${FIRST_DATE}..${LAST_DATE}`, field);
}

/** Both or neither date, in order, at most 400 days; `prefix` names a nested range (`compare.`). */
export function checkRange(from: string | undefined, to: string | undefined, prefix = ''): void {
  if ((from === undefined) !== (to === undefined)) {
    const missing = from === undefined ? 'date_from' : 'date_to';
    throw new ValidationError(`${prefix}date_from and ${prefix}date_to go together; ${prefix}${missing} is missing`, `${prefix}${missing}`);
  }
  if (from === undefined || to === undefined) return;
  checkDate(from, `${prefix}date_from`);
  checkDate(to, `${prefix}date_to`);
  if (from > to) throw new ValidationError(`${prefix}date_from ${from} is after ${prefix}date_to ${to}`, `${prefix}date_from`);
  const days = rangeLength(from, to);
  if (days > MAX_RANGE_DAYS) {
    throw new ValidationError(`the range ${from}..${to} spans ${days} days; at most ${MAX_RANGE_DAYS} are allowed`, `${prefix}date_to`);
  }
}

/** A CompareRequest is either `{period: "previous"}` or an explicit range, never both. */
export function checkCompare(compare: Partial<{ period: string; date_from: string; date_to: string }> | undefined): void {
  if (!compare) return;
  const explicit = compare.date_from !== undefined || compare.date_to !== undefined;
  if (compare.period !== undefined && explicit) {
    throw new ValidationError('compare takes either period or date_from/date_to, not both', 'compare.period');
  }
  if (compare.period === undefined && !explicit) {
    throw new ValidationError('compare needs period "previous" or date_from and date_to', 'compare');
  }
  if (explicit) {
    checkRange(compare.date_from, compare.date_to, 'compare.');
  }
}

/** The requested range, or the latest 30 local dates (today included) when none was given. */
export function effectiveRange(params: Partial<DateRange>, ctx: QueryContext): DateRange {
  if (params.date_from !== undefined && params.date_to !== undefined) return { date_from: params.date_from, date_to: params.date_to };
  const last = today(ctx);
  return { date_from: addDays(last, -(DEFAULT_RANGE_DAYS - 1)), date_to: last };
}

/** The range a `compare` request names, relative to the main range. */
export function compareRange(compare: CompareRequest, range: DateRange): DateRange {
  return 'period' in compare ? previousRange(range.date_from, range.date_to) : { date_from: compare.date_from, date_to: compare.date_to };
}
