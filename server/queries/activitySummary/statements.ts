// Activity summary: the DuckDB statements (ClickHouse's: clickhouseStatements.ts), built from the parameters and the query context. Pure:
// nothing here touches the store.

import { addDays } from '../../engine/dates.js';
import { scanActorDays } from '../../engine/rollups/actorDays.js';
import { Binder, dateValue, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import { WEEK_DAYS, MONTH_DAYS, type ActivitySummaryParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildActivitySummaryClickHouse } from './clickhouseStatements.js';

export function buildActivitySummarySql(p: ActivitySummaryParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const base = scanActorDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: addDays(p.date_to, -(MONTH_DAYS - 1)), to: p.date_to, event: p.event });
  const weekStart = dateValue(b, addDays(p.date_to, -(WEEK_DAYS - 1)));
  const sql = `SELECT count(*) FILTER (WHERE on_last) AS dau, count(*) FILTER (WHERE in_week) AS wau, count(*) AS mau,
  sum(days) AS active_days, count(*) FILTER (WHERE days >= 2) AS repeaters
FROM (SELECT actor, count(DISTINCT day) AS days, bool_or(day = ${dateValue(b, p.date_to)}) AS on_last, bool_or(day >= ${weekStart}) AS in_week
      FROM (${base}) GROUP BY actor)`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const activitySummaryStatements: ByEngine<typeof buildActivitySummarySql> = { duckdb: buildActivitySummarySql, clickhouse: buildActivitySummaryClickHouse };
