// Correlations: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { FilterItem } from '../../engine/filters.js';
import type { DateRange } from '../ranges.js';

export interface CorrelationsParams {
  date_from: string;
  date_to: string;
  target_event: string;
  filters?: FilterItem[];
  min_n: number;
  limit: number;
  exclude_managed: boolean;
}

export interface CorrelationCandidate {
  event: string;
  /** Actors who did the event in their observation window. */
  actors: number;
  /** The 2×2 table: converted or not × did the event or not. */
  converted_did: number;
  converted_did_not: number;
  not_converted_did: number;
  not_converted_did_not: number;
  conversion_with: number | null;
  conversion_without: number | null;
  /** P(convert | did) / P(convert). */
  lift: number | null;
  /** With one added to each cell, and its 95% interval. */
  odds_ratio: number;
  odds_ratio_low: number;
  odds_ratio_high: number;
  /** Two-sided, of the log odds ratio (the interval's test). */
  p_value: number;
  /** Benjamini–Hochberg adjusted across every candidate tested. */
  q_value: number;
}

export interface CorrelationsResponse extends DateRange {
  target_event: string;
  actors: number;
  converters: number;
  conversion_rate: number | null;
  /** How long non-converters are observed from their first activity; null without converters (to the range's end). */
  observation_seconds: number | null;
  /** Candidates that met min_n, all of which the q values account for. */
  candidates_tested: number;
  /** Converters and non-converters differ by more than 10 to 1. */
  skewed: boolean;
  warning: string;
  candidates: CorrelationCandidate[];
}

export const CORRELATION_WARNING =
  'These are associations, not causes: actors who did an event converted more (or less) often, which does not mean the event made them convert. Test a change before acting on it.';
