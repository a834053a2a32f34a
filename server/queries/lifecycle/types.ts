// Lifecycle: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { DateRange } from '../ranges.js';

export type LifecycleInterval = 'day' | 'week';

export interface LifecycleParams extends DateRange {
  interval: LifecycleInterval;
  filters?: FilterItem[];
}

export interface LifecycleBucket {
  bucket: string;
  new: number;
  returning: number;
  resurrecting: number;
  /** Minus the actors active in the previous bucket but not in this one. */
  dormant: number;
}

export interface LifecycleResponse extends DateRange {
  interval: LifecycleInterval;
  buckets: LifecycleBucket[];
}
