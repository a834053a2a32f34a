// What a query needs besides its parameters, gathered by the route: the project, its time zone and
// currency, the request's `now`, the time limit and the saved segments the filters name. No query
// reads the clock, the configuration or the metadata database itself.

import type { Config } from '../ground/config.js';
import type { Segments } from '../engine/conditions.js';
import type { PathCleaning } from './pathCleaning.js';
import { localDate } from '../engine/localTime.js';

export const QUERY_NAMES = [
  'funnel',
  'retention',
  'retention_actors',
  'segmentation',
  'lifecycle',
  'stickiness',
  'activity_summary',
  'revenue_summary',
  'paths',
  'correlations',
  'activation_drivers',
  'web',
] as const;
export type QueryName = (typeof QUERY_NAMES)[number];

export interface QueryContext {
  projectId: number;
  /** IANA zone defining calendar days, weeks and months. */
  timezone: string;
  /** ISO 4217 code the project's revenue amounts are in; answers that carry money name it. */
  currency: string;
  now: Date;
  /** Interrupt each statement after this long (408 `query_timeout`). */
  timeoutMs: number;
  segments: Segments;
  /** The project's path-cleaning rules and their revision (paths query items). */
  pathCleaning: PathCleaning;
}

/** The query's own limit when configured, else the general `query_timeout_ms`. */
export function queryTimeoutMs(config: Config, name: QueryName): number {
  return config.query_timeouts?.[name] ?? config.query_timeout_ms;
}

/** The project's current local date. */
export function today(ctx: QueryContext): string {
  return localDate(ctx.now, ctx.timezone);
}
