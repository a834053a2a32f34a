// Activity summary for one completed local day: DAU, and WAU and MAU as exact distinct actors over
// the trailing 7 and 30 local days (never sums of daily uniques), with the ratios derived from them.

import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { addDays } from '../engine/dates.js';
import { checkDate } from './ranges.js';
import { scanActorDays } from '../engine/rollups/actorDays.js';
import { Binder, dateValue, num, type BuiltSql } from '../engine/sql.js';

export interface ActivitySummaryParams {
  /** The last local day counted (inclusive), normally the last complete one. */
  date_to: string;
  event: string;
}

export interface ActivitySummaryResponse {
  date_to: string;
  event: string;
  dau: number;
  wau: number;
  mau: number;
  dau_mau: number | null;
  /** Mean distinct active days in the 30-day window per MAU actor. */
  usage_frequency: number | null;
  /** Share of MAU actors active on at least two of the 30 days. */
  repeat_activity: number | null;
}

const WEEK_DAYS = 7;
const MONTH_DAYS = 30;

// --- validation ------------------------------------------------------------------------------

export function validateActivitySummary(p: ActivitySummaryParams): void {
  checkDate(p.date_to, 'date_to');
}

// --- SQL -------------------------------------------------------------------------------------

export function buildActivitySummarySql(p: ActivitySummaryParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const base = scanActorDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: addDays(p.date_to, -(MONTH_DAYS - 1)), to: p.date_to, event: p.event });
  const weekStart = dateValue(b, addDays(p.date_to, -(WEEK_DAYS - 1)));
  const sql = `SELECT count(*) FILTER (WHERE on_last) AS dau, count(*) FILTER (WHERE in_week) AS wau, count(*) AS mau,
  sum(days) AS active_days, count(*) FILTER (WHERE days >= 2) AS repeaters
FROM (SELECT actor, count(DISTINCT day) AS days, bool_or(day = ${dateValue(b, p.date_to)}) AS on_last, bool_or(day >= ${weekStart}) AS in_week
      FROM (${base}) GROUP BY actor)`;
  return { sql, params: b.values };
}

// --- execution -------------------------------------------------------------------------------

export async function runActivitySummary(store: EventStore, p: ActivitySummaryParams, ctx: QueryContext): Promise<Row> {
  const q = buildActivitySummarySql(p, ctx);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

// --- shaping ---------------------------------------------------------------------------------

export function shapeActivitySummary(row: Row, p: ActivitySummaryParams): ActivitySummaryResponse {
  const mau = num(row.mau);
  const perMau = (x: number) => (mau === 0 ? null : x / mau);
  const dau = num(row.dau);
  return {
    date_to: p.date_to,
    event: p.event,
    dau,
    wau: num(row.wau),
    mau,
    dau_mau: perMau(dau),
    usage_frequency: perMau(num(row.active_days)),
    repeat_activity: perMau(num(row.repeaters)),
  };
}
