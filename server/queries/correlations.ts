// Correlations: which events go with reaching a target event, per actor, ranked by lift. Every
// actor is observed for the same kind of span: converters before their first target event,
// others for the converters' median time to convert from their first activity, so that people who
// never convert do not look busier merely for being watched longer. Association, never cause.

import type { EventStore } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { checkFilters, type FilterItem } from './filters.js';
import { checkRange, effectiveRange, type DateRange } from './ranges.js';
import { ACTOR, Binder, filtersCondition, num, numOrNull, scanEvents, type BuiltSql } from './sql.js';
import { compareText } from './paths.js';

export interface CorrelationsParams {
  date_from: string;
  date_to: string;
  target_event: string;
  filters?: FilterItem[];
  min_n: number;
  limit: number;
  exclude_managed: boolean;
}

export interface CorrelationCandidate {
  event: string;
  /** Actors who did the event in their observation window. */
  actors: number;
  /** The 2×2 table: converted or not × did the event or not. */
  converted_did: number;
  converted_did_not: number;
  not_converted_did: number;
  not_converted_did_not: number;
  conversion_with: number | null;
  conversion_without: number | null;
  /** P(convert | did) / P(convert). */
  lift: number | null;
  /** With one added to each cell, and its 95% interval. */
  odds_ratio: number;
  odds_ratio_low: number;
  odds_ratio_high: number;
  /** Two-sided, of the log odds ratio (the interval's test). */
  p_value: number;
  /** Benjamini–Hochberg adjusted across every candidate tested. */
  q_value: number;
}

export interface CorrelationsResponse extends DateRange {
  target_event: string;
  actors: number;
  converters: number;
  conversion_rate: number | null;
  /** How long non-converters are observed from their first activity; null without converters (to the range's end). */
  observation_seconds: number | null;
  /** Candidates that met min_n, all of which the q values account for. */
  candidates_tested: number;
  /** Converters and non-converters differ by more than 10 to 1. */
  skewed: boolean;
  warning: string;
  candidates: CorrelationCandidate[];
}

export const CORRELATION_WARNING =
  'These are associations, not causes: actors who did an event converted more (or less) often, which does not mean the event made them convert. Test a change before acting on it.';

/** Events pp derives or captures itself: autocapture (`pp.*`) and labeled-event rows. */
export const MANAGED_EVENT = (alias = 'e') => `(starts_with(${alias}.event, 'pp.') OR ${alias}.rule_id IS NOT NULL)`;

