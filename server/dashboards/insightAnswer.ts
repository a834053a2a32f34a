// What a saved insight answers, with a dashboard's or a call's overrides: its query body with the
// overrides in place, checked as its route checks a body, then answered through the queries' result
// cache, so the same body gets the same answer (and cache entry) from either surface.

import type { Services } from '../services.js';
import type { Project } from '../accounts/projects.js';
import { ValidationError } from '../http/errors.js';
import { checkFilters } from '../queries/filters.js';
import { answerQuery, type QueryAnswer } from '../queries/answerQuery.js';
import type { Insight } from './insights.js';
import { NO_OVERRIDES, type Overrides, type SavedQueries } from './savedQueries.js';

export function answerInsight(services: Services, queries: SavedQueries, project: Project, insight: Insight, overrides: Overrides, fresh: boolean): Promise<QueryAnswer> {
  const params = queries.checked(insight.kind, queries.withOverrides(insight.kind, insight.query, overrides));
  return answerQuery(services, queries.route(insight.kind), project, params, fresh);
}

/** Overrides from a body the schema checked: dates both or neither and in order, filters within the queries' limits. */
export function overridesOf(body: Partial<Overrides>): Overrides {
  const o: Overrides = { ...NO_OVERRIDES, ...body };
  if ((o.date_from === null) !== (o.date_to === null)) {
    const missing = o.date_from === null ? 'date_from' : 'date_to';
    throw new ValidationError(`a date range needs both date_from and date_to, or neither; ${missing} is missing`, missing);
  }
  if (o.date_from !== null && o.date_to !== null && o.date_from > o.date_to) {
    throw new ValidationError(`date_from ${o.date_from} is after date_to ${o.date_to}`, 'date_from');
  }
  checkFilters(o.filters ?? undefined);
  return o;
}
