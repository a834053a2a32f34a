// Retention actors: the DuckDB statements, built from the parameters and the query context. Pure:
// nothing here touches the store.

import { addDays } from '../../engine/dates.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import { cohortCtes, periodExpr } from '../retention/statements.js';
import type { RetentionActorsParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildRetentionActorsClickHouseSql } from './clickhouseStatements.js';

export function buildRetentionActorsSql(p: RetentionActorsParams, ctx: QueryContext, after: string | undefined): BuiltSql {
  const b = new Binder();
  // A later period reads return events of its one bucket only.
  const returnBucket = p.granularity === 'day' ? addDays(p.cohort, p.period) : addDays(p.cohort, 7 * p.period);
  const ctes = cohortCtes(b, p, p, ctx, p.period > 0 && { bucket: returnBucket }, 'id');
  const where = [`CAST(s.cohort AS VARCHAR) = ${b.bind(p.cohort)}`];
  if (after !== undefined) where.push(`s.actor > ${b.bind(after)}`);
  // Period 0 is the whole cohort; a later period, the members who returned in that bucket.
  const from = p.period === 0 ? 'starts s' : `starts s JOIN rets r ON r.actor = s.actor AND ${periodExpr('s.cohort', 'r.bucket', p.granularity)} = ${b.bind(p.period)}`;
  const sql = `${ctes}\nSELECT s.actor FROM ${from} WHERE ${where.join(' AND ')} ORDER BY s.actor LIMIT ${b.bind(p.limit + 1)}`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const retentionActorsStatements: ByEngine<typeof buildRetentionActorsSql> = { duckdb: buildRetentionActorsSql, clickhouse: buildRetentionActorsClickHouseSql };
