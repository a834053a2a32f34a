// Lifecycle: turns the rows into the answer. Pure.

import { bucketsOf } from '../../engine/dates.js';
import { num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { LifecycleParams, LifecycleResponse } from './types.js';

export function shapeLifecycle(rows: Row[], p: LifecycleParams): LifecycleResponse {
  const byBucket = new Map(rows.map((r) => [String(r.bucket), r]));
  const buckets = bucketsOf(p.date_from, p.date_to, p.interval).map((bucket) => {
    const r = byBucket.get(bucket);
    const dormant = num(r?.dormant);
    return {
      bucket,
      new: num(r?.new),
      returning: num(r?.returning),
      resurrecting: num(r?.resurrecting),
      dormant: dormant === 0 ? 0 : -dormant,
    };
  });
  return { date_from: p.date_from, date_to: p.date_to, interval: p.interval, buckets };
}
