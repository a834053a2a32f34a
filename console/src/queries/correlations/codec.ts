// Correlations' URL: the `target` event, `min_n`, `managed=include` (autocapture counted) and `filter`.

import { dateParams, filterParams, numberParam, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type CorrelationsBody = QueryBody<'correlations'>;

export const correlationsCodec: InsightCodec<CorrelationsBody> = {
  defaultDays: 30,
  toRequest: (params, today) => ({
    target_event: param(params, 'target'),
    ...requestDates(params, today, 30),
    min_n: Number(param(params, 'min_n', '5')),
    exclude_managed: param(params, 'managed') !== 'include',
    ...requestFilters(params),
  }),
  toUrl: (q, dateRange) =>
    urlOf({ target: q.target_event, ...dateParams(q), min_n: numberParam(q.min_n), managed: q.exclude_managed === false ? 'include' : undefined, filter: filterParams(q.filters) }, dateRange),
};

export const isCorrelationsEmpty = (d: QueryAnswer<'correlations'>) => d.actors === 0;
