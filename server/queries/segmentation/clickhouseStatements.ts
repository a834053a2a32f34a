// Segmentation: the ClickHouse statement, the rows of the DuckDB one (statements.ts) from the raw
// events (ClickHouse keeps no per-day rollups). Pure: nothing here touches the store.
//
// 18.16 has no window functions: a breakdown's values are ranked by sorting one array of them
// (arraySort by the metric, descending, empty last, then by the value's bytes, `$none` last), and
// every event joins its value's rank. A value is joined by its text and whether it is NULL (a NULL
// key matches nothing in a join).

import { eventCondition, fieldText, filtersCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { bucketKey, scanEvents, type LocalTimeSql } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { SegmentationMetric, SegmentationParams } from './types.js';

/** The metric as an aggregate over `base` rows; NULL where a sum or mean has nothing to add. */
const METRICS: Record<SegmentationMetric, string> = {
  events: 'count()',
  uniques: 'uniqExact(actor)',
  revenue: 'sum(revenue)',
  revenue_avg: 'avg(revenue)',
};

export function buildSegmentationClickHouse(p: SegmentationParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const gval = p.group_by ? fieldText(p.group_by.property) : undefined;
  const columns = (local: LocalTimeSql) => ({
    ...(p.metric === 'uniques' ? { actor: ACTOR } : {}),
    bucket: bucketKey(local, p.interval),
    revenue: 'e.revenue',
    ...(gval ? { gval } : {}),
  });
  const base = scanEvents(columns, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: range.date_from,
    to: range.date_to,
    where: [eventCondition(p.event), filtersCondition(p.filters, ctx.segments)],
  });
  const metric = METRICS[p.metric];
  if (!p.group_by) return { sql: `SELECT 0 AS is_other, NULL AS label, 0 AS rk, bucket, ${metric} AS v FROM (${base}) GROUP BY bucket`, params: [] };
  // Values rank by the metric over the whole range (exact for uniques, not a sum of buckets); the
  // rest fold into one `$other` series whose points are computed from its events.
  const limit = literal(p.group_by.limit);
  const keyed = `SELECT *, ifNull(gval, '') AS gkey, isNull(gval) AS gnull FROM (${base})`;
  const rankBy = p.metric === 'revenue' ? `ifNull(${metric}, 0)` : metric;
  const totals = `SELECT gkey, gnull, ${rankBy} AS m FROM (${keyed}) GROUP BY gkey, gnull`;
  const ranked = `SELECT arrayJoin(arrayEnumerate(groups)) AS grank, groups[grank].1 AS gkey, groups[grank].2 AS gnull
FROM (SELECT arraySort((g, k) -> k, groupArray((gkey, gnull)), groupArray((isNull(m), -ifNull(m, 0), gnull, gkey))) AS groups FROM (${totals}))`;
  return {
    sql: `SELECT grank > ${limit} AS is_other, if(grank > ${limit}, NULL, gval) AS label, min(grank) AS rk, bucket, ${metric} AS v
FROM (${keyed}) ANY INNER JOIN (${ranked}) USING gkey, gnull
GROUP BY is_other, label, bucket`,
    params: [],
  };
}
