// Segmentation's URL: `event` (any by default), `metric`, `interval`, `group_by`,
// `compare=previous` and `filter`. (`chart`, line or bars, is the page's alone: no body has it.)

import { dateParams, filterParams, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryAnswer, QueryBody } from '../queryTypes.js';

export type SegmentationBody = QueryBody<'segmentation'>;
export type Metric = 'events' | 'uniques' | 'revenue' | 'revenue_avg';

export const segmentationCodec: InsightCodec<SegmentationBody> = {
  defaultDays: 30,
  toRequest(params, today) {
    const groupBy = param(params, 'group_by');
    return {
      event: param(params, 'event', 'any'),
      metric: param(params, 'metric', 'events') as Metric,
      interval: param(params, 'interval', 'day') as 'hour' | 'day' | 'week' | 'month',
      ...requestDates(params, today, 30),
      ...(groupBy ? { group_by: { property: groupBy } } : {}),
      ...(param(params, 'compare') === 'previous' ? { compare: { period: 'previous' as const } } : {}),
      ...requestFilters(params),
    };
  },
  toUrl: (q, dateRange) =>
    urlOf(
      { event: q.event, metric: q.metric, interval: q.interval, ...dateParams(q), group_by: q.group_by?.property, compare: q.compare ? 'previous' : undefined, filter: filterParams(q.filters) },
      dateRange,
    ),
};

export const isSegmentationEmpty = (d: QueryAnswer<'segmentation'>) => d.series.every((s) => s.points.every((p) => !p.value));
