// Funnel: the request parameters, as the OpenAPI schema has checked them, and the answer's shape.

import type { FilterItem } from '../../engine/filters.js';
import type { CompareRequest, DateRange } from '../ranges.js';

export interface FunnelStep {
  event: string;
  filters?: FilterItem[];
  label?: string;
}

export interface FunnelParams {
  date_from?: string;
  date_to?: string;
  window_hours: number;
  steps: FunnelStep[];
  breakdown?: { property: string; limit: number };
  count_by: 'actors' | 'totals';
  value: 'actors' | 'revenue';
  compare?: CompareRequest;
  dropped_at_step?: number;
  dropped_cursor?: string;
  dropped_limit: number;
}

export interface FunnelStepResult {
  event: string;
  label: string;
  count: number;
  conversion_rate: number | null;
  step_conversion_rate: number | null;
  median_seconds_from_previous: number | null;
  mean_seconds_from_previous: number | null;
}

export interface FunnelSegment {
  /** The breakdown value, `$none` for events without it, `$other` for values past the limit. */
  name: string;
  value: string | null;
  steps: FunnelStepResult[];
}

export interface FunnelRevenue {
  converting_actors: number;
  revenue_per_converting_actor: number | null;
  transitions: Array<{ from_step: number; to_step: number; dropped: number; estimated_monthly_loss: number | null }>;
}

export interface FunnelResult extends DateRange {
  steps: FunnelStepResult[];
  breakdown?: FunnelSegment[];
  revenue?: FunnelRevenue;
}

export interface FunnelResponse extends FunnelResult {
  compare?: FunnelResult;
  dropped?: { step: number; actors: Array<{ actor_id: string }>; next_cursor: string | null };
}
