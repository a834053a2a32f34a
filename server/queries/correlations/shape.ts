// Correlations: turns the rows into the answer. Pure.

import { compareText, num, numOrNull } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { DateRange } from '../ranges.js';
import { benjaminiHochberg, oddsRatio, ratio } from '../stats.js';
import { CORRELATION_WARNING, type CorrelationsParams, type CorrelationsResponse } from './types.js';

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
