// Retention: actors grouped into cohorts by the bucket of their first start event in the range, and
// per later period the share who came back, the revenue per cohort member so far, or the share who
// have paid so far. The cohort and return CTEs are shared with retentionActors.ts.

import type { EventStore, Row } from '../store/eventStore.js';
import { today, type QueryContext } from './context.js';
import { addDays, bucketStart, bucketsOf, nextBucket } from '../engine/dates.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkCompare, checkRange, compareRange, effectiveRange, type CompareRequest, type DateRange } from './ranges.js';
import { dateBucket, scanEvents } from '../engine/eventScan.js';
import { ACTOR, type ActorForm } from '../engine/identity.js';
import { scanActiveDays } from '../engine/rollups/actorDays.js';
import { Binder, num, type BuiltSql } from '../engine/sql.js';

export type Granularity = 'day' | 'week';
export type RetentionValue = 'actors' | 'revenue' | 'paid_conversion';

/** What defines cohorts and returns; retention actors takes the same fields. */
export interface CohortDefinition {
  start_event: string;
  return_event: string;
  granularity: Granularity;
  periods: number;
  filters?: FilterItem[];
}

export interface RetentionParams extends CohortDefinition {
  date_from?: string;
  date_to?: string;
  value: RetentionValue;
  compare?: CompareRequest;
}

export interface RetentionCohort {
  /** Local start of the cohort's bucket (a Monday for weeks). */
  cohort: string;
  size: number;
  /** Index p is period p; null where the period has not started or the cohort is empty. */
  values: Array<number | null>;
  /** Actors returning per period (value=actors only); null where the period has not started. */
  counts?: Array<number | null>;
}

export interface RetentionResult extends DateRange {
  cohorts: RetentionCohort[];
}

export interface RetentionResponse extends RetentionResult {
  granularity: Granularity;
  periods: number;
  value: RetentionValue;
  compare?: RetentionResult;
}

// --- validation ------------------------------------------------------------------------------

export function validateRetention(p: RetentionParams): void {
  checkRange(p.date_from, p.date_to);
  checkCompare(p.compare);
  checkFilters(p.filters);
}

// --- SQL -------------------------------------------------------------------------------------

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
export function cohortCtes(
  b: Binder, d: CohortDefinition, range: DateRange, ctx: QueryContext, returns: boolean | { bucket: string }, actors: ActorForm = 'key',
): string {
  const scan = (event: string, from: string, to: string) =>
    `SELECT actor, ${dateBucket('day', d.granularity)} AS bucket FROM (${scanActiveDays(b, {
      projectId: ctx.projectId, timezone: ctx.timezone, from, to, event, filters: d.filters, segments: ctx.segments, actors,
    })})`;
  const starts = scan(d.start_event, range.date_from, range.date_to);
  let sql = `WITH starts AS (SELECT actor, min(bucket) AS cohort FROM (${starts}) GROUP BY actor)`;
  if (returns) {
    const rets = typeof returns === 'object'
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
      projectId: ctx.projectId, timezone: ctx.timezone, from: bucketStart(range.date_from, p.granularity), to: horizon(range, p), where: ['e.revenue IS NOT NULL'],
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

// --- execution -------------------------------------------------------------------------------

export interface RetentionRun {
  main: { range: DateRange; rows: Row[] };
  compare?: { range: DateRange; rows: Row[] };
}

export async function runRetention(store: EventStore, p: RetentionParams, ctx: QueryContext): Promise<RetentionRun> {
  const range = effectiveRange(p, ctx);
  const read = async (r: DateRange) => {
    const q = buildRetentionSql(p, r, ctx);
    return { range: r, rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
  };
  const [main, compare] = await Promise.all([read(range), p.compare ? read(compareRange(p.compare, range)) : undefined]);
  return { main, compare };
}

// --- shaping ---------------------------------------------------------------------------------

function shapeResult(p: RetentionParams, range: DateRange, rows: Row[], now: string): RetentionResult {
  const byKind = new Map<string, number>();
  for (const r of rows) byKind.set(`${r.kind}|${r.cohort}|${num(r.period)}`, num(r.v));
  const get = (kind: string, cohort: string, period: number) => byKind.get(`${kind}|${cohort}|${period}`) ?? 0;
  const periods = Array.from({ length: p.periods + 1 }, (_, i) => i);
  // Every cohort bucket of the range appears, empty ones with size 0.
  const cohorts = bucketsOf(range.date_from, range.date_to, p.granularity).map((cohort) => {
    const size = get('size', cohort, 0);
    const started = (period: number) => nextBucket(cohort, p.granularity, period) <= now;
    const ofSize = (x: number) => (size === 0 ? null : x / size);
    const out: RetentionCohort = { cohort, size, values: [] };
    if (p.value === 'actors') {
      out.counts = periods.map((i) => (!started(i) ? null : i === 0 ? size : get('returned', cohort, i)));
      out.values = out.counts.map((c) => (c === null ? null : ofSize(c)));
    } else {
      // Cumulative: through the end of period p.
      const kind = p.value === 'revenue' ? 'revenue' : 'first_paid';
      let running = 0;
      out.values = periods.map((i) => {
        running += get(kind, cohort, i);
        return started(i) ? ofSize(running) : null;
      });
    }
    return out;
  });
  return { ...range, cohorts };
}

export function shapeRetention(run: RetentionRun, p: RetentionParams, ctx: QueryContext): RetentionResponse {
  const now = today(ctx);
  const main = shapeResult(p, run.main.range, run.main.rows, now);
  const response: RetentionResponse = { ...main, granularity: p.granularity, periods: p.periods, value: p.value };
  if (run.compare) response.compare = shapeResult(p, run.compare.range, run.compare.rows, now);
  return response;
}
