// Revenue summary: turns the rows into the answer. Pure.

import { num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { RevenueSummaryParams, RevenueSummaryResponse } from './types.js';

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
