// The funnel's URL: `steps` (a list; an unpicked step is an empty item), `window` hours, `count_by`,
// `breakdown`, `compare=previous`, `value=revenue` (people only) and `filter` (on step 1).

import { dateParams, filterParams, listParam, numberParam, param, requestDates, urlOf, type InsightCodec } from '../codec.js';
import { filtersOf } from '../filters.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type FunnelBody = QueryBody<'funnel'>;

export const funnelCodec: InsightCodec<FunnelBody> = {
  defaultDays: 30,
  toRequest(params, today) {
    const steps = listParam(params, 'steps');
    const filters = listParam(params, 'filter');
    const breakdown = param(params, 'breakdown');
    const countBy = param(params, 'count_by', 'actors') as 'actors' | 'totals';
    const revenue = param(params, 'value') === 'revenue' && countBy === 'actors';
    return {
      steps: steps.map((event, i) => ({ event, ...(i === 0 && filters.length ? { filters: filtersOf(filters) } : {}) })),
      ...requestDates(params, today, 30),
      window_hours: Number(param(params, 'window', '336')),
      count_by: countBy,
      ...(breakdown ? { breakdown: { property: breakdown } } : {}),
      ...(param(params, 'compare') === 'previous' ? { compare: { period: 'previous' as const } } : {}),
      ...(revenue ? { value: 'revenue' as const } : {}),
    };
  },
  toUrl: (q, dateRange) =>
    urlOf(
      {
        steps: (q.steps ?? []).map((s) => s.event),
        ...dateParams(q),
        window: numberParam(q.window_hours),
        count_by: q.count_by,
        breakdown: q.breakdown?.property,
        compare: q.compare ? 'previous' : undefined,
        value: q.value,
        filter: filterParams(q.steps?.[0]?.filters),
      },
      dateRange,
    ),
};

/** Whether a funnel can be asked: two steps at least, each chosen. */
export const funnelReady = (q: FunnelBody) => q.steps.length >= 2 && q.steps.every((s) => Boolean(s.event));

export const isFunnelEmpty = (d: QueryAnswer<'funnel'>) => d.steps[0]!.count === 0;
