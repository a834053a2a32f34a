// What a saved insight answers, with a dashboard's or a call's overrides: its query body with the
// overrides in place, checked as its route checks a body, then answered through the queries' result
// cache, so the same body gets the same answer (and cache entry) from either surface. Rolling
// ranges are resolved here, on the project's local date when the answer is asked for.

import type { Services } from '../http/services.js';
import type { Project } from '../accounts/projects.js';
import { ValidationError } from '../ground/errors.js';
import { checkFilters } from '../engine/filters.js';
import { answerQuery, type QueryAnswer } from '../queries/answerQuery.js';
import { localDate } from '../engine/localTime.js';
import { parseRollingRange, resolveRollingRange } from '../engine/rollingRange.js';
import type { Insight } from './insights.js';
import { NO_OVERRIDES, type Overrides, type SavedQueries } from './savedQueries.js';

/**
 * The dates an insight is answered over: a call's or dashboard's range first (fixed or rolling),
 * else the insight's own rolling range, else its query's dates (no override).
 */
function effectiveOverrides(insight: Insight, overrides: Overrides, today: string): Overrides {
  const rolling = overrides.date_from !== null ? null : (overrides.date_range ?? insight.date_range);
  if (rolling === null) return overrides;
  const range = parseRollingRange(rolling);
  // Stored ranges were checked when saved; one this version no longer reads keeps the query's dates.
  if (typeof range === 'string') return overrides;
  return { ...overrides, ...resolveRollingRange(range, today), date_range: null };
}

export function answerInsight(services: Services, queries: SavedQueries, project: Project, insight: Insight, overrides: Overrides, fresh: boolean): Promise<QueryAnswer> {
  const today = localDate(services.clock.now(), project.timezone);
  const params = queries.checked(insight.kind, queries.withOverrides(insight.kind, insight.query, effectiveOverrides(insight, overrides, today)));
  return answerQuery(services, queries.route(insight.kind), project, params, fresh);
}

/** A rolling range a body names, checked; a since-date must not be after `today` when given. */
export function checkRollingRange(text: string | null | undefined, today?: string): void {
  if (text === null || text === undefined) return;
  const range = parseRollingRange(text);
  if (typeof range === 'string') throw new ValidationError(range, 'date_range');
  if (today !== undefined && range.kind === 'since' && range.date > today) {
    throw new ValidationError(`${text} starts after today (${today} in the project's time zone)`, 'date_range');
  }
}

/**
 * Overrides from a body the schema checked: fixed dates both or neither and in order, or a rolling
 * range, not both; filters within the queries' limits.
 */
export function overridesOf(body: Partial<Overrides>): Overrides {
  const o: Overrides = { ...NO_OVERRIDES, ...body };
  if ((o.date_from === null) !== (o.date_to === null)) {
    const missing = o.date_from === null ? 'date_from' : 'date_to';
    throw new ValidationError(`a date range needs both date_from and date_to, or neither; ${missing} is missing`, missing);
  }
  if (o.date_from !== null && o.date_to !== null && o.date_from > o.date_to) {
    throw new ValidationError(`date_from ${o.date_from} is after date_to ${o.date_to}`, 'date_from');
  }
  if (o.date_range !== null && o.date_from !== null) {
    throw new ValidationError('give either date_range or date_from and date_to, not both', 'date_range');
  }
  checkRollingRange(o.date_range);
  checkFilters(o.filters ?? undefined);
  return o;
}
