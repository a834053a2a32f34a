// Retention actors: the request parameters, as the OpenAPI schema has checked them, and the
// answer's shape.

import type { DateRange } from '../ranges.js';
import type { CohortDefinition } from '../retention/types.js';

export interface RetentionActorsParams extends CohortDefinition, DateRange {
  /** A cohort label exactly as the retention response gives it. */
  cohort: string;
  period: number;
  cursor?: string;
  limit: number;
}

export interface RetentionActorsResponse {
  cohort: string;
  period: number;
  items: Array<{ actor_id: string }>;
  next_cursor: string | null;
}
