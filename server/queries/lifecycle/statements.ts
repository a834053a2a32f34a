// Lifecycle: the DuckDB statements, built from the parameters and the query context. Pure: nothing
// here touches the store.

import { bucketStart, nextBucket } from '../../engine/dates.js';
import { dateBucket } from '../../engine/eventScan.js';
import { scanActiveDays } from '../../engine/rollups/actorDays.js';
import { Binder, dateValue, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { LifecycleInterval, LifecycleParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildLifecycleClickHouse } from './clickhouseStatements.js';

const STEP_DAYS: Record<LifecycleInterval, number> = { day: 1, week: 7 };

export function buildLifecycleSql(p: LifecycleParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const step = STEP_DAYS[p.interval];
  const first = bucketStart(p.date_from, p.interval);
  const last = bucketStart(p.date_to, p.interval);
  // All history up to date_to: "new" means the first matching event ever.
  const days = scanActiveDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, to: p.date_to, event: 'any', filters: p.filters, segments: ctx.segments });
  const base = `SELECT actor, ${dateBucket('day', p.interval)} AS bucket FROM (${days})`;
  const sql = `WITH base AS (${base}),
firsts AS (SELECT actor, min(bucket) AS first_bucket FROM base GROUP BY actor),
act AS (SELECT DISTINCT actor, bucket FROM base WHERE bucket >= ${dateValue(b, nextBucket(first, p.interval, -1))})
SELECT CAST(bucket AS VARCHAR) AS bucket, sum(n) AS new, sum(r) AS returning, sum(s) AS resurrecting, sum(d) AS dormant FROM (
  SELECT a.bucket,
    count(*) FILTER (WHERE f.first_bucket = a.bucket) AS n,
    count(*) FILTER (WHERE prev.actor IS NOT NULL) AS r,
    count(*) FILTER (WHERE prev.actor IS NULL AND f.first_bucket < a.bucket) AS s,
    0 AS d
  FROM act a JOIN firsts f ON f.actor = a.actor LEFT JOIN act prev ON prev.actor = a.actor AND prev.bucket = a.bucket - ${step}
  WHERE a.bucket >= ${dateValue(b, first)} GROUP BY a.bucket
  UNION ALL
  SELECT prev.bucket + ${step}, 0, 0, 0, count(*)
  FROM act prev LEFT JOIN act a ON a.actor = prev.actor AND a.bucket = prev.bucket + ${step}
  WHERE a.actor IS NULL AND prev.bucket + ${step} <= ${dateValue(b, last)} GROUP BY 1
) GROUP BY bucket`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const lifecycleStatements: ByEngine<typeof buildLifecycleSql> = { duckdb: buildLifecycleSql, clickhouse: buildLifecycleClickHouse };
