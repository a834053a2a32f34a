// Retention's URL: `start` and `return` events, `granularity` (day, week), `periods`, `value`
// (actors, revenue, paid_conversion), `compare=previous` and `filter`; 14 days unless dated.

import { dateParams, filterParams, numberParam, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type RetentionBody = QueryBody<'retention'>;
export type RetentionValue = 'actors' | 'revenue' | 'paid_conversion';

/** A body as the page asks it, every default spelled out (a cell's people are asked with the same). */
export type RetentionAsked = RetentionBody & Required<Pick<RetentionBody, 'date_from' | 'date_to' | 'granularity' | 'periods' | 'return_event' | 'value'>>;

export const retentionCodec: InsightCodec<RetentionBody, RetentionAsked> = {
  defaultDays: 14,
  toRequest(params, today) {
    const granularity = param(params, 'granularity', 'day') as 'day' | 'week';
    return {
      start_event: param(params, 'start'),
      return_event: param(params, 'return', 'any'),
      granularity,
      periods: Number(param(params, 'periods', granularity === 'day' ? '7' : '4')),
      value: param(params, 'value', 'actors') as RetentionValue,
      ...requestDates(params, today, 14),
      ...requestFilters(params),
      ...(param(params, 'compare') === 'previous' ? { compare: { period: 'previous' as const } } : {}),
    };
  },
  toUrl: (q, dateRange) =>
    urlOf(
      {
        start: q.start_event,
        return: q.return_event,
        ...dateParams(q),
        granularity: q.granularity,
        periods: numberParam(q.periods),
        value: q.value,
        compare: q.compare ? 'previous' : undefined,
        filter: filterParams(q.filters),
      },
      dateRange,
    ),
};

export const isRetentionEmpty = (d: QueryAnswer<'retention'>) => d.cohorts.every((c) => c.size === 0);
