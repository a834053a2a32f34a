// Stickiness: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { DateRange } from '../ranges.js';

export interface StickinessParams extends DateRange {
  event: string;
  filters?: FilterItem[];
}

export interface StickinessResponse extends DateRange {
  event: string;
  distribution: Array<{ days: number; actors: number }>;
}
