// Revenue summary over a range: signed revenue, refunds, and per-actor averages where every active
// actor counts once over the whole range (ARPU) and paying means a positive total (ARPPU), in the
// project's currency, which the answer names.

import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkRange, type DateRange } from './ranges.js';
import { filtersCondition, hasFilters } from '../engine/conditions.js';
import { scanEvents } from '../engine/eventScan.js';
import { ACTOR } from '../engine/identity.js';
import { scanActorDays } from '../engine/rollups/actorDays.js';
import { Binder, num, type BuiltSql } from '../engine/sql.js';

export interface RevenueSummaryParams extends DateRange {
  filters?: FilterItem[];
}

export interface RevenueSummaryResponse extends DateRange {
  /** ISO 4217 code of the project's currency, which every amount below is in. */
  currency: string;
  /** Signed sum, refunds included. */
  revenue: number;
  /** Actors whose revenue over the range sums to more than zero. */
  paying_actors: number;
  /** Distinct actors with any matching event in the range. */
  active_actors: number;
  arpu: number | null;
  /** Revenue of paying actors per paying actor. */
  arppu: number | null;
  /** Sum of the negative revenue amounts (zero or less). */
  refunds: number;
  refund_count: number;
}

// --- validation ------------------------------------------------------------------------------

export function validateRevenueSummary(p: RevenueSummaryParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

// --- SQL -------------------------------------------------------------------------------------

export function buildRevenueSummarySql(p: RevenueSummaryParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const perActor = hasFilters(p.filters)
    ? `SELECT actor, sum(revenue) AS total, sum(revenue) FILTER (WHERE revenue < 0) AS refunds, count(*) FILTER (WHERE revenue < 0) AS refund_count
      FROM (${scanEvents(b, { actor: ACTOR, revenue: 'e.revenue' }, {
        projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, where: [filtersCondition(b, p.filters, ctx.segments)],
      })}) GROUP BY actor`
    : `SELECT actor, sum(revenue) AS total, sum(refunds) AS refunds, sum(refund_events) AS refund_count
      FROM (${scanActorDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, event: 'any' })}) GROUP BY actor`;
  const sql = `SELECT coalesce(sum(total), 0) AS revenue, count(*) AS active_actors, count(*) FILTER (WHERE total > 0) AS paying_actors,
  coalesce(sum(total) FILTER (WHERE total > 0), 0) AS paying_revenue, coalesce(sum(refunds), 0) AS refunds, coalesce(sum(refund_count), 0) AS refund_count
FROM (${perActor})`;
  return { sql, params: b.values };
}

// --- execution -------------------------------------------------------------------------------

export async function runRevenueSummary(store: EventStore, p: RevenueSummaryParams, ctx: QueryContext): Promise<Row> {
  const q = buildRevenueSummarySql(p, ctx);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

// --- shaping ---------------------------------------------------------------------------------

export function shapeRevenueSummary(row: Row, p: RevenueSummaryParams, currency: string): RevenueSummaryResponse {
  const revenue = num(row.revenue);
  const active = num(row.active_actors);
  const paying = num(row.paying_actors);
  const refunds = num(row.refunds);
  return {
    date_from: p.date_from,
    date_to: p.date_to,
    currency,
    revenue,
    paying_actors: paying,
    active_actors: active,
    // Each active actor counts once over the whole range, whatever the number of active days.
    arpu: active === 0 ? null : revenue / active,
    arppu: paying === 0 ? null : num(row.paying_revenue) / paying,
    refunds: refunds === 0 ? 0 : refunds,
    refund_count: num(row.refund_count),
  };
}
