// Correlations: the ClickHouse statement, the rows of the DuckDB one (statements.ts) from the raw
// events in one read of them. Pure: nothing here touches the store.
//
// 18.16 has no window functions and no way to read a subquery twice without scanning again: each
// actor's first activity, first target event and the first time of each candidate event are
// gathered per actor; all actors are then folded into one row, where the converters' median time
// to convert is computed (quantile_cont's interpolation: the mean of the two middle values), and
// unfolded again to keep each actor's candidates seen before the end of its window. Every actor
// also contributes a totals row (a NULL event), so the totals are there when no candidate is.

import { filtersCondition, managedEvent } from '../../engine/clickhouse/conditions.js';
import { ACTOR } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { EVENT_MS, scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { CorrelationsParams } from './types.js';

export function correlationsClickHouse(p: CorrelationsParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const scan = scanEvents(
    { actor: ACTOR, t: EVENT_MS, ev_name: 'e.event', managed: p.exclude_managed ? managedEvent() : '0' },
    {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: range.date_from,
      to: range.date_to,
      where: [filtersCondition(p.filters, ctx.segments)],
    },
  );
  const target = literal(p.target_event);
  // Per actor and event: its first time, and its first time among rows that are not managed.
  const pairs = `SELECT actor, ev_name, min(t) AS ft, minIf(t, managed = 0) AS ft_free, countIf(managed = 0) AS n_free FROM (${scan}) GROUP BY actor, ev_name`;
  const actors = `SELECT actor, min(ft) AS first_ms, minIf(ft, ev_name = ${target}) AS conv_ms, max(ev_name = ${target}) AS converted,
  groupArrayIf((ev_name, ft_free), n_free > 0 AND ev_name != ${target}) AS cands
FROM (${pairs}) GROUP BY actor`;
  // One row: the totals, the median and every actor as (converted, when its window starts or ends, candidates).
  const all = `SELECT count() AS actors, sum(converted) AS converters, arraySort(groupArrayIf(conv_ms - first_ms, converted = 1)) AS ds, length(ds) AS nd,
  if(nd = 0, NULL, (ds[intDiv(nd + 1, 2)] + ds[intDiv(nd, 2) + 1]) / 2) AS span_ms,
  groupArray((converted, if(converted = 1, conv_ms, first_ms), cands)) AS people
FROM (${actors})`;
  // Converters until their first target event; the others for the median from their first event (no end without converters).
  const windows = `SELECT actors, converters, span_ms, p.1 AS converted, if(p.1 = 1, toFloat64(p.2), p.2 + ifNull(span_ms, 1e300)) AS until,
  arrayPushFront(arrayMap(c -> (toUInt8(0), c.1), arrayFilter(c -> c.2 < until, p.3)), (toUInt8(1), '')) AS seen
FROM (${all}) ARRAY JOIN people AS p`;
  const sql = `SELECT any(actors) AS actors, any(converters) AS converters, any(span_ms) AS span_ms, if(s.1 = 1, NULL, s.2) AS event, count() AS did, sum(converted) AS did_converted
FROM (${windows}) ARRAY JOIN seen AS s
GROUP BY s.1, s.2
HAVING s.1 = 1 OR did >= ${literal(p.min_n)}`;
  return { sql, params: [] };
}
