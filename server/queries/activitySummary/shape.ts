// Activity summary: turns the rows into the answer. Pure.

import { num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { ActivitySummaryParams, ActivitySummaryResponse } from './types.js';

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
