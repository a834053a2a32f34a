// The Web page's URL: its dates and `filter` list (each a row chosen in a table, or typed).

import { dateParams, filterParams, requestDates, requestFilters, urlOf, type InsightCodec } from '../queries/codec.js';
import type { QueryAnswer, QueryBody } from '../queries/queryTypes.js';

export type WebBody = QueryBody<'web'>;

export const webCodec: InsightCodec<WebBody> = {
  defaultDays: 30,
  toRequest: (params, today) => ({ ...requestDates(params, today, 30), ...requestFilters(params) }),
  toUrl: (q, dateRange) => urlOf({ ...dateParams(q), filter: filterParams(q.filters) }, dateRange),
};

export const isWebEmpty = (d: QueryAnswer<'web'>) => d.totals.visits === 0 && d.previous.visits === 0;
