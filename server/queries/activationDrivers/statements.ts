// Activation drivers: the DuckDB statements, built from the parameters and the query context. Pure:
// nothing here touches the store.

import { filtersCondition, managedEvent } from '../../engine/conditions.js';
import { addDays } from '../../engine/dates.js';
import { scanEvents } from '../../engine/eventScan.js';
import { ACTOR } from '../../engine/identity.js';
import { Binder, dateValue, type BuiltSql } from '../../engine/sql.js';
import { today, type QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import { THRESHOLDS, DISCOVERY_PERCENT, windowsOf, type ActivationDriversParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { activationDriversClickHouse } from './clickhouseStatements.js';

/** The CTEs ending in `pop`: eligible anchored actors (actor, anchored_at, aday, discovery, retained). */
function populationCtes(b: Binder, p: ActivationDriversParams, range: DateRange, ctx: QueryContext): string {
  const filters = filtersCondition(b, p.filters, ctx.segments);
  const base = { projectId: ctx.projectId, timezone: ctx.timezone };
  const anchorScan = scanEvents(b, (local) => ({ actor: ACTOR, t: 'epoch_ms(e.ts)', day: local.day }), {
    ...base,
    from: range.date_from,
    to: range.date_to,
    where: [`e.event = ${b.bind(p.anchor_event)}`, filters],
  });
  const outcomeScan = scanEvents(b, (local) => ({ actor: ACTOR, day: local.day }), {
    ...base,
    from: addDays(range.date_from, p.outcome.from_day),
    to: addDays(range.date_to, p.outcome.to_day - 1),
    where: [`e.event = ${b.bind(p.outcome.event)}`, filters],
  });
  const from = b.bind(p.outcome.from_day);
  const to = b.bind(p.outcome.to_day);
  return `anchors AS (SELECT actor, min(t) AS anchored_at, arg_min(day, t) AS aday FROM (${anchorScan}) GROUP BY actor),
elig AS (SELECT actor, anchored_at, aday, actor % 100 < ${b.bind(DISCOVERY_PERCENT)} AS discovery FROM anchors WHERE aday + ${to} <= ${dateValue(b, today(ctx))}),
ret AS (SELECT DISTINCT o.actor FROM (${outcomeScan}) o JOIN elig e USING (actor) WHERE o.day >= e.aday + ${from} AND o.day < e.aday + ${to}),
pop AS (SELECT e.*, r.actor IS NOT NULL AS retained FROM elig e LEFT JOIN ret r USING (actor))`;
}

export function activationDriversSql(p: ActivationDriversParams, range: DateRange, ctx: QueryContext): { totals: BuiltSql; counts: BuiltSql } {
  const windows = windowsOf(p);
  const t = new Binder();
  const totals = {
    sql: `WITH ${populationCtes(t, p, range, ctx)}
SELECT (SELECT count(*) FROM anchors) AS anchored, discovery, retained, count(*) AS n FROM pop GROUP BY discovery, retained
UNION ALL SELECT (SELECT count(*) FROM anchors), NULL, NULL, 0`,
    params: t.values,
  };
  const b = new Binder();
  const longest = windows.at(-1)!;
  const excluded = [p.anchor_event, ...(p.excluded_events ?? [])].map((x) => b.bind(x)).join(', ');
  const where = [`e.event NOT IN (${excluded})`, filtersCondition(b, p.filters, ctx.segments), ...(p.exclude_managed_events ? [`NOT ${managedEvent()}`] : [])];
  const behaviorScan = scanEvents(b, (local) => ({ actor: ACTOR, t: 'epoch_ms(e.ts)', day: local.day, event: 'e.event' }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: range.date_from,
    to: addDays(range.date_to, longest - 1),
    where,
  });
  const perWindow = windows.map((w, i) => `count(*) FILTER (WHERE x.day < p.aday + ${b.bind(w)}) AS c${i}`).join(', ');
  const tallies = windows.flatMap((_, i) => THRESHOLDS.map((k) => `count(*) FILTER (WHERE c.c${i} >= ${k}) AS n${i}_${k}`)).join(', ');
  const counts = {
    sql: `WITH ${populationCtes(b, p, range, ctx)},
did AS (SELECT x.actor, x.event, ${perWindow} FROM (${behaviorScan}) x JOIN pop p USING (actor)
  WHERE x.t >= p.anchored_at AND x.day < p.aday + ${b.bind(longest)} GROUP BY x.actor, x.event),
cand AS (SELECT event FROM did GROUP BY event ORDER BY count(*) DESC, event LIMIT ${b.bind(p.candidate_limit)})
SELECT c.event, p.discovery, p.retained, ${tallies} FROM did c JOIN cand USING (event) JOIN pop p USING (actor) GROUP BY c.event, p.discovery, p.retained`,
    params: b.values,
  };
  return { totals, counts };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const activationDriversStatements: ByEngine<typeof activationDriversSql> = { duckdb: activationDriversSql, clickhouse: activationDriversClickHouse };
