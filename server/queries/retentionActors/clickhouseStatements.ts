// Retention actors: the ClickHouse statement, the same rows as the DuckDB one (statements.ts).
// Pure: nothing here touches the store; every value is a literal. Each actor's rows are gathered
// from every shard as retention's are (../retention/clickhouseStatements.ts says why).

import { addDays, nextBucket } from '../../engine/dates.js';
import type { BuiltSql } from '../../engine/sql.js';
import { literal } from '../../engine/clickhouse/literal.js';
import type { QueryContext } from '../context.js';
import { actorBucketsSql } from '../retention/clickhouseStatements.js';
import { dateLiteral } from '../../engine/clickhouse/scan.js';
import type { RetentionActorsParams } from './types.js';

export function buildRetentionActorsClickHouseSql(p: RetentionActorsParams, ctx: QueryContext, after: string | undefined): BuiltSql {
  // A later period reads return events of its one bucket only.
  const returnBucket = p.granularity === 'day' ? addDays(p.cohort, p.period) : addDays(p.cohort, 7 * p.period);
  const returns = p.period > 0 ? { date_from: returnBucket, date_to: addDays(nextBucket(returnBucket, p.granularity), -1) } : undefined;
  const to = returns && returns.date_to > p.date_to ? returns.date_to : p.date_to;
  const buckets = actorBucketsSql(p, ctx, { starts: p, returns, to, actors: 'id' });
  // The actor's cohort is its first start bucket; a later period, a return in that bucket.
  const having = [`max(is_start) = 1`, `minIf(bucket, is_start = 1) = ${dateLiteral(p.cohort)}`];
  if (returns) having.push(`max(is_return) = 1`);
  // Ids compare as bytes, as DuckDB orders them; the cursor's actor was the last of its page.
  const where = after !== undefined ? `WHERE actor > ${literal(after)} ` : '';
  const sql = `SELECT actor FROM (${buckets}) ${where}GROUP BY actor HAVING ${having.join(' AND ')} ORDER BY actor LIMIT ${literal(p.limit + 1)}`;
  return { sql, params: [] };
}
