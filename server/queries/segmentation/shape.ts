// Segmentation: turns the rows into the answer. Pure.

import { bucketsOf } from '../../engine/dates.js';
import { hourBuckets, hourLabel } from '../../engine/localTime.js';
import { num, numOrNull } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { SegmentationRun } from './run.js';
import type { SegmentationParams, SegmentationResult, SegmentationResponse } from './types.js';

/** Bucket keys as SQL returns them, in order, with their labels. */
function bucketLabels(p: SegmentationParams, range: DateRange, tz: string): Array<{ key: string; label: string }> {
  if (p.interval === 'hour') return hourBuckets(range.date_from, range.date_to, tz).map((ms) => ({ key: String(ms), label: hourLabel(ms, tz) }));
  return bucketsOf(range.date_from, range.date_to, p.interval).map((d) => ({ key: d, label: d }));
}

function shapeResult(p: SegmentationParams, range: DateRange, rows: Row[], tz: string): SegmentationResult {
  const buckets = bucketLabels(p, range, tz);
  const groups = new Map<string, { name: string; value: string | null; rank: number; values: Map<string, number | null> }>();
  for (const r of rows) {
    const value = r.is_other ? null : (r.label as string | null);
    const name = !p.group_by ? 'total' : r.is_other ? '$other' : value === null ? '$none' : value;
    const rank = r.is_other ? Number.MAX_SAFE_INTEGER : num(r.rk);
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { name, value, rank, values: new Map() }));
    g.values.set(String(r.bucket), numOrNull(r.v));
  }
  if (!p.group_by && groups.size === 0) groups.set('total', { name: 'total', value: null, rank: 0, values: new Map() });
  // Zero-fill: an empty bucket has no events, uniques or revenue; its mean revenue is undefined.
  const empty = p.metric === 'revenue_avg' ? null : 0;
  return {
    ...range,
    series: [...groups.values()]
      .sort((a, b) => a.rank - b.rank)
      .map((g) => ({
        name: g.name,
        value: g.value,
        points: buckets.map(({ key, label }) => ({ bucket: label, value: g.values.get(key) ?? empty })),
      })),
  };
}

export function shapeSegmentation(run: SegmentationRun, p: SegmentationParams, ctx: QueryContext): SegmentationResponse {
  const main = shapeResult(p, run.main.range, run.main.rows, ctx.timezone);
  const response: SegmentationResponse = { ...main, metric: p.metric, interval: p.interval };
  if (run.compare) response.compare = shapeResult(p, run.compare.range, run.compare.rows, ctx.timezone);
  return response;
}
