// Paths: the request parameters, as the OpenAPI schema has checked them, and the answer's shape.

import type { FilterItem } from '../../engine/filters.js';
import type { DateRange } from '../ranges.js';

export interface PathsParams {
  date_from: string;
  date_to: string;
  selected_event: string;
  direction: 'before' | 'after';
  start_event?: string;
  end_event?: string;
  depth: number;
  min_count: number;
  mode: 'actor' | 'session';
  filters?: FilterItem[];
  breakdown?: { property: string; limit: number };
  exclude_events?: string[];
  top_n: number;
}

export interface PathRoute {
  items: string[];
  count: number;
  share: number;
}

export interface SankeyNode {
  /** Distance from the anchor in items: 0 is the anchor, negative before it. */
  step: number;
  /** An item, `$other` (items folded together) or `$end` (units whose route stopped). */
  item: string;
  count: number;
}

export interface SankeyLink {
  /** Indexes into `nodes`; links run forward in time. */
  source: number;
  target: number;
  value: number;
}

export interface PathsGraph {
  units: number;
  routes: PathRoute[];
  sankey: { nodes: SankeyNode[]; links: SankeyLink[] };
}

export interface PathsSegment extends PathsGraph {
  /** The breakdown value, `$none` for anchors without it, `$other` for values past the limit. */
  name: string;
  value: string | null;
}

export interface PathsResponse extends DateRange, PathsGraph {
  direction: PathsParams['direction'];
  counted: 'actors' | 'sessions';
  breakdown?: PathsSegment[];
}

export const PAGE_VIEW = 'pp.page_view';
export const OTHER = '$other';
export const END = '$end';
/** Events of an actor without a session id belong to one session until 30 minutes pass without one. */
export const SESSION_GAP_MS = 30 * 60_000;
