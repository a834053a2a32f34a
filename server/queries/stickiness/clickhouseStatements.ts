// Stickiness: the ClickHouse statement, the rows of the DuckDB one (statements.ts) from the raw
// events. Pure: nothing here touches the store.

import { eventCondition, filtersCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { StickinessParams } from './types.js';

export function buildStickinessClickHouse(p: StickinessParams, ctx: QueryContext): BuiltSql {
  const base = scanEvents((local) => ({ actor: ACTOR, day: local.day }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    where: [eventCondition(p.event), filtersCondition(p.filters, ctx.segments)],
  });
  return { sql: `SELECT days, count() AS actors FROM (SELECT actor, uniqExact(day) AS days FROM (${base}) GROUP BY actor) GROUP BY days`, params: [] };
}
