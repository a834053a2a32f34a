// The dates a page shows: two fixed local dates, or a rolling range ("last 30 days") kept as its rule
// and resolved on the project's today by the server's own rollingRange module, so the console and
// the answers agree on which days a rule stands for. Also the rule's name in words.

import { LAST_MAX, LAST_UNITS, parseRollingRange, rollingDates, type LastUnit, type RollingRange } from '../../../server/engine/rollingRange.js';

export { LAST_MAX, LAST_UNITS, parseRollingRange, type LastUnit, type RollingRange };

/** What a date control shows and changes: `range` set means from/to are its dates today. */
export interface Dates {
  from: string;
  to: string;
  range?: string;
}

/** A rule's dates on `today`, or undefined for text that is no rule. */
export function rangeDates(range: string | null | undefined, today: string): { from: string; to: string } | undefined {
  const d = range ? rollingDates(range, today) : undefined;
  return d && { from: d.date_from, to: d.date_to };
}

/** A rule resolved into Dates; fixed dates when it is none. */
export function datesOf(range: string | null | undefined, fixed: { from: string; to: string }, today: string): Dates {
  const rolling = rangeDates(range, today);
  return rolling ? { ...rolling, range: range! } : fixed;
}

/**
 * The dates of an insight page's URL: its rolling `range`, else its fixed `from` and `to` (both
 * needed), else the last `defaultDays` days up to `today`.
 */
export function urlDates(params: Readonly<Record<string, string | undefined>>, today: string, defaultDays: number): Dates {
  const fixed = params.from && params.to ? { from: params.from, to: params.to } : undefined;
  return datesOf(params.range || (fixed ? '' : `last_${defaultDays}_days`), fixed ?? { from: today, to: today }, today);
}

const PERIOD_WORDS = { week: 'week', month: 'month', quarter: 'quarter', year: 'year' } as const;

/** "Last 30 days", "This quarter", "Since 2026-03-01"; the text itself when it is no rule. */
export function rangeLabel(range: string, formatDay: (day: string) => string = (d) => d): string {
  const rule = parseRollingRange(range);
  if (typeof rule === 'string') return range;
  switch (rule.kind) {
    case 'today':
      return 'Today';
    case 'yesterday':
      return 'Yesterday';
    case 'last':
      return `Last ${rule.count} ${rule.count === 1 ? rule.unit.slice(0, -1) : rule.unit}`;
    case 'this':
      return `This ${PERIOD_WORDS[rule.period]}`;
    case 'previous':
      return `Last ${PERIOD_WORDS[rule.period]}`;
    case 'since':
      return `Since ${formatDay(rule.date)}`;
  }
}
