// actor_days (migrations/duckdb/0020): per project, local day, event (NULL for all) and distinct
// id, the events and revenue. How the folder writes its rows and merges them, and how statements
// read it together with the raw events not yet folded.

import { scanEvents } from '../eventScan.js';
import { eventCondition, filtersCondition, hasFilters, type Segments } from '../conditions.js';
import type { FilterItem } from '../filters.js';
import { actorOf, identityJoin } from '../identity.js';
import type { Binder } from '../sql.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

/**
 * The measures of an actor_days row over raw events with a `revenue` column, in the table's column
 * order: events, revenue, revenue_events, refunds, refund_events. The folder writes rows with them;
 * scanActorDays computes the not yet folded part with them.
 */
export const ACTOR_DAY_MEASURES = 'count(*), sum(revenue), count(revenue), sum(revenue) FILTER (WHERE revenue < 0), count(*) FILTER (WHERE revenue < 0)';

/**
 * (project, local day, event, distinct id) aggregates of the events joined to `z` (project_id,
 * timezone) and matching `where`, plus one row per (project, local day, distinct id) with a NULL
 * event for all of them, in the table's column order (the id's key last).
 */
export const foldActorDays = (where: string) => `SELECT project_id, day, event, distinct_id, ${ACTOR_DAY_MEASURES}, distinct_key
  FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.event, e.distinct_id, e.distinct_key, e.revenue
    FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id WHERE ${where})
  GROUP BY GROUPING SETS ((project_id, day, event, distinct_id, distinct_key), (project_id, day, distinct_id, distinct_key))`;

/** Merges the delta rows into one row per key (see actorDayFolder.ts's compaction). */
export const COMPACT_ACTOR_DAYS = [
  'CREATE TABLE actor_days_merged AS FROM actor_days LIMIT 0',
  `INSERT INTO actor_days_merged
          SELECT project_id, day, event, distinct_id, sum(events), sum(revenue), sum(revenue_events), sum(refunds), sum(refund_events), distinct_key
          FROM actor_days GROUP BY project_id, day, event, distinct_id, distinct_key ORDER BY project_id, event, day`,
  'DROP TABLE actor_days',
  'ALTER TABLE actor_days_merged RENAME TO actor_days',
];

/**
 * `SELECT actor, day`: the local days on which each actor did `event` (or any event), possibly
 * repeated. With property filters every event is read; without, the per-day rollup answers.
 */
export function scanActiveDays(b: Binder, o: DayScanOptions & { filters: readonly FilterItem[] | undefined; segments: Segments }): string {
  if (!hasFilters(o.filters)) return `SELECT actor, day FROM (${scanActorDays(b, o)})`;
  return scanEvents(b, (local) => ({ actor: actorOf(o.actors), day: local.day }), {
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: [eventCondition(b, o.event), filtersCondition(b, o.filters, o.segments)],
  });
}

/**
 * `SELECT actor, day, events, revenue, revenue_events, refunds, refund_events`: the project's
 * activity per actor and local day, from the actor_days rollup where it holds the project's events
 * in this zone, plus the raw events stored after it, all read in one snapshot. An (actor, day) may
 * come in several rows (several distinct ids, rollup and raw); consumers aggregate. For queries
 * without property filters.
 */
export function scanActorDays(b: Binder, o: DayScanOptions): string {
  const point = foldedPoint(b, o);
  const where = [`d.project_id = ${point.project}`, ...point.rollupWhere];
  where.push(o.event === 'any' ? 'd.event IS NULL' : `d.event = ${b.bind(o.event)}`);
  const folded = `SELECT ${actorOf(o.actors, 'd')} AS actor, d.day, d.events, d.revenue, d.revenue_events, d.refunds, d.refund_events
  FROM actor_days d ${identityJoin('d')} WHERE ${where.join(' AND ')}`;
  const raw = scanEvents(b, (local) => ({ actor: actorOf(o.actors), day: local.day, revenue: 'e.revenue' }), {
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: [point.rawWhere, eventCondition(b, o.event)],
  });
  return `${folded}
  UNION ALL
  SELECT actor, day, ${ACTOR_DAY_MEASURES} FROM (${raw}) GROUP BY actor, day`;
}
