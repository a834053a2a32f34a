// Retention: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { CompareRequest, DateRange } from '../ranges.js';

export type Granularity = 'day' | 'week';
export type RetentionValue = 'actors' | 'revenue' | 'paid_conversion';

/** What defines cohorts and returns; retention actors takes the same fields. */
export interface CohortDefinition {
  start_event: string;
  return_event: string;
  granularity: Granularity;
  periods: number;
  filters?: FilterItem[];
}

export interface RetentionParams extends CohortDefinition {
  date_from?: string;
  date_to?: string;
  value: RetentionValue;
  compare?: CompareRequest;
}

export interface RetentionCohort {
  /** Local start of the cohort's bucket (a Monday for weeks). */
  cohort: string;
  size: number;
  /** Index p is period p; null where the period has not started or the cohort is empty. */
  values: Array<number | null>;
  /** Actors returning per period (value=actors only); null where the period has not started. */
  counts?: Array<number | null>;
}

export interface RetentionResult extends DateRange {
  cohorts: RetentionCohort[];
}

export interface RetentionResponse extends RetentionResult {
  granularity: Granularity;
  periods: number;
  value: RetentionValue;
  compare?: RetentionResult;
}
