// Stickiness: among actors who did the event in the range, how many did it on exactly 1, 2, … n
// distinct local days (n = days in the range), zero-filled.

import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { rangeLength } from '../engine/dates.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkRange, type DateRange } from './ranges.js';
import { scanActiveDays } from '../engine/rollups/actorDays.js';
import { Binder, num, type BuiltSql } from '../engine/sql.js';

export interface StickinessParams extends DateRange {
  event: string;
  filters?: FilterItem[];
}

export interface StickinessResponse extends DateRange {
  event: string;
  distribution: Array<{ days: number; actors: number }>;
}

// --- validation ------------------------------------------------------------------------------

export function validateStickiness(p: StickinessParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

// --- SQL -------------------------------------------------------------------------------------

export function buildStickinessSql(p: StickinessParams, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const base = scanActiveDays(b, {
    projectId: ctx.projectId, timezone: ctx.timezone, from: p.date_from, to: p.date_to, event: p.event, filters: p.filters, segments: ctx.segments,
  });
  const sql = `SELECT days, count(*) AS actors FROM (SELECT actor, count(DISTINCT day) AS days FROM (${base}) GROUP BY actor) GROUP BY days`;
  return { sql, params: b.values };
}

// --- execution -------------------------------------------------------------------------------

export async function runStickiness(store: EventStore, p: StickinessParams, ctx: QueryContext): Promise<Row[]> {
  const q = buildStickinessSql(p, ctx);
  return store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
}

// --- shaping ---------------------------------------------------------------------------------

export function shapeStickiness(rows: Row[], p: StickinessParams): StickinessResponse {
  const byDays = new Map(rows.map((r) => [num(r.days), num(r.actors)]));
  const distribution = Array.from({ length: rangeLength(p.date_from, p.date_to) }, (_, i) => ({ days: i + 1, actors: byDays.get(i + 1) ?? 0 }));
  return { date_from: p.date_from, date_to: p.date_to, event: p.event, distribution };
}
