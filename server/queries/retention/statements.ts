// Retention: the DuckDB statements, built from the parameters and the query context. Pure: nothing
// here touches the store.

import { addDays, bucketStart, nextBucket } from '../../engine/dates.js';
import { dateBucket, scanEvents } from '../../engine/eventScan.js';
import { ACTOR, type ActorForm } from '../../engine/identity.js';
import { scanActiveDays } from '../../engine/rollups/actorDays.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { Granularity, CohortDefinition, RetentionParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildRetentionClickHouseSql } from './clickhouseStatements.js';

/** Period number of a return bucket relative to its cohort bucket (both local bucket starts). */
export function periodExpr(cohort: string, bucket: string, g: Granularity): string {
  return g === 'day' ? `date_diff('day', ${cohort}, ${bucket})` : `(date_diff('day', ${cohort}, ${bucket}) // 7)`;
}

/** The last local date any period of any cohort of the range can reach. */
function horizon(range: DateRange, d: CohortDefinition): string {
  return addDays(nextBucket(bucketStart(range.date_to, d.granularity), d.granularity, d.periods + 1), -1);
}

/**
 * `starts(actor, cohort)`: each actor's first matching start event in the range, as a bucket; and
 * `rets(actor, bucket)`: buckets after the first cohort bucket in which they did a return event,
 * all of them (`true`) or only those of one bucket (`{ bucket }`, its local start). Actors come
 * as keys unless `actors` asks for ids.
 */
export function cohortCtes(b: Binder, d: CohortDefinition, range: DateRange, ctx: QueryContext, returns: boolean | { bucket: string }, actors: ActorForm = 'key'): string {
  const scan = (event: string, from: string, to: string) =>
    `SELECT actor, ${dateBucket('day', d.granularity)} AS bucket FROM (${scanActiveDays(b, {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from,
      to,
      event,
      filters: d.filters,
      segments: ctx.segments,
      actors,
    })})`;
  const starts = scan(d.start_event, range.date_from, range.date_to);
  let sql = `WITH starts AS (SELECT actor, min(bucket) AS cohort FROM (${starts}) GROUP BY actor)`;
  if (returns) {
    const rets =
      typeof returns === 'object'
        ? scan(d.return_event, returns.bucket, addDays(nextBucket(returns.bucket, d.granularity), -1))
        : scan(d.return_event, nextBucket(bucketStart(range.date_from, d.granularity), d.granularity), horizon(range, d));
    sql += `,\nrets AS (SELECT DISTINCT actor, bucket FROM (${rets}))`;
  }
  return sql;
}

export function buildRetentionSql(p: RetentionParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const ctes = cohortCtes(b, p, range, ctx, p.value === 'actors');
  const periods = b.bind(p.periods);
  const parts = [`SELECT 'size' AS kind, CAST(cohort AS VARCHAR) AS cohort, 0 AS period, CAST(count(*) AS DOUBLE) AS v FROM starts GROUP BY cohort`];
  let extra = '';
  if (p.value === 'actors') {
    const period = periodExpr('s.cohort', 'r.bucket', p.granularity);
    parts.push(`SELECT 'returned', CAST(s.cohort AS VARCHAR), ${period}, CAST(count(*) AS DOUBLE) FROM starts s JOIN rets r ON r.actor = s.actor
      WHERE ${period} BETWEEN 1 AND ${periods} GROUP BY 2, 3`);
  } else {
    // Revenue counts every revenue event of a cohort member (refunds included, filters not applied)
    // from the start of the cohort bucket.
    const revenue = scanEvents(b, (local) => ({ actor: ACTOR, bucket: dateBucket(local.day, p.granularity), revenue: 'e.revenue' }), {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: bucketStart(range.date_from, p.granularity),
      to: horizon(range, p),
      where: ['e.revenue IS NOT NULL'],
    });
    const period = periodExpr('s.cohort', 'r.bucket', p.granularity);
    extra = `, cohort_revenue AS (SELECT s.actor, CAST(s.cohort AS VARCHAR) AS cohort, ${period} AS period, r.revenue
      FROM starts s JOIN (${revenue}) r ON r.actor = s.actor WHERE ${period} BETWEEN 0 AND ${periods})`;
    if (p.value === 'revenue') {
      parts.push(`SELECT 'revenue', cohort, period, sum(revenue) FROM cohort_revenue GROUP BY 2, 3`);
    } else {
      parts.push(`SELECT 'first_paid', cohort, first_paid, CAST(count(*) AS DOUBLE) FROM
        (SELECT actor, cohort, min(period) AS first_paid FROM cohort_revenue WHERE revenue > 0 GROUP BY actor, cohort) GROUP BY 2, 3`);
    }
  }
  return { sql: `${ctes}${extra}\n${parts.join('\nUNION ALL\n')}`, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const retentionStatements: ByEngine<typeof buildRetentionSql> = { duckdb: buildRetentionSql, clickhouse: buildRetentionClickHouseSql };