export function validateCorrelations(p: CorrelationsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

/**
 * Per candidate event: actors who did it in their window and how many of them converted; plus
 * the population's totals and the observation length, on every row (or one row with a NULL
 * event when no candidate qualifies).
 */
export function correlationsSql(p: CorrelationsParams, range: DateRange, ctx: QueryContext): BuiltSql {
  const b = new Binder();
  const managed = p.exclude_managed ? MANAGED_EVENT() : 'false';
  const scan = scanEvents(b, { actor: ACTOR, t: 'epoch_ms(e.ts)', event: 'e.event', managed }, {
    projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, where: [filtersCondition(b, p.filters, ctx.segments)],
  });
  const target = b.bind(p.target_event);
  const sql = `WITH ev AS (${scan}),
firsts AS (SELECT actor, min(t) AS first, min(t) FILTER (WHERE event = ${target}) AS converted_at FROM ev GROUP BY actor),
span AS (SELECT quantile_cont(converted_at - first, 0.5) AS ms FROM firsts WHERE converted_at IS NOT NULL),
win AS (SELECT actor, converted_at IS NOT NULL AS converted,
  CASE WHEN converted_at IS NOT NULL THEN converted_at ELSE first + (SELECT ms FROM span) END AS until FROM firsts),
did AS (SELECT DISTINCT ev.actor, ev.event, win.converted FROM ev JOIN win USING (actor)
  WHERE (win.until IS NULL OR ev.t < win.until) AND ev.event <> ${target} AND NOT ev.managed),
cand AS (SELECT event, count(*) AS did, count(*) FILTER (WHERE converted) AS did_converted FROM did GROUP BY event HAVING count(*) >= ${b.bind(p.min_n)}),
totals AS (SELECT count(*) AS actors, count(*) FILTER (WHERE converted) AS converters, (SELECT ms FROM span) AS span_ms FROM win)
SELECT totals.*, cand.event, cand.did, cand.did_converted FROM totals LEFT JOIN cand ON true`;
  return { sql, params: b.values };
}

export async function runCorrelations(store: EventStore, p: CorrelationsParams, ctx: QueryContext): Promise<{ range: DateRange; rows: Awaited<ReturnType<EventStore['read']>> }> {
  const range = effectiveRange(p, ctx);
  const q = correlationsSql(p, range, ctx);
  return { range, rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
}

// --- statistics ------------------------------------------------------------------------------

/**
 * erfc(x) for x ≥ 0 to about 1e-15: below 3 by the series of erf with positive terms (no
 * cancellation), above by the continued fraction of erfc evaluated with Lentz's method.
 */
export function erfc(x: number): number {
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200 && term > sum * 1e-17; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
    }
    return 1 - ((2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum);
  }
  // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))).
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Two-sided p of a standard normal statistic. */
export const twoSidedP = (z: number): number => Math.min(1, erfc(Math.abs(z) / Math.SQRT2));

const Z95 = 1.959963984540054;

/** Odds ratio with one added to each cell, its 95% interval and the two-sided p of its logarithm. */
export function oddsRatio(a: number, b: number, c: number, d: number): { ratio: number; low: number; high: number; p: number } {
  const log = Math.log(((a + 1) * (d + 1)) / ((b + 1) * (c + 1)));
  const se = Math.sqrt(1 / (a + 1) + 1 / (b + 1) + 1 / (c + 1) + 1 / (d + 1));
  return { ratio: Math.exp(log), low: Math.exp(log - Z95 * se), high: Math.exp(log + Z95 * se), p: twoSidedP(log / se) };
}

/** Benjamini–Hochberg adjusted p values, in the order given. */
export function benjaminiHochberg(ps: number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const q = new Array<number>(ps.length);
  let running = 1;
  for (let r = order.length - 1; r >= 0; r--) {
    const [p, i] = order[r]!;
    running = Math.min(running, (p * ps.length) / (r + 1));
    q[i] = running;
  }
  return q;
}

const ratio = (x: number, y: number) => (y === 0 ? null : x / y);

export function shapeCorrelations(run: { range: DateRange; rows: Awaited<ReturnType<EventStore['read']>> }, p: CorrelationsParams): CorrelationsResponse {
  const first = run.rows[0] ?? {};
  const actors = num(first.actors);
  const converters = num(first.converters);
  const others = actors - converters;
  const rate = ratio(converters, actors);
  const tested = run.rows.filter((r) => r.event !== null && r.event !== undefined);
  const stats = tested.map((r) => {
    const did = num(r.did);
    const a = num(r.did_converted);
    const c = did - a;
    const b = converters - a;
    const d = others - c;
    const or = oddsRatio(a, b, c, d);
    const withIt = ratio(a, did);
    return {
      event: String(r.event),
      actors: did,
      converted_did: a,
      converted_did_not: b,
      not_converted_did: c,
      not_converted_did_not: d,
      conversion_with: withIt,
      conversion_without: ratio(b, b + d),
      lift: withIt === null || rate === null || rate === 0 ? null : withIt / rate,
      odds_ratio: or.ratio,
      odds_ratio_low: or.low,
      odds_ratio_high: or.high,
      p_value: or.p,
      q_value: 0,
    };
  });
  const q = benjaminiHochberg(stats.map((s) => s.p_value));
  stats.forEach((s, i) => (s.q_value = q[i]!));
  stats.sort((x, y) => (y.lift ?? -Infinity) - (x.lift ?? -Infinity) || compareText(x.event, y.event));
  const spanMs = numOrNull(first.span_ms);
  return {
    ...run.range,
    target_event: p.target_event,
    actors,
    converters,
    conversion_rate: rate,
    observation_seconds: spanMs === null ? null : spanMs / 1000,
    candidates_tested: stats.length,
    skewed: (converters > 0 || others > 0) && (converters > 10 * others || others > 10 * converters),
    warning: CORRELATION_WARNING,
    candidates: stats.slice(0, p.limit),
  };
}
