// Stickiness: the DuckDB statements, built from the parameters and the query context. Pure: nothing
// here touches the store.

import { scanActiveDays } from '../../engine/rollups/actorDays.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { StickinessParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildStickinessClickHouse } from './clickhouseStatements.js';

export function buildStickinessSql(p: StickinessParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const base = scanActiveDays(b, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    event: p.event,
    filters: p.filters,
    segments: ctx.segments,
  });
  const sql = `SELECT days, count(*) AS actors FROM (SELECT actor, count(DISTINCT day) AS days FROM (${base}) GROUP BY actor) GROUP BY days`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const stickinessStatements: ByEngine<typeof buildStickinessSql> = { duckdb: buildStickinessSql, clickhouse: buildStickinessClickHouse };
