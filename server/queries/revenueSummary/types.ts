// Revenue summary: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { DateRange } from '../ranges.js';

export interface RevenueSummaryParams extends DateRange {
  filters?: FilterItem[];
}

export interface RevenueSummaryResponse extends DateRange {
  /** ISO 4217 code of the project's currency, which every amount below is in. */
  currency: string;
  /** Signed sum, refunds included. */
  revenue: number;
  /** Actors whose revenue over the range sums to more than zero. */
  paying_actors: number;
  /** Distinct actors with any matching event in the range. */
  active_actors: number;
  arpu: number | null;
  /** Revenue of paying actors per paying actor. */
  arppu: number | null;
  /** Sum of the negative revenue amounts (zero or less). */
  refunds: number;
  refund_count: number;
}
