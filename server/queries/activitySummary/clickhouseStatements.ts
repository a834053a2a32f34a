// Activity summary: the ClickHouse statement, with the answer of the DuckDB one (statements.ts).
// ClickHouse keeps no per-day rollup: the raw events are read. Each shard reduces its events to
// (actor, local day) pairs, and the pairs of an actor whose ids sit on several shards meet on the
// node that asked before they are counted per actor.

import { addDays } from '../../engine/dates.js';
import { eventCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { dateLiteral, scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import { MONTH_DAYS, WEEK_DAYS, type ActivitySummaryParams } from './types.js';

export function buildActivitySummaryClickHouse(p: ActivitySummaryParams, ctx: QueryContext): BuiltSql {
  const days = scanEvents((local) => ({ actor: ACTOR, day: local.day }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: addDays(p.date_to, -(MONTH_DAYS - 1)),
    to: p.date_to,
    where: [eventCondition(p.event)],
  });
  const sql = `SELECT countIf(on_last = 1) AS dau, countIf(in_week = 1) AS wau, count() AS mau, sum(days) AS active_days, countIf(days >= 2) AS repeaters
FROM (SELECT actor, count() AS days, max(day = ${dateLiteral(p.date_to)}) AS on_last, max(day >= ${dateLiteral(addDays(p.date_to, -(WEEK_DAYS - 1)))}) AS in_week
      FROM (${days} GROUP BY actor, day) GROUP BY actor)`;
  return { sql, params: [] };
}
