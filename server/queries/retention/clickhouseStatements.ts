// Retention: the ClickHouse statements, the same rows as the DuckDB ones (statements.ts) for the
// shared shaping. Pure: nothing here touches the store; every value is a literal.
//
// ClickHouse 18.16 has neither CTEs nor window functions, and a join of two scans of the sharded
// events table would run once per shard against only that shard's rows, while an actor's distinct
// ids may sit on different shards. So one scan reads every event the answer needs (each shard its
// own, joined to the links every node holds), flagged as a start, a return or revenue; where the
// shards' rows meet, a GROUP BY (actor, bucket) folds each actor's rows into one per bucket, and a
// GROUP BY actor gathers its buckets into arrays (at most one element per bucket of the range and
// its periods). Why this is exact: an actor's cohort is the smallest bucket flagged as a start,
// DuckDB's `min(bucket)` of `starts`; its buckets are distinct, so it counts once per period it
// returned in, as DuckDB's `SELECT DISTINCT actor, bucket` of `rets` makes it; its revenue per
// bucket is the sum of its revenue events there, summed again per cohort and period.
//
// `retention()` (the aggregate) is not used: its conditions are fixed per query, while here the
// period of a return depends on each actor's own cohort, known only after its rows are grouped.

import { addDays, bucketStart, nextBucket } from '../../engine/dates.js';
import type { BuiltSql } from '../../engine/sql.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { eventCondition, filtersCondition } from '../../engine/clickhouse/conditions.js';
import { actorOf, type ActorForm } from '../../engine/clickhouse/identity.js';
import { dateBucket, dateLiteral, scanEvents } from '../../engine/clickhouse/scan.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { CohortDefinition, Granularity, RetentionParams } from './types.js';

/** The period number (Int32) of the return bucket `bucket` in the cohort `cohort` (both Dates, bucket starts: whole weeks apart for weeks). */
export function periodOf(cohort: string, bucket: string, g: Granularity): string {
  const days = `toInt32(${bucket} - ${cohort})`;
  return g === 'day' ? days : `intDiv(${days}, 7)`;
}

/** The last local date any period of any cohort of the range can reach (as statements.ts's). */
function horizon(range: DateRange, d: CohortDefinition): string {
  return addDays(nextBucket(bucketStart(range.date_to, d.granularity), d.granularity, d.periods + 1), -1);
}

/** What one scan of the cohort definition reads besides its start events. */
export interface ActorBucketsOptions {
  /** Local dates of the start events (the cohort range). */
  starts: DateRange;
  /** Local dates of the return events, when returns are read. */
  returns?: DateRange;
  /** Also every revenue event from this local date (no event or filter condition, as DuckDB's). */
  revenueFrom?: string;
  /** Last local date read. */
  to: string;
  actors: ActorForm;
}

/**
 * `SELECT actor, bucket, is_start, is_return[, revenue, has_revenue, paid]`: one row per actor and
 * bucket in which it did anything the answer reads, from every shard: `is_start` (0/1) whether it
 * did a start event of the cohort range there, `is_return` a return event of the returns' range,
 * and with revenue the sum of its revenue events, whether it had one and whether one was positive.
 */
