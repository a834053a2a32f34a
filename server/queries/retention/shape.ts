// Retention: turns the rows into the answer. Pure.

import { bucketsOf, nextBucket } from '../../engine/dates.js';
import { num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import { today, type QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import type { RetentionRun } from './run.js';
import type { RetentionParams, RetentionCohort, RetentionResult, RetentionResponse } from './types.js';

function shapeResult(p: RetentionParams, range: DateRange, rows: Row[], now: string): RetentionResult {
  const byKind = new Map<string, number>();
  for (const r of rows) byKind.set(`${r.kind}|${r.cohort}|${num(r.period)}`, num(r.v));
  const get = (kind: string, cohort: string, period: number) => byKind.get(`${kind}|${cohort}|${period}`) ?? 0;
  const periods = Array.from({ length: p.periods + 1 }, (_, i) => i);
  // Every cohort bucket of the range appears, empty ones with size 0.
  const cohorts = bucketsOf(range.date_from, range.date_to, p.granularity).map((cohort) => {
    const size = get('size', cohort, 0);
    const started = (period: number) => nextBucket(cohort, p.granularity, period) <= now;
    const ofSize = (x: number) => (size === 0 ? null : x / size);
    const out: RetentionCohort = { cohort, size, values: [] };
    if (p.value === 'actors') {
      out.counts = periods.map((i) => (!started(i) ? null : i === 0 ? size : get('returned', cohort, i)));
      out.values = out.counts.map((c) => (c === null ? null : ofSize(c)));
    } else {
      // Cumulative: through the end of period p.
      const kind = p.value === 'revenue' ? 'revenue' : 'first_paid';
      let running = 0;
      out.values = periods.map((i) => {
        running += get(kind, cohort, i);
        return started(i) ? ofSize(running) : null;
      });
    }
    return out;
  });
  return { ...range, cohorts };
}

export function shapeRetention(run: RetentionRun, p: RetentionParams, ctx: QueryContext): RetentionResponse {
  const now = today(ctx);
  const main = shapeResult(p, run.main.range, run.main.rows, now);
  const response: RetentionResponse = { ...main, granularity: p.granularity, periods: p.periods, value: p.value };
  if (run.compare) response.compare = shapeResult(p, run.compare.range, run.compare.rows, now);
  return response;
}
