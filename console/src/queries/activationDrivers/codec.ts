// Activation drivers' URL: the `anchor` event, the `outcome` event counted retained from `from_day`
// to `to_day` after the anchor, and `filter`; 60 days unless dated.

import { dateParams, filterParams, numberParam, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type ActivationDriversBody = QueryBody<'activation-drivers'>;

export const activationDriversCodec: InsightCodec<ActivationDriversBody> = {
  defaultDays: 60,
  toRequest: (params, today) => ({
    ...requestDates(params, today, 60),
    anchor_event: param(params, 'anchor'),
    outcome: { event: param(params, 'outcome'), from_day: Number(param(params, 'from_day', '7')), to_day: Number(param(params, 'to_day', '28')) },
    ...requestFilters(params),
  }),
  toUrl: (q, dateRange) =>
    urlOf(
      {
        anchor: q.anchor_event,
        outcome: q.outcome?.event,
        from_day: numberParam(q.outcome?.from_day),
        to_day: numberParam(q.outcome?.to_day),
        ...dateParams(q),
        filter: filterParams(q.filters),
      },
      dateRange,
    ),
};

export const isActivationDriversEmpty = (d: QueryAnswer<'activation-drivers'>) => d.anchored === 0;
