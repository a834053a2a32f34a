// The activity summary's URL (a project's first screen): one `date` (today unless named) and the
// `event` that counts as active (any by default). A rolling range is today's: no `date` then.

import { param, urlOf, type InsightCodec } from '../codec.js';
import type { QueryBody } from '../queryTypes.js';

export type ActivityBody = QueryBody<'activity-summary'>;

export const activityCodec: InsightCodec<ActivityBody, ActivityBody & { date_to: string; event: string }> = {
  // Its one day is the URL's `date` or today: no range of days to default.
  defaultDays: 1,
  toRequest: (params, today) => ({ date_to: param(params, 'date', today), event: param(params, 'event', 'any') }),
  toUrl: (q, dateRange) => urlOf({ date: q.date_to, event: q.event }, dateRange),
};
