// property_days (migrations/duckdb/0022): per project, local day, event and value of each key of
// events.rollup_properties, the events and revenue. How the folder writes and merges its rows, and
// how statements read it together with the raw events not yet folded.

import { scanEvents } from '../eventScan.js';
import { eventCondition, propertyText } from '../conditions.js';
import type { Binder } from '../sql.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

/** (project, local day, event, key, value) counts of the events joined to `z` and matching `where` for the keys of `$keys` (JSON paths `$paths`). */
export const foldPropertyDays = (where: string) => `SELECT project_id, day, event, key, value, count(*), sum(revenue), count(revenue)
  FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.event, k.key, json_extract_string(e.props, k.path) AS value, e.revenue
    FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id
    CROSS JOIN (SELECT unnest($keys) AS key, unnest($paths) AS path) k WHERE ${where})
  GROUP BY project_id, day, event, key, value`;

/** Merges the delta rows into one row per key (see actorDayFolder.ts's compaction). */
export const COMPACT_PROPERTY_DAYS = [
  'CREATE TABLE property_days_merged AS FROM property_days LIMIT 0',
  `INSERT INTO property_days_merged
          SELECT project_id, day, event, key, value, sum(events), sum(revenue), sum(revenue_events)
          FROM property_days GROUP BY project_id, day, event, key, value ORDER BY project_id, key, event, day`,
  'DROP TABLE property_days',
  'ALTER TABLE property_days_merged RENAME TO property_days',
];

/**
 * `SELECT gval, day, events, revenue`: the project's events per local day and value of the
 * top-level property `key`, from the per-day property rollup (see actorDayFolder.ts) where it holds
 * the key, is folded in this zone, plus the raw events past the folded rowid, in one snapshot. A
 * (gval, day) pair may appear in both parts; callers sum.
 */
export function scanPropertyDays(b: Binder, o: DayScanOptions & { key: string }): string {
  const key = b.bind(o.key);
  const point = foldedPoint(b, o, `EXISTS (SELECT 1 FROM property_day_keys k WHERE k.key = ${key})`);
  const where = [`d.project_id = ${point.project}`, `d.key = ${key}`, ...point.rollupWhere];
  if (o.event !== 'any') where.push(`d.event = ${b.bind(o.event)}`);
  const folded = `SELECT d.value AS gval, d.day, d.events, d.revenue FROM property_days d WHERE ${where.join(' AND ')}`;
  const raw = scanEvents(b, (local) => ({ gval: propertyText(b, o.key), day: local.day, revenue: 'e.revenue' }), {
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: [point.rawWhere, eventCondition(b, o.event)],
  });
  return `${folded}
  UNION ALL
  SELECT gval, day, count(*), sum(revenue) FROM (${raw}) GROUP BY gval, day`;
}
