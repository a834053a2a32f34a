// Funnel: turns the rows into the answer. Pure.

import { rangeLength } from '../../engine/dates.js';
import { num, numOrNull } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { CursorCodec } from '../cursors.js';
import type { DateRange } from '../ranges.js';
import { ratio } from '../stats.js';
import type { FunnelRows, FunnelRun } from './run.js';
import type { FunnelParams, FunnelStepResult, FunnelSegment, FunnelRevenue, FunnelResult, FunnelResponse } from './types.js';

function shapeSteps(p: FunnelParams, row: Row): FunnelStepResult[] {
  const counts = p.steps.map((_, i) => num(row[`c${i + 1}`]));
  return p.steps.map((s, i) => {
    const count = counts[i]!;
    const first = i === 0;
    return {
      event: s.event,
      label: s.label ?? s.event,
      count,
      conversion_rate: ratio(count, counts[0]!),
      step_conversion_rate: first ? ratio(count, counts[0]!) : ratio(count, counts[i - 1]!),
      median_seconds_from_previous: first ? null : mapNull(numOrNull(row[`med${i + 1}`]), (ms) => ms / 1000),
      // The mean from the exact millisecond sum, so it does not depend on the engine's averaging.
      mean_seconds_from_previous: first || count === 0 ? null : num(row[`sum${i + 1}`]) / count / 1000,
    };
  });
}

function mapNull<T, U>(v: T | null, f: (x: T) => U): U | null {
  return v === null ? null : f(v);
}

function shapeSegments(p: FunnelParams, rows: Row[]): FunnelSegment[] {
  const segments = rows.filter((r) => !r.is_total);
  // Ranked values first, in rank order, then `$other`.
  segments.sort((a, b) => Number(a.is_other) - Number(b.is_other) || num(a.rk) - num(b.rk));
  return segments.map((r) => {
    const value = r.is_other ? null : (r.label as string | null);
    const name = r.is_other ? '$other' : value === null ? '$none' : value;
    return { name, value, steps: shapeSteps(p, r) };
  });
}

function shapeRevenue(p: FunnelParams, steps: FunnelStepResult[], range: DateRange, row: Row): FunnelRevenue {
  const converters = num(row.converters);
  const perActor = converters === 0 ? null : num(row.revenue) / converters;
  // Revenue per converting actor over the range, scaled to a 30-day month.
  const monthly = perActor === null ? null : (perActor * 30) / rangeLength(range.date_from, range.date_to);
  return {
    converting_actors: converters,
    revenue_per_converting_actor: perActor,
    transitions: p.steps.slice(0, -1).map((_, i) => {
      const dropped = steps[i]!.count - steps[i + 1]!.count;
      return { from_step: i + 1, to_step: i + 2, dropped, estimated_monthly_loss: monthly === null ? null : dropped * monthly };
    }),
  };
}

function shapeResult(p: FunnelParams, rows: FunnelRows): FunnelResult {
  const total = rows.aggregate.find((r) => r.is_total) ?? {};
  const steps = shapeSteps(p, total);
  const result: FunnelResult = { ...rows.range, steps };
  if (p.breakdown) result.breakdown = shapeSegments(p, rows.aggregate);
  if (rows.revenue) result.revenue = shapeRevenue(p, steps, rows.range, rows.revenue);
  return result;
}

export function shapeFunnel(run: FunnelRun, p: FunnelParams, cursors: CursorCodec): FunnelResponse {
  const response: FunnelResponse = shapeResult(p, run.main);
  if (run.compare) response.compare = shapeResult(p, run.compare);
  if (run.dropped) {
    const page = run.dropped.rows.slice(0, p.dropped_limit).map((r) => String(r.actor));
    const more = run.dropped.rows.length > p.dropped_limit;
    response.dropped = {
      step: p.dropped_at_step!,
      actors: page.map((actor_id) => ({ actor_id })),
      next_cursor: more ? cursors.encode(run.dropped.scope, page.at(-1)) : null,
    };
  }
  return response;
}
