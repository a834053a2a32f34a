// Paths: turns the counted routes into the answer, the whole and per breakdown value. Pure.

import { graphOf } from './graph.js';
import { compareValues, type RouteCount } from './routes.js';
import type { PathsRun } from './run.js';
import type { PathsParams, PathsSegment, PathsResponse } from './types.js';

/** Routes with the same items merged (after the breakdown values were dropped or folded). */
function merged(rows: RouteCount[]): RouteCount[] {
  const byRoute = new Map<string, RouteCount>();
  for (const r of rows) {
    const key = r.codes.join(',');
    const m = byRoute.get(key);
    if (m) m.n += r.n;
    else byRoute.set(key, { ...r, bval: null });
  }
  return [...byRoute.values()];
}

function segmentsOf(run: PathsRun, p: PathsParams): PathsSegment[] {
  const { rows, names } = run;
  const totals = new Map<string | null, number>();
  for (const r of rows) totals.set(r.bval, (totals.get(r.bval) ?? 0) + r.n);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || compareValues(a[0], b[0]));
  const limit = p.breakdown!.limit;
  const segments: PathsSegment[] = ranked.slice(0, limit).map(([value]) => ({
    name: value === null ? '$none' : value,
    value,
    ...graphOf(
      rows.filter((r) => r.bval === value),
      p,
      names,
    ),
  }));
  if (ranked.length > limit) {
    const rest = new Set(ranked.slice(limit).map(([v]) => v));
    segments.push({ name: '$other', value: null, ...graphOf(merged(rows.filter((r) => rest.has(r.bval))), p, names) });
  }
  return segments;
}

export function shapePaths(run: PathsRun, p: PathsParams): PathsResponse {
  const response: PathsResponse = {
    ...run.range,
    direction: p.direction,
    counted: p.mode === 'actor' ? 'actors' : 'sessions',
    // Without a breakdown every route is one row already.
    ...graphOf(p.breakdown ? merged(run.rows) : run.rows, p, run.names),
  };
  if (p.breakdown) response.breakdown = segmentsOf(run, p);
  return response;
}
