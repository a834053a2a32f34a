// Stickiness's URL: `event` (any by default) and `filter`.

import { dateParams, filterParams, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type StickinessBody = QueryBody<'stickiness'>;

export const stickinessCodec: InsightCodec<StickinessBody> = {
  defaultDays: 30,
  toRequest: (params, today) => ({ event: param(params, 'event', 'any'), ...requestDates(params, today, 30), ...requestFilters(params) }),
  toUrl: (q, dateRange) => urlOf({ event: q.event, ...dateParams(q), filter: filterParams(q.filters) }, dateRange),
};

export const isStickinessEmpty = (d: QueryAnswer<'stickiness'>) => d.distribution.every((x) => x.actors === 0);
