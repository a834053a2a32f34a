// Funnel: the DuckDB statements, built from the parameters and the query context. Pure: nothing
// here touches the store.

import { eventCondition, fieldText, filtersCondition, hasFilters } from '../../engine/conditions.js';
import { scanEvents } from '../../engine/eventScan.js';
import { ACTOR, actorOf, type ActorForm } from '../../engine/identity.js';
import { Binder, dateValue, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { FunnelParams } from './types.js';
import type { ByEngine } from '../../engine/engine.js';
import { buildFunnelClickHouse } from './clickhouseStatements.js';

export interface FunnelSql {
  aggregate: BuiltSql;
  revenue?: BuiltSql;
  dropped?: BuiltSql;
}

const HOUR_MS = 3_600_000;
const stepNumbers = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * The order of an actor's events, decided by what the query reads and never by the random uuid, so
 * that loading the same events again gives the same answer. Events come in time order; simultaneous
 * ones in funnel order: by the first step they match, then by the steps they match (not matching
 * a step sorts first: a page view before a purchase in `[any, purchase]`), then by breakdown value. An event at the
 * same instant as the previous step's event can therefore serve as the next step. Events still
 * tied are the same in everything the funnel reads, so their uuid order changes nothing.
 */
function stepOrder(n: number, breakdown: boolean): string {
  const steps = stepNumbers(n);
  // One integer: the first step matched, then the steps matched as bits, step 1 the highest.
  const firstStep = `CASE ${steps.map((i) => `WHEN m${i} THEN ${i}`).join(' ')} END`;
  const bits = steps.map((i) => `(CASE WHEN m${i} THEN ${2 ** (n - i)} ELSE 0 END)`).join(' + ');
  return ['ts', `${firstStep} * ${2 ** n} + ${bits}`, ...(breakdown ? ['bval NULLS LAST'] : []), 'uuid'].join(', ');
}

/**
 * The CTEs ending in `units`: one row per counted unit (an actor's best attempt, or every attempt)
 * with its level (furthest step reached), step-1 breakdown value and step times t1..tN (epoch ms).
 * Actors come as keys unless `actors` asks for ids (to list them).
 */
function unitsCte(b: Binder, p: FunnelParams, range: DateRange, ctx: QueryContext, actors: ActorForm = 'key'): string {
  const n = p.steps.length;
  const steps = stepNumbers(n);
  const windowMs = p.window_hours * HOUR_MS;
  const columns: Record<string, string> = { actor: actorOf(actors), uuid: 'e.uuid', ts: 'e.ts', t: 'epoch_ms(e.ts)' };
  p.steps.forEach((s, i) => {
    columns[`m${i + 1}`] = `(${eventCondition(b, s.event)} AND ${filtersCondition(b, s.filters, ctx.segments)})`;
  });
  columns.bval = p.breakdown ? fieldText(b, p.breakdown.property) : 'CAST(NULL AS VARCHAR)';
  // With named step events the scan itself skips every other event (before computing any column).
  const named = p.steps.every((s) => s.event !== 'any') ? [`e.event IN (${[...new Set(p.steps.map((s) => s.event))].map((e) => b.bind(e)).join(', ')})`] : [];
  const scan = scanEvents(b, (local) => ({ ...columns, day: local.day }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: range.date_from,
    to: range.date_to,
    extraAfterMs: windowMs,
    where: named,
  });
  // Steps without filters match on the event alone, which the scan already checked.
  const scanChecksSteps = named.length > 0 && p.steps.every((s) => !hasFilters(s.filters));
  const anyStep = steps.map((i) => `m${i}`).join(' OR ');
  const nextCols = steps.slice(1).map((i) => `min(CASE WHEN m${i} THEN rn END) OVER w AS n${i}`);
  const w = b.bind(windowMs);
  // Greedy matching is optimal: from each step, the earliest later event matching the next step,
  // in the order of `stepOrder`.
  const joins = steps.slice(1).map((i) => `LEFT JOIN nxt s${i} ON s${i}.actor = s1.actor AND s${i}.rn = s${i - 1}.n${i} AND s${i}.t <= s1.t + ${w}`);
  const level = `CASE ${steps
    .slice(1)
    .map((i) => `WHEN t${i} IS NULL THEN ${i - 1}`)
    .join(' ')} ELSE ${n} END`;
  const times = steps.map((i) => `t${i}`).join(', ');
  const units =
    p.count_by === 'actors'
      ? // An actor counts once, at their furthest step, through the earliest attempt that got there.
        `SELECT actor, level, bval, ${times} FROM (SELECT *, row_number() OVER (PARTITION BY actor ORDER BY level DESC, p1) AS pick FROM lv) WHERE pick = 1`
      : `SELECT actor, level, bval, ${times} FROM lv`;
  return `WITH ev AS (SELECT * FROM (${scan})${scanChecksSteps ? '' : ` WHERE ${anyStep}`}),
seq AS (SELECT *, row_number() OVER (PARTITION BY actor ORDER BY ${stepOrder(n, p.breakdown !== undefined)}) AS rn FROM ev),
nxt AS (SELECT actor, rn, t, day, m1, bval${nextCols.map((c) => `, ${c}`).join('')} FROM seq
  WINDOW w AS (PARTITION BY actor ORDER BY rn ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)),
att AS (SELECT s1.actor, s1.rn AS p1, s1.bval, ${steps.map((i) => `s${i}.t AS t${i}`).join(', ')} FROM nxt s1 ${joins.join(' ')}
  WHERE s1.m1 AND s1.day <= ${dateValue(b, range.date_to)}),
lv AS (SELECT *, ${level} AS level FROM att),
units AS (${units})`;
}

function aggregateColumns(n: number): string {
  return stepNumbers(n)
    .map((i) => {
      const count = `count(*) FILTER (WHERE level >= ${i}) AS c${i}`;
      if (i === 1) return count;
      const gap = `(t${i} - t${i - 1})`;
      return `${count}, quantile_cont(${gap}, 0.5) AS med${i}, sum(${gap}) AS sum${i}`;
    })
    .join(', ');
}

function aggregateSql(p: FunnelParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const ctes = unitsCte(b, p, range, ctx);
  const aggs = aggregateColumns(p.steps.length);
  if (!p.breakdown) {
    return { sql: `${ctes} SELECT true AS is_total, false AS is_other, NULL AS label, NULL AS rk, ${aggs} FROM units`, params: b.values };
  }
  // Values rank by how many units entered step 1 (ties by value); those past the limit fold into
  // one `$other` segment, computed from its units so medians stay exact.
  const limit = b.bind(p.breakdown.limit);
  const sql = `${ctes},
ranked AS (SELECT bval, row_number() OVER (ORDER BY count(*) DESC, bval ASC NULLS LAST) AS rk FROM units GROUP BY bval),
seg AS (SELECT u.*, r.rk, r.rk > ${limit} AS is_other, CASE WHEN r.rk > ${limit} THEN NULL ELSE u.bval END AS label
  FROM units u JOIN ranked r ON r.bval IS NOT DISTINCT FROM u.bval)
SELECT GROUPING(is_other) = 1 AS is_total, is_other, label, min(rk) AS rk, ${aggs}
FROM seg GROUP BY GROUPING SETS ((), (is_other, label))`;
  return { sql, params: b.values };
}

/** Converting actors (reached the last step) and their signed revenue over the range. */
function revenueSql(p: FunnelParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const ctes = unitsCte(b, p, range, ctx);
  const revenue = scanEvents(
    b,
    { actor: ACTOR, revenue: 'e.revenue' },
    {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: range.date_from,
      to: range.date_to,
      where: ['e.revenue IS NOT NULL'],
    },
  );
  const sql = `${ctes}, conv AS (SELECT DISTINCT actor FROM units WHERE level = ${b.bind(p.steps.length)})
SELECT (SELECT count(*) FROM conv) AS converters, (SELECT sum(r.revenue) FROM (${revenue}) r JOIN conv c ON c.actor = r.actor) AS revenue`;
  return { sql, params: b.values };
}

/** One page of actors whose level is exactly `dropped_at_step`, after `after`, by actor id. */
function droppedSql(p: FunnelParams, range: DateRange, ctx: QueryContext, after: string | undefined): BuiltSql {
  const b = new Binder();
  const ctes = unitsCte(b, p, range, ctx, 'id');
  const where = [`level = ${b.bind(p.dropped_at_step!)}`];
  if (after !== undefined) where.push(`actor > ${b.bind(after)}`);
  const sql = `${ctes} SELECT actor FROM units WHERE ${where.join(' AND ')} ORDER BY actor LIMIT ${b.bind(p.dropped_limit + 1)}`;
  return { sql, params: b.values };
}

export function buildFunnelSql(p: FunnelParams, range: DateRange, ctx: QueryContext, droppedAfter?: string): FunnelSql {
  return {
    aggregate: aggregateSql(p, range, ctx),
    revenue: p.value === 'revenue' ? revenueSql(p, range, ctx) : undefined,
    dropped: p.dropped_at_step !== undefined ? droppedSql(p, range, ctx, droppedAfter) : undefined,
  };
}

/** The statement builder of each engine (the shaping reads the same rows from any). */
export const funnelStatements: ByEngine<typeof buildFunnelSql> = { duckdb: buildFunnelSql, clickhouse: buildFunnelClickHouse };
