// Activation drivers: the request parameters, as the OpenAPI schema has checked them, and the
// answer's shape.

import type { FilterItem } from '../../engine/filters.js';

export interface ActivationOutcome {
  event: string;
  from_day: number;
  to_day: number;
}

export interface ActivationDriversParams {
  date_from: string;
  date_to: string;
  anchor_event: string;
  behavior_windows_days?: number[];
  outcome: ActivationOutcome;
  filters?: FilterItem[];
  exclude_managed_events: boolean;
  excluded_events?: string[];
  candidate_limit: number;
}

export const DEFAULT_WINDOWS = [1, 3, 7, 10, 14, 30];
/** Thresholds tried: did the event at least k times, k = 1…10. */
export const THRESHOLDS = Array.from({ length: 10 }, (_, i) => i + 1);
/** A (window, threshold) is chosen only if at least this many discovery actors are on each side. */
export const MIN_SUPPORT = 5;
/** Actors whose id hashes below this (of 100) are in discovery, the others in validation. */
export const DISCOVERY_PERCENT = 70;

export const DRIVERS_WARNING =
  'These are associations, not causes: people who did this early were retained more (or less) often, which does not mean doing it made them stay. Test a change before acting on it.';

export function windowsOf(p: Pick<ActivationDriversParams, 'behavior_windows_days' | 'outcome'>): number[] {
  const given = p.behavior_windows_days ?? DEFAULT_WINDOWS.filter((w) => w <= p.outcome.from_day);
  return [...new Set(given)].sort((a, b) => a - b);
}
