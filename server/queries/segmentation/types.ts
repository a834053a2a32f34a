// Segmentation: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { CompareRequest, DateRange } from '../ranges.js';

export type SegmentationMetric = 'events' | 'uniques' | 'revenue' | 'revenue_avg';
export type SegmentationInterval = 'hour' | 'day' | 'week' | 'month';

export interface SegmentationParams {
  metric: SegmentationMetric;
  event: string;
  filters?: FilterItem[];
  group_by?: { property: string; limit: number };
  interval: SegmentationInterval;
  date_from?: string;
  date_to?: string;
  compare?: CompareRequest;
}

export interface SegmentationSeries {
  /** `total` without group_by; else the value, `$none` (property absent) or `$other`. */
  name: string;
  value: string | null;
  points: Array<{ bucket: string; value: number | null }>;
}

export interface SegmentationResult extends DateRange {
  series: SegmentationSeries[];
}

export interface SegmentationResponse extends SegmentationResult {
  metric: SegmentationMetric;
  interval: SegmentationInterval;
  compare?: SegmentationResult;
}