export function actorBucketsSql(d: CohortDefinition, ctx: QueryContext, o: ActorBucketsOptions): string {
  const revenue = o.revenueFrom !== undefined;
  const from = [o.starts.date_from, ...(o.returns ? [o.returns.date_from] : []), ...(revenue ? [o.revenueFrom!] : [])].sort()[0]!;
  const filters = filtersCondition(d.filters, ctx.segments);
  const read = [`(${eventCondition(d.start_event)} AND (${filters}))`];
  if (o.returns) read.push(`(${eventCondition(d.return_event)} AND (${filters}))`);
  if (revenue) read.push('e.revenue IS NOT NULL');
  const scan = scanEvents(
    (local) => {
      const between = (r: DateRange) => `${local.day} >= ${dateLiteral(r.date_from)} AND ${local.day} <= ${dateLiteral(r.date_to)}`;
      // A flag is 0 or 1, never NULL (a condition on an absent property is NULL, as false in WHERE).
      const flag = (event: string, r: DateRange) => `toUInt8(ifNull(${eventCondition(event)} AND (${filters}) AND ${between(r)}, 0))`;
      const columns: Record<string, string> = {
        actor: actorOf(o.actors),
        bucket: dateBucket(local.day, d.granularity),
        s: flag(d.start_event, o.starts),
        r: o.returns ? flag(d.return_event, o.returns) : '0',
      };
      if (revenue) columns.rev = 'e.revenue';
      return columns;
    },
    // The shards send only the rows of the events read (the flags then bound each by its dates).
    { projectId: ctx.projectId, timezone: ctx.timezone, from, to: o.to, where: [`(${read.join(' OR ')})`] },
  );
  const kept = ['s = 1', 'r = 1', ...(revenue ? ['rev IS NOT NULL'] : [])].join(' OR ');
  // New names for the measures: an alias equal to a column it aggregates would shadow it in WHERE.
  const measures = revenue ? ', sumIf(assumeNotNull(rev), rev IS NOT NULL) AS revenue, max(rev IS NOT NULL) AS has_revenue, max(ifNull(rev > 0, 0)) AS paid' : '';
  return `SELECT actor, bucket, max(s) AS is_start, max(r) AS is_return${measures} FROM (${scan}) WHERE ${kept} GROUP BY actor, bucket`;
}

/** One row of the answer per actor: a (kind, period, value) tuple. */
const row = (kind: string, period: string, value: string) => `tuple(${literal(kind)}, toInt32(${period}), toFloat64(${value}))`;

export function buildRetentionClickHouseSql(p: RetentionParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const periods = literal(p.periods);
  const period = (bucket: string) => periodOf('cohort', bucket, p.granularity);
  // Every member counts once in its cohort's size.
  const rows = [`[${row('size', '0', '1')}]`];
  let gathered: string;
  let buckets: string;
  if (p.value === 'actors') {
    buckets = actorBucketsSql(p, ctx, {
      starts: range,
      returns: { date_from: nextBucket(bucketStart(range.date_from, p.granularity), p.granularity), date_to: horizon(range, p) },
      to: horizon(range, p),
      actors: 'key',
    });
    gathered = 'groupArrayIf(bucket, is_return = 1) AS returns';
    // The buckets are distinct per actor, so a member counts once per period it returned in.
    rows.push(`arrayMap(x_p -> ${row('returned', 'x_p', '1')}, arrayFilter(x_p -> x_p >= 1 AND x_p <= ${periods}, arrayMap(x_b -> ${period('x_b')}, returns)))`);
  } else {
    // Revenue counts every revenue event of a cohort member (refunds included, filters not applied)
    // from the start of the cohort bucket.
    buckets = actorBucketsSql(p, ctx, { starts: range, revenueFrom: bucketStart(range.date_from, p.granularity), to: horizon(range, p), actors: 'key' });
    if (p.value === 'revenue') {
      gathered = 'groupArrayIf(bucket, has_revenue = 1) AS revenue_buckets, groupArrayIf(revenue, has_revenue = 1) AS revenues';
      rows.push(
        `arrayMap(x_r -> ${row('revenue', 'x_r.1', 'x_r.2')}, arrayFilter(x_r -> x_r.1 >= 0 AND x_r.1 <= ${periods}, arrayMap((x_b, x_v) -> tuple(${period('x_b')}, x_v), revenue_buckets, revenues)))`,
      );
    } else {
      gathered = 'groupArrayIf(bucket, paid = 1) AS paid_buckets';
      // The first period of the cohort in which the member paid, if any.
      rows.push(`arrayMap(x_p -> ${row('first_paid', 'x_p', '1')}, arraySlice(arraySort(arrayFilter(x_p -> x_p >= 0 AND x_p <= ${periods}, arrayMap(x_b -> ${period('x_b')}, paid_buckets))), 1, 1))`);
    }
  }
  const members = `SELECT actor, minIf(bucket, is_start = 1) AS cohort, ${gathered} FROM (${buckets}) GROUP BY actor HAVING max(is_start) = 1`;
  const sql = `SELECT x_row.1 AS kind, toString(cohort) AS cohort, x_row.2 AS period, sum(x_row.3) AS v
FROM (SELECT cohort, arrayJoin(arrayConcat(${rows.join(', ')})) AS x_row FROM (${members}))
GROUP BY kind, cohort, period`;
  return { sql, params: [] };
}
