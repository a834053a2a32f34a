// Revenue summary: the ClickHouse statement, with the answer of the DuckDB one (statements.ts).
// ClickHouse keeps no per-day rollup: the raw events are read, with or without filters. The sums
// per actor are made on each shard and merged on the node that asked (an actor's ids may sit on
// several shards) before the actors are counted. A missing revenue is NULL and left out of sums,
// as in DuckDB; the conditions are wrapped in ifNull so a NULL never counts.

import { filtersCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { RevenueSummaryParams } from './types.js';

export function buildRevenueSummaryClickHouse(p: RevenueSummaryParams, ctx: QueryContext): BuiltSql {
  const perActor = scanEvents(
    { actor: ACTOR, total: 'sum(e.revenue)', refunds: 'sumIf(e.revenue, ifNull(e.revenue < 0, 0))', refund_count: 'countIf(ifNull(e.revenue < 0, 0))' },
    { projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, where: [filtersCondition(p.filters, ctx.segments)] },
  );
  const sql = `SELECT ifNull(sum(total), 0) AS revenue, count() AS active_actors, countIf(ifNull(total > 0, 0)) AS paying_actors,
  ifNull(sumIf(total, ifNull(total > 0, 0)), 0) AS paying_revenue, ifNull(sum(refunds), 0) AS refunds, sum(refund_count) AS refund_count
FROM (${perActor} GROUP BY actor)`;
  return { sql, params: [] };
}
