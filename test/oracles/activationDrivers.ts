// Reference activation drivers: anchors, maturity against `as_of`, retention in the outcome window,
// the md5 split of actor ids, and for each candidate every (window, threshold) tried on discovery
// actors one at a time, the best judged on validation actors.

import { createHash } from 'node:crypto';
import { actorResolver, addDays, compareText, groupBy, localDateOf, matchesAll, type Filter, type OracleEvent } from './common.js';

export interface ActivationDriversInput {
  date_from: string;
  date_to: string;
  anchor_event: string;
  behavior_windows_days?: number[];
  outcome: { event: string; from_day: number; to_day: number };
  filters?: Filter[];
  exclude_managed_events?: boolean;
  excluded_events?: string[];
  candidate_limit?: number;
}

const THRESHOLDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Whether an actor id lands in discovery: bytes 8–15 of its md5 read little-endian, modulo 100, below 70. */
export function discoveryOf(actor: string): boolean {
  return createHash('md5').update(actor, 'utf8').digest().readBigUInt64LE(8) % 100n < 70n;
}

/** The first n ids `<prefix><i>` that land in discovery (or, with `wanted` false, in validation). */
export function idsIn(wanted: boolean, n: number, prefix: string): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) if (discoveryOf(`${prefix}${i}`) === wanted) out.push(`${prefix}${i}`);
  return out;
}

function phi(a: number, b: number, c: number, d: number): number | null {
  // a: did & retained, b: did & not, c: did not & retained, d: did not & not.
  const margins = [a + b, c + d, a + c, b + d];
  if (margins.some((m) => m === 0)) return null;
  return (a * d - b * c) / Math.sqrt(margins.reduce((x, y) => x * y, 1));
}

export function activationDriversOracle(events: OracleEvent[], links: Array<[string, string]>, q: ActivationDriversInput, tz: string, asOf: Date) {
  const actorOf = actorResolver(links);
  const today = localDateOf(asOf.getTime(), tz);
  const windows = [...new Set(q.behavior_windows_days ?? [1, 3, 7, 10, 14, 30].filter((w) => w <= q.outcome.from_day))].sort((a, b) => a - b);
  const longest = windows.at(-1)!;
  const matching = events.filter((e) => matchesAll(e, q.filters));
  const dayOf = (e: OracleEvent) => localDateOf(e.ts.getTime(), tz);
  const excluded = new Set([q.anchor_event, ...(q.excluded_events ?? [])]);
  const people: Array<{ actor: string; discovery: boolean; retained: boolean; counts: Map<string, number[]> }> = [];
  let anchored = 0;
  for (const [actor, list] of groupBy(matching, (e) => actorOf(e.distinct_id))) {
    const anchors = list.filter((e) => e.event === q.anchor_event && dayOf(e) >= q.date_from && dayOf(e) <= q.date_to).sort((a, b) => a.ts.getTime() - b.ts.getTime());
    if (anchors.length === 0) continue;
    anchored += 1;
    const at = anchors[0]!.ts.getTime();
    const day = dayOf(anchors[0]!);
    if (addDays(day, q.outcome.to_day) > today) continue; // the outcome window is still open
    const retained = list.some((e) => e.event === q.outcome.event && dayOf(e) >= addDays(day, q.outcome.from_day) && dayOf(e) < addDays(day, q.outcome.to_day));
    const counts = new Map<string, number[]>();
    for (const e of list) {
      if (excluded.has(e.event) || ((q.exclude_managed_events ?? true) && e.event.startsWith('pp.'))) continue;
      if (e.ts.getTime() < at || dayOf(e) >= addDays(day, longest)) continue;
      const c = counts.get(e.event) ?? windows.map(() => 0);
      windows.forEach((w, i) => {
        if (dayOf(e) < addDays(day, w)) c[i]! += 1;
      });
      counts.set(e.event, c);
    }
    people.push({ actor, discovery: discoveryOf(actor), retained, counts });
  }
  const byEvent = new Map<string, number>();
  for (const p of people) for (const event of p.counts.keys()) byEvent.set(event, (byEvent.get(event) ?? 0) + 1);
  const candidates = [...byEvent]
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .slice(0, q.candidate_limit ?? 50)
    .map(([e]) => e);
  const table = (group: typeof people, event: string, i: number, k: number) => {
    let a = 0,
      b = 0,
      c = 0,
      d = 0;
    for (const p of group) {
      const did = (p.counts.get(event)?.[i] ?? 0) >= k;
      if (did && p.retained) a++;
      else if (did) b++;
      else if (p.retained) c++;
      else d++;
    }
    return { a, b, c, d };
  };
  const discovery = people.filter((p) => p.discovery);
  const validation = people.filter((p) => !p.discovery);
  const drivers = [];
  for (const event of candidates) {
    let best: { i: number; k: number; phi: number; support: number } | undefined;
    windows.forEach((_, i) => {
      for (const k of THRESHOLDS) {
        const t = table(discovery, event, i, k);
        const value = phi(t.a, t.b, t.c, t.d);
        const support = t.a + t.b;
        if (value === null || support < 5 || discovery.length - support < 5) continue;
        if (!best || value > best.phi) best = { i, k, phi: value, support };
      }
    });
    if (!best) continue;
    const v = table(validation, event, best.i, best.k);
    const value = phi(v.a, v.b, v.c, v.d);
    const n = validation.length;
    let low: number | null = null;
    let high: number | null = null;
    if (value !== null && n >= 4) {
      const r = Math.max(-0.999999999999, Math.min(0.999999999999, value));
      const z = 0.5 * Math.log((1 + r) / (1 - r));
      const se = 1 / Math.sqrt(n - 3);
      low = Math.tanh(z - 1.959963984540054 * se);
      high = Math.tanh(z + 1.959963984540054 * se);
    }
    const retainedAll = validation.filter((p) => p.retained).length;
    const above = v.a + v.b === 0 ? null : v.a / (v.a + v.b);
    const overall = n === 0 ? null : retainedAll / n;
    const size = Math.abs(value ?? 0);
    drivers.push({
      event,
      window_days: windows[best.i]!,
      threshold: best.k,
      discovery: { phi: best.phi, actors: discovery.length, support: best.support },
      validation: {
        phi: value,
        phi_low: low,
        phi_high: high,
        actors: n,
        support: v.a + v.b,
        retention_above: above,
        retention_below: v.c + v.d === 0 ? null : v.c / (v.c + v.d),
        lift: above === null || !overall ? null : above / overall,
        ppv: above,
        tpr: retainedAll === 0 ? null : v.a / retainedAll,
      },
      validated: low !== null && high !== null && (low > 0 || high < 0),
      band: size >= 0.4 ? 'highly predictive' : size >= 0.3 ? 'moderately predictive' : size >= 0.2 ? 'slightly predictive' : 'not predictive',
      direction: value === null || value === 0 ? 'none' : value > 0 ? 'positive' : 'negative',
    });
  }
  drivers.sort((x, y) => {
    if (x.validation.phi !== y.validation.phi) {
      if (x.validation.phi === null) return 1;
      if (y.validation.phi === null) return -1;
      return y.validation.phi - x.validation.phi;
    }
    return compareText(x.event, y.event);
  });
  const eligible = people.length;
  const retained = people.filter((p) => p.retained).length;
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    anchor_event: q.anchor_event,
    as_of: asOf.toISOString(),
    windows_days: windows,
    anchored,
    eligible,
    immature: anchored - eligible,
    retained,
    retention_rate: eligible === 0 ? null : retained / eligible,
    split: { discovery_actors: discovery.length, validation_actors: validation.length },
    drivers,
  };
}
