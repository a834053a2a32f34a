// Paths' URL: the selected `event` (page views by default), `direction`, `depth`, `mode=session`
// (people otherwise), `start` (before) or `end` (after), `min_count`, `top_n`, `exclude` (a list),
// `breakdown` and `filter`. (`segment`, the breakdown value shown, is the page's alone.)

import { dateParams, filterParams, listParam, numberParam, param, requestDates, requestFilters, urlOf, type InsightCodec } from '../codec.js';
import type { QueryBody } from '../queryTypes.js';

export type PathsBody = QueryBody<'paths'>;
export type Direction = 'after' | 'before';

/** Values of a breakdown shown, the rest together as other values. */
export const SEGMENTS = 5;

export const pathsCodec: InsightCodec<PathsBody> = {
  defaultDays: 30,
  toRequest(params, today) {
    const direction = param(params, 'direction', 'after') as Direction;
    const start = param(params, 'start');
    const end = param(params, 'end');
    const exclude = listParam(params, 'exclude');
    const breakdown = param(params, 'breakdown');
    return {
      ...requestDates(params, today, 30),
      selected_event: param(params, 'event', 'pp.page_view'),
      direction,
      depth: Number(param(params, 'depth', '5')),
      mode: param(params, 'mode', 'actor') as 'actor' | 'session',
      min_count: Number(param(params, 'min_count', '1')),
      top_n: Number(param(params, 'top_n', '20')),
      ...(direction === 'before' && start ? { start_event: start } : {}),
      ...(direction === 'after' && end ? { end_event: end } : {}),
      ...(exclude.length ? { exclude_events: exclude } : {}),
      ...requestFilters(params),
      ...(breakdown ? { breakdown: { property: breakdown, limit: SEGMENTS } } : {}),
    };
  },
  toUrl: (q, dateRange) =>
    urlOf(
      {
        event: q.selected_event,
        direction: q.direction,
        depth: numberParam(q.depth),
        mode: q.mode === 'session' ? 'session' : undefined,
        start: q.start_event,
        end: q.end_event,
        min_count: numberParam(q.min_count),
        top_n: numberParam(q.top_n),
        exclude: q.exclude_events,
        breakdown: q.breakdown?.property,
        ...dateParams(q),
        filter: filterParams(q.filters),
      },
      dateRange,
    ),
};
