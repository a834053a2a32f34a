// Correlations: the DuckDB statements, built from the parameters and the query context. Pure:
// nothing here touches the store.

import { filtersCondition, managedEvent } from '../../engine/conditions.js';
import { scanEvents } from '../../engine/eventScan.js';
import { ACTOR } from '../../engine/identity.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { CorrelationsParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { correlationsClickHouse } from './clickhouseStatements.js';

/**
 * Per candidate event: actors who did it in their window and how many of them converted; plus
 * the population's totals and the observation length, on every row (or one row with a NULL
 * event when no candidate qualifies).
 */
export function correlationsSql(p: CorrelationsParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const managed = p.exclude_managed ? managedEvent() : 'false';
  const scan = scanEvents(
    b,
    { actor: ACTOR, t: 'epoch_ms(e.ts)', event: 'e.event', managed },
    {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: range.date_from,
      to: range.date_to,
      where: [filtersCondition(b, p.filters, ctx.segments)],
    },
  );
  const target = b.bind(p.target_event);
  const sql = `WITH ev AS (${scan}),
firsts AS (SELECT actor, min(t) AS first, min(t) FILTER (WHERE event = ${target}) AS converted_at FROM ev GROUP BY actor),
span AS (SELECT quantile_cont(converted_at - first, 0.5) AS ms FROM firsts WHERE converted_at IS NOT NULL),
win AS (SELECT actor, converted_at IS NOT NULL AS converted,
  CASE WHEN converted_at IS NOT NULL THEN converted_at ELSE first + (SELECT ms FROM span) END AS until FROM firsts),
did AS (SELECT DISTINCT ev.actor, ev.event, win.converted FROM ev JOIN win USING (actor)
  WHERE (win.until IS NULL OR ev.t < win.until) AND ev.event <> ${target} AND NOT ev.managed),
cand AS (SELECT event, count(*) AS did, count(*) FILTER (WHERE converted) AS did_converted FROM did GROUP BY event HAVING count(*) >= ${b.bind(p.min_n)}),
totals AS (SELECT count(*) AS actors, count(*) FILTER (WHERE converted) AS converters, (SELECT ms FROM span) AS span_ms FROM win)
SELECT totals.*, cand.event, cand.did, cand.did_converted FROM totals LEFT JOIN cand ON true`;
  return { sql, params: b.values };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const correlationsStatements: ByEngine<typeof correlationsSql> = { duckdb: correlationsSql, clickhouse: correlationsClickHouse };
