// Lifecycle: the ClickHouse statement, the rows of the DuckDB one (statements.ts) from the raw
// events. Pure: nothing here touches the store.
//
// 18.16 has no window functions, and a self-join of the active buckets would read the events
// twice: each actor's active buckets are gathered once into a sorted array, and a bucket's
// predecessor or successor is a neighbour in it.

import { bucketStart, nextBucket } from '../../engine/dates.js';
import { filtersCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { dateBucket, dateLiteral, scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { LifecycleInterval, LifecycleParams } from './types.js';

const STEP_DAYS: Record<LifecycleInterval, number> = { day: 1, week: 7 };

export function buildLifecycleClickHouse(p: LifecycleParams, ctx: QueryContext): BuiltSql {
  const step = STEP_DAYS[p.interval];
  const first = dateLiteral(bucketStart(p.date_from, p.interval));
  const before = dateLiteral(nextBucket(bucketStart(p.date_from, p.interval), p.interval, -1));
  const last = dateLiteral(bucketStart(p.date_to, p.interval));
  // All history up to date_to: "new" means the first matching event ever.
  const base = scanEvents((local) => ({ actor: ACTOR, bucket: dateBucket(local.day, p.interval) }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    to: p.date_to,
    where: [filtersCondition(p.filters, ctx.segments)],
  });
  // Per actor: the first bucket ever, and the buckets from the one before the range on, sorted.
  const actors = `SELECT min(bucket) AS first_bucket, arraySort(groupUniqArrayIf(bucket, bucket >= ${before})) AS s FROM (${base}) GROUP BY actor`;
  // (bucket, new, returning, resurrecting, dormant) for each active bucket in the range, and for
  // each bucket following an active one that is not active (dormant there).
  const prev = (x: string, i: string) => `(${i} > 1 AND s[${i} - 1] = ${x} - ${step})`;
  const next = (x: string, i: string) => `(${i} < length(s) AND s[${i} + 1] = ${x} + ${step})`;
  const counts = `arrayConcat(
    arrayFilter(t -> t.1 >= ${first}, arrayMap((x, i) -> (x, toUInt8(x = first_bucket), toUInt8(${prev('x', 'i')}), toUInt8(NOT ${prev('x', 'i')} AND first_bucket < x), toUInt8(0)), s, arrayEnumerate(s))),
    arrayFilter(t -> t.5 = 1 AND t.1 <= ${last}, arrayMap((x, i) -> (x + ${step}, toUInt8(0), toUInt8(0), toUInt8(0), toUInt8(NOT ${next('x', 'i')})), s, arrayEnumerate(s))))`;
  // 18.16 reads from a subquery only the columns named outside lambdas: `first_bucket`, which only
  // lambdas use, is named in the (always true) WHERE so that it is read.
  const sql = `SELECT toString(c.1) AS bucket, sum(c.2) AS new, sum(c.3) AS returning, sum(c.4) AS resurrecting, sum(c.5) AS dormant
FROM (${actors}) ARRAY JOIN ${counts} AS c
WHERE first_bucket >= toDate(0)
GROUP BY bucket`;
  return { sql, params: [] };
}
