// Segmentation: the DuckDB statements, built from the parameters and the query context. Pure:
// nothing here touches the store.

import { eventCondition, fieldText, filtersCondition, hasFilters } from '../../engine/conditions.js';
import { bucketKey, dateBucket, scanEvents, type LocalTimeSql } from '../../engine/eventScan.js';
import { ACTOR } from '../../engine/identity.js';
import { scanActorDays } from '../../engine/rollups/actorDays.js';
import { scanPropertyDays } from '../../engine/rollups/propertyDays.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { SegmentationMetric, SegmentationParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildSegmentationClickHouse } from './clickhouseStatements.js';

/** The metric as an aggregate over `base` rows; NULL where a sum or mean has nothing to add. */
const METRICS: Record<SegmentationMetric, string> = {
  events: 'count(*)',
  uniques: 'count(DISTINCT actor)',
  revenue: 'sum(revenue)',
  revenue_avg: 'avg(revenue)',
};

/**
 * Metrics that add up across cells (value × bucket): a cell's part from events or from rows of
 * scanPropertyDays, summed again across cells.
 */
const CELL_METRICS: Partial<Record<SegmentationMetric, { fromEvents: string; fromDays: string }>> = {
  events: { fromEvents: 'count(*)', fromDays: 'sum(events)' },
  revenue: { fromEvents: 'sum(revenue)', fromDays: 'sum(revenue)' },
};

/** Values of `cells` (gval, bucket, c) ranked by their total, those past `limit` folded into `$other`. */
function rankedCells(cells: string, limit: string): string {
  return `WITH cells AS (${cells}),
ranked AS (SELECT gval, row_number() OVER (ORDER BY coalesce(sum(c), 0) DESC NULLS LAST, gval ASC NULLS LAST) AS rk FROM cells GROUP BY gval)
SELECT r.rk > ${limit} AS is_other, CASE WHEN r.rk > ${limit} THEN NULL ELSE cells.gval END AS label, min(r.rk) AS rk, bucket, sum(c) AS v
FROM cells JOIN ranked r ON r.gval IS NOT DISTINCT FROM cells.gval GROUP BY 1, 2, bucket`;
}

/** The metric over rows of the per-day rollup (scanActorDays), for whole-day buckets without filters or grouping. */
const DAY_METRICS: Record<SegmentationMetric, string> = {
  events: 'sum(events)',
  uniques: 'count(DISTINCT actor)',
  revenue: 'sum(revenue)',
  revenue_avg: 'sum(revenue) / sum(revenue_events)',
};

export function buildSegmentationSql(p: SegmentationParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  if (!p.group_by && !hasFilters(p.filters) && p.interval !== 'hour') {
    const days = scanActorDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, event: p.event });
    const bucket = `CAST(${dateBucket('day', p.interval)} AS VARCHAR)`;
    return { sql: `SELECT false AS is_other, NULL AS label, 0 AS rk, ${bucket} AS bucket, ${DAY_METRICS[p.metric]} AS v FROM (${days}) GROUP BY 4`, params: b.values };
  }
  const cell = CELL_METRICS[p.metric];
  if (p.group_by?.property.startsWith('props.') && cell && !hasFilters(p.filters) && p.interval !== 'hour') {
    // A count or sum by a top-level property per day: the property rollup holds it for the keys
    // it folds (and reads the raw events for any other key, or past the folded point).
    const days = scanPropertyDays(b, {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: range.date_from,
      to: range.date_to,
      event: p.event,
      key: p.group_by.property.slice('props.'.length),
    });
    const cells = `SELECT gval, CAST(${dateBucket('day', p.interval)} AS VARCHAR) AS bucket, ${cell.fromDays} AS c FROM (${days}) GROUP BY gval, bucket`;
    return { sql: rankedCells(cells, b.bind(p.group_by.limit)), params: b.values };
  }
  const gval = p.group_by ? fieldText(b, p.group_by.property) : undefined;
  const columns = (local: LocalTimeSql) => ({
    ...(p.metric === 'uniques' ? { actor: ACTOR } : {}),
    bucket: bucketKey(local, p.interval),
    revenue: 'e.revenue',
    ...(gval ? { gval } : {}),
  });
  const base = scanEvents(b, columns, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: range.date_from,
    to: range.date_to,
    where: [eventCondition(b, p.event), filtersCondition(b, p.filters, ctx.segments)],
  });
  const metric = METRICS[p.metric];
  if (!p.group_by) {
    return { sql: `WITH base AS (${base}) SELECT false AS is_other, NULL AS label, 0 AS rk, bucket, ${metric} AS v FROM base GROUP BY bucket`, params: b.values };
  }
  // Values rank by the metric over the whole range (exact for uniques, not a sum of buckets); the
  // rest fold into one `$other` series whose points are computed from its events.
  const limit = b.bind(p.group_by.limit);
  if (cell) {
    // A count or a sum adds up: the events are grouped once by value and bucket, and the ranking
    // and the folding into `$other` work on those few cells instead of on every event.
    return { sql: rankedCells(`SELECT gval, bucket, ${cell.fromEvents} AS c FROM (${base}) GROUP BY gval, bucket`, limit), params: b.values };
  }
  const rankBy = p.metric === 'revenue' ? `coalesce(${metric}, 0)` : metric;
  const sql = `WITH base AS (${base}),
ranked AS (SELECT gval, row_number() OVER (ORDER BY ${rankBy} DESC NULLS LAST, gval ASC NULLS LAST) AS rk FROM base GROUP BY gval)
SELECT r.rk > ${limit} AS is_other, CASE WHEN r.rk > ${limit} THEN NULL ELSE base.gval END AS label, min(r.rk) AS rk, bucket, ${metric} AS v
FROM base JOIN ranked r ON r.gval IS NOT DISTINCT FROM base.gval GROUP BY 1, 2, bucket`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const segmentationStatements: ByEngine<typeof buildSegmentationSql> = { duckdb: buildSegmentationSql, clickhouse: buildSegmentationClickHouse };
