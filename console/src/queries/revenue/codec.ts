// The revenue summary's URL: its dates and `filter`.

import { dateParams, filterParams, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type RevenueBody = QueryBody<'revenue-summary'>;

export const revenueCodec: InsightCodec<RevenueBody> = {
  defaultDays: 30,
  toRequest: (params, today) => ({ ...requestDates(params, today, 30), ...requestFilters(params) }),
  toUrl: (q, dateRange) => urlOf({ ...dateParams(q), filter: filterParams(q.filters) }, dateRange),
};

export const isRevenueEmpty = (d: QueryAnswer<'revenue-summary'>) => d.active_actors === 0;
