// Lifecycle's URL: `interval` (day, week) and `filter`.

import { dateParams, filterParams, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type LifecycleBody = QueryBody<'lifecycle'>;

export const lifecycleCodec: InsightCodec<LifecycleBody> = {
  defaultDays: 30,
  toRequest: (params, today) => ({ ...requestDates(params, today, 30), interval: param(params, 'interval', 'day') as 'day' | 'week', ...requestFilters(params) }),
  toUrl: (q, dateRange) => urlOf({ ...dateParams(q), interval: q.interval, filter: filterParams(q.filters) }, dateRange),
};

export const isLifecycleEmpty = (d: QueryAnswer<'lifecycle'>) => d.buckets.every((b) => !b.new && !b.returning && !b.resurrecting && !b.dormant);
