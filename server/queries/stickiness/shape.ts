// Stickiness: turns the rows into the answer. Pure.

import { rangeLength } from '../../engine/dates.js';
import { num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { StickinessParams, StickinessResponse } from './types.js';

export function shapeStickiness(rows: Row[], p: StickinessParams): StickinessResponse {
  const byDays = new Map(rows.map((r) => [num(r.days), num(r.actors)]));
  const distribution = Array.from({ length: rangeLength(p.date_from, p.date_to) }, (_, i) => ({ days: i + 1, actors: byDays.get(i + 1) ?? 0 }));
  return { date_from: p.date_from, date_to: p.date_to, event: p.event, distribution };
}
