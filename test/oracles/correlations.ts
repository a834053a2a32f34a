// Reference correlations: every actor's events in the range, converters observed before their
// first target event, the others for the converters' median time to convert from their first
// event; per candidate the 2×2 table, lift, the odds ratio with one added to each cell and its
// Wald interval, and Benjamini–Hochberg q values.

import { actorResolver, compareText, groupBy, localDateOf, matchesAll, median, type Filter, type OracleEvent } from './common.js';

export interface CorrelationsInput {
  date_from: string;
  date_to: string;
  target_event: string;
  filters?: Filter[];
  min_n?: number;
  limit?: number;
  exclude_managed?: boolean;
}

/** Φ by numeric integration of the normal density (Simpson's rule): slow, plain, independent. */
function phi(z: number): number {
  const x = Math.min(Math.abs(z), 12);
  const steps = 4000;
  const h = x / steps;
  const f = (t: number) => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI);
  let s = f(0) + f(x);
  for (let i = 1; i < steps; i++) s += f(i * h) * (i % 2 === 1 ? 4 : 2);
  const half = (s * h) / 3;
  return z >= 0 ? 0.5 + half : 0.5 - half;
}

export function correlationsOracle(events: OracleEvent[], links: Array<[string, string]>, q: CorrelationsInput, tz: string) {
  const actorOf = actorResolver(links);
  const managed = (e: OracleEvent) => (q.exclude_managed ?? true) && e.event.startsWith('pp.');
  const inRange = events.filter((e) => {
    const day = localDateOf(e.ts.getTime(), tz);
    return day >= q.date_from && day <= q.date_to && matchesAll(e, q.filters);
  });
  const actors = [...groupBy(inRange, (e) => actorOf(e.distinct_id)).values()].map((list) => {
    const first = Math.min(...list.map((e) => e.ts.getTime()));
    const targets = list.filter((e) => e.event === q.target_event).map((e) => e.ts.getTime());
    return { list, first, convertedAt: targets.length > 0 ? Math.min(...targets) : null };
  });
  const converters = actors.filter((a) => a.convertedAt !== null);
  const span = median(converters.map((a) => a.convertedAt! - a.first));
  const did = new Map<string, { did: number; converted: number }>();
  for (const a of actors) {
    const until = a.convertedAt ?? (span === null ? Infinity : a.first + span);
    const names = new Set(a.list.filter((e) => e.ts.getTime() < until && e.event !== q.target_event && !managed(e)).map((e) => e.event));
    for (const name of names) {
      const c = did.get(name) ?? { did: 0, converted: 0 };
      c.did += 1;
      if (a.convertedAt !== null) c.converted += 1;
      did.set(name, c);
    }
  }
  const n = actors.length;
  const conv = converters.length;
  const rate = n === 0 ? null : conv / n;
  const rows = [...did]
    .filter(([, c]) => c.did >= (q.min_n ?? 5))
    .map(([event, c]) => {
      const a = c.converted;
      const b = conv - a;
      const cc = c.did - a;
      const d = n - conv - cc;
      const log = Math.log(((a + 1) * (d + 1)) / ((b + 1) * (cc + 1)));
      const se = Math.sqrt(1 / (a + 1) + 1 / (b + 1) + 1 / (cc + 1) + 1 / (d + 1));
      const withIt = a / c.did;
      return {
        event,
        actors: c.did,
        converted_did: a,
        converted_did_not: b,
        not_converted_did: cc,
        not_converted_did_not: d,
        conversion_with: withIt,
        conversion_without: b + d === 0 ? null : b / (b + d),
        lift: rate === null || rate === 0 ? null : withIt / rate,
        odds_ratio: Math.exp(log),
        odds_ratio_low: Math.exp(log - 1.959963984540054 * se),
        odds_ratio_high: Math.exp(log + 1.959963984540054 * se),
        p_value: Math.min(1, 2 * (1 - phi(Math.abs(log) / se))),
        q_value: 0,
      };
    });
  // Benjamini–Hochberg: the k-th smallest p times m / k, made monotone from the largest down.
  const byP = [...rows].sort((x, y) => x.p_value - y.p_value);
  for (let k = byP.length - 1; k >= 0; k--) {
    const own = (byP[k]!.p_value * byP.length) / (k + 1);
    byP[k]!.q_value = Math.min(own, k + 1 < byP.length ? byP[k + 1]!.q_value : 1);
  }
  rows.sort((x, y) => {
    if (x.lift !== y.lift) {
      if (x.lift === null) return 1;
      if (y.lift === null) return -1;
      return y.lift - x.lift;
    }
    return compareText(x.event, y.event);
  });
  const others = n - conv;
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    target_event: q.target_event,
    actors: n,
    converters: conv,
    conversion_rate: rate,
    observation_seconds: span === null ? null : span / 1000,
    candidates_tested: rows.length,
    skewed: n > 0 && (conv > 10 * others || others > 10 * conv),
    candidates: rows.slice(0, q.limit ?? 20),
  };
}
