// Correlations: which events go with reaching a target event, per actor, ranked by lift. Every
// actor is observed for the same kind of span: converters before their first target event,
// others for the converters' median time to convert from their first activity, so that people who
// never convert do not look busier merely for being watched longer. Association, never cause.

import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkRange, effectiveRange, type DateRange } from './ranges.js';
import { filtersCondition, managedEvent } from '../engine/conditions.js';
import { scanEvents } from '../engine/eventScan.js';
import { ACTOR } from '../engine/identity.js';
import { Binder, compareText, num, numOrNull, type BuiltSql } from '../engine/sql.js';
import { benjaminiHochberg, oddsRatio, ratio } from './stats.js';

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
  const managed = p.exclude_managed ? managedEvent() : 'false';
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

export async function runCorrelations(store: EventStore, p: CorrelationsParams, ctx: QueryContext): Promise<{ range: DateRange; rows: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = correlationsSql(p, range, ctx);
  return { range, rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
}


export function shapeCorrelations(run: { range: DateRange; rows: Row[] }, p: CorrelationsParams): CorrelationsResponse {
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
