// Funnel: the ClickHouse statements, the same rows as the DuckDB ones (statements.ts) so the
// shaping is shared. Values are written as literals (engine/clickhouse/literal.ts). The walk through
// each actor's events is in clickhouseWalk.ts; here are the scan it reads and what is counted
// from its units. Pure: nothing here touches the store.

import { eventCondition, fieldText, filtersCondition, hasFilters } from '../../engine/clickhouse/conditions.js';
import { ACTOR, actorOf, type ActorForm } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { dateLiteral, EVENT_MS, EVENT_US, scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import { attemptsSql, stepKey, unitsSql, type WalkColumns } from './clickhouseWalk.js';
import type { FunnelSql } from './statements.js';
import type { FunnelParams } from './types.js';

const HOUR_MS = 3_600_000;
const stepNumbers = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The units of the funnel (unitsCte in statements.ts): `actor`, `level`, `bval`, `t1`…`tN` (ms). */
function units(p: FunnelParams, range: DateRange, ctx: QueryContext, actors: ActorForm = 'key'): string {
  const windowMs = p.window_hours * HOUR_MS;
  // 0 or 1 each (a condition on a missing value may be NULL, which matches nothing, as on DuckDB).
  const matches = p.steps.map((s) => `ifNull(toUInt8(${eventCondition(s.event)} AND ${filtersCondition(s.filters, ctx.segments)}), 0)`);
  const bval = p.breakdown ? `CAST(${fieldText(p.breakdown.property)} AS Nullable(String))` : 'CAST(NULL AS Nullable(String))';
  // Only events matching some step are read; with named step events the scan skips the others by
  // name first (before computing any column).
  const named = p.steps.every((s) => s.event !== 'any') ? [`e.event IN (${[...new Set(p.steps.map((s) => s.event))].map(literal).join(', ')})`] : [];
  const where = p.steps.every((s) => !hasFilters(s.filters)) && named.length > 0 ? named : [...named, `(${matches.join(' OR ')})`];
  const scan = scanEvents(
    (local): Record<keyof WalkColumns, string> => ({
      actor: actorOf(actors),
      // The order is the instant in µs, as DuckDB orders `ts`; gaps and the window are in whole ms, as its `epoch_ms(ts)`.
      us: EVENT_US,
      t: EVENT_MS,
      key: stepKey(matches),
      bval,
      start: `toUInt8(${matches[0]} AND ${local.day} <= ${dateLiteral(range.date_to)})`,
    }),
    { projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, extraAfterMs: windowMs, where },
  );
  return unitsSql(attemptsSql(scan, p.steps.length, windowMs), p.steps.length, p.count_by);
}

/** The interpolated median of an array of integers (DuckDB's quantile_cont(x, 0.5)); NULL when empty. */
function medianOf(values: string): string {
  const sorted = `arraySort(${values})`;
  return `if(length(${sorted}) = 0, NULL, (${sorted}[intDiv(length(${sorted}) + 1, 2)] + ${sorted}[intDiv(length(${sorted}), 2) + 1]) / 2)`;
}

/** The gap between step i-1 and step i of units that reached step i. */
const gap = (i: number) => `(t${i} - t${i - 1})`;

/** Per step: the count reached, and from step 2 the median and the sum of the gaps (ms), of rows of units. */
function unitAggregates(n: number): string {
  return stepNumbers(n)
    .map((i) => (i === 1 ? 'count() AS c1' : `countIf(level >= ${i}) AS c${i}, ${medianOf(`groupArrayIf(${gap(i)}, level >= ${i})`)} AS med${i}, sumIf(${gap(i)}, level >= ${i}) AS sum${i}`))
    .join(', ');
}

function aggregateSql(p: FunnelParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const n = p.steps.length;
  const u = units(p, range, ctx);
  if (!p.breakdown) {
    return { sql: `SELECT 1 AS is_total, 0 AS is_other, CAST(NULL AS Nullable(String)) AS label, CAST(NULL AS Nullable(UInt64)) AS rk, ${unitAggregates(n)} FROM (${u})`, params: [] };
  }
  // Per value: the counts, gaps and sums (a tuple: value, c1, then count, gaps, sum per step).
  const perValue = `SELECT bval, ${stepNumbers(n)
    .map((i) => (i === 1 ? 'count() AS c1' : `countIf(level >= ${i}) AS c${i}, groupArrayIf(${gap(i)}, level >= ${i}) AS g${i}, sumIf(${gap(i)}, level >= ${i}) AS s${i}`))
    .join(', ')} FROM (${u}) GROUP BY bval`;
  const fields = [
    'bval',
    'c1',
    ...stepNumbers(n)
      .slice(1)
      .flatMap((i) => [`c${i}`, `g${i}`, `s${i}`]),
  ];
  const at = (name: string) => `tupleElement(r, ${fields.indexOf(name) + 1})`;
  // Values rank by how many units entered step 1 (ties by value, bytes, none last); those past the
  // limit fold into one `$other` segment, computed from its units' gaps so medians stay exact.
  const ranked = `SELECT arraySort(x -> (-toInt64(tupleElement(x, 2)), isNull(tupleElement(x, 1)), ifNull(tupleElement(x, 1), '')), groupArray((${fields.join(', ')}))) AS rs FROM (${perValue})`;
  const limit = literal(p.breakdown.limit);
  const aggs = stepNumbers(n)
    .map((i) => (i === 1 ? `sum(${at('c1')}) AS c1` : `sum(${at(`c${i}`)}) AS c${i}, ${medianOf(`groupArrayArray(${at(`g${i}`)})`)} AS med${i}, sum(${at(`s${i}`)}) AS sum${i}`))
    .join(', ');
  // Every value's row counts twice: once in the total, once in its segment.
  const sql = `SELECT is_total, is_other, label, min(pos) AS rk, ${aggs}
FROM (SELECT r, pos FROM (${ranked}) ARRAY JOIN rs AS r, arrayEnumerate(rs) AS pos) ARRAY JOIN [1, 0] AS is_total
GROUP BY is_total, if(is_total = 1, 0, pos > ${limit}) AS is_other, if(is_total = 1 OR pos > ${limit}, NULL, ${at('bval')}) AS label`;
  return { sql, params: [] };
}

/** Converting actors (reached the last step) and their signed revenue over the range. */
function revenueSql(p: FunnelParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const converters = `SELECT actor FROM (${units(p, range, ctx)}) WHERE level = ${literal(p.steps.length)}`;
  const revenue = scanEvents({ actor: ACTOR, revenue: 'e.revenue' }, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, where: ['e.revenue IS NOT NULL'] });
  // GLOBAL: the set of converters is made once, where the statement runs, and sent to the shards
  // with the revenue scan, should the condition move into it.
  const sql = `SELECT (SELECT uniqExact(actor) FROM (${converters})) AS converters,
  (SELECT sum(revenue) FROM (${revenue}) WHERE actor GLOBAL IN (${converters})) AS revenue`;
  return { sql, params: [] };
}

/** One page of actors whose level is exactly `dropped_at_step`, after `after`, by actor id (bytes). */
function droppedSql(p: FunnelParams, range: DateRange, ctx: QueryContext, after: string | undefined): BuiltSql {
  const where = [`level = ${literal(p.dropped_at_step!)}`];
  if (after !== undefined) where.push(`actor > ${literal(after)}`);
  const sql = `SELECT actor FROM (${units(p, range, ctx, 'id')}) WHERE ${where.join(' AND ')} ORDER BY actor LIMIT ${literal(p.dropped_limit + 1)}`;
  return { sql, params: [] };
}

export function buildFunnelClickHouse(p: FunnelParams, range: DateRange, ctx: QueryContext, droppedAfter?: string): FunnelSql {
  return {
    aggregate: aggregateSql(p, range, ctx),
    revenue: p.value === 'revenue' ? revenueSql(p, range, ctx) : undefined,
    dropped: p.dropped_at_step !== undefined ? droppedSql(p, range, ctx, droppedAfter) : undefined,
  };
}
