// Revenue summary: the DuckDB statements (ClickHouse's: clickhouseStatements.ts), built from the parameters and the query context. Pure:
// nothing here touches the store.

import { filtersCondition, hasFilters } from '../../engine/conditions.js';
import { scanEvents } from '../../engine/eventScan.js';
import { ACTOR } from '../../engine/identity.js';
import { scanActorDays } from '../../engine/rollups/actorDays.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { RevenueSummaryParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildRevenueSummaryClickHouse } from './clickhouseStatements.js';

export function buildRevenueSummarySql(p: RevenueSummaryParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const perActor = hasFilters(p.filters)
    ? `SELECT actor, sum(revenue) AS total, sum(revenue) FILTER (WHERE revenue < 0) AS refunds, count(*) FILTER (WHERE revenue < 0) AS refund_count
      FROM (${scanEvents(
        b,
        { actor: ACTOR, revenue: 'e.revenue' },
        {
          projectId: ctx.projectId,
          timezone: ctx.timezone,
          from: p.date_from,
          to: p.date_to,
          where: [filtersCondition(b, p.filters, ctx.segments)],
        },
      )}) GROUP BY actor`
    : `SELECT actor, sum(revenue) AS total, sum(refunds) AS refunds, sum(refund_events) AS refund_count
      FROM (${scanActorDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, event: 'any' })}) GROUP BY actor`;
  const sql = `SELECT coalesce(sum(total), 0) AS revenue, count(*) AS active_actors, count(*) FILTER (WHERE total > 0) AS paying_actors,
  coalesce(sum(total) FILTER (WHERE total > 0), 0) AS paying_revenue, coalesce(sum(refunds), 0) AS refunds, coalesce(sum(refund_count), 0) AS refund_count
FROM (${perActor})`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const revenueSummaryStatements: ByEngine<typeof buildRevenueSummarySql> = { duckdb: buildRevenueSummarySql, clickhouse: buildRevenueSummaryClickHouse };
