// Activation drivers: which early behaviors ("did X at least k times within w days of the anchor")
// go with being retained later. Actors whose outcome window has not closed are left out, not
// counted as lost. A hash of the actor id splits actors into discovery (70%), where each
// candidate's best window and threshold are chosen, and validation (30%), where that one choice is
// judged once: a driver found and judged on the same actors looks stronger than it is.

import { ValidationError } from '../http/errors.js';
import type { EventStore, Row } from '../store/eventStore.js';
import { today, type QueryContext } from './context.js';
import { addDays } from '../engine/dates.js';
import { checkFilters, type FilterItem } from '../engine/filters.js';
import { checkRange, effectiveRange, type DateRange } from './ranges.js';
import { phi, phiInterval, ratio, type Table } from './stats.js';
import { filtersCondition, managedEvent } from '../engine/conditions.js';
import { scanEvents } from '../engine/eventScan.js';
import { ACTOR } from '../engine/identity.js';
import { Binder, compareText, dateValue, num, type BuiltSql } from '../engine/sql.js';

export interface ActivationOutcome {
  event: string;
  from_day: number;
  to_day: number;
}

export interface ActivationDriversParams {
  date_from: string;
  date_to: string;
  anchor_event: string;
  behavior_windows_days?: number[];
  outcome: ActivationOutcome;
  filters?: FilterItem[];
  exclude_managed_events: boolean;
  excluded_events?: string[];
  candidate_limit: number;
}

export const DEFAULT_WINDOWS = [1, 3, 7, 10, 14, 30];
/** Thresholds tried: did the event at least k times, k = 1…10. */
export const THRESHOLDS = Array.from({ length: 10 }, (_, i) => i + 1);
/** A (window, threshold) is chosen only if at least this many discovery actors are on each side. */
export const MIN_SUPPORT = 5;
/** Actors whose id hashes below this (of 100) are in discovery, the others in validation. */
export const DISCOVERY_PERCENT = 70;

export const DRIVERS_WARNING =
  'These are associations, not causes: people who did this early were retained more (or less) often, which does not mean doing it made them stay. Test a change before acting on it.';

export function windowsOf(p: Pick<ActivationDriversParams, 'behavior_windows_days' | 'outcome'>): number[] {
  const given = p.behavior_windows_days ?? DEFAULT_WINDOWS.filter((w) => w <= p.outcome.from_day);
  return [...new Set(given)].sort((a, b) => a - b);
}

export function validateActivationDrivers(p: ActivationDriversParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  if (p.outcome.to_day <= p.outcome.from_day) {
    throw new ValidationError(`outcome.to_day ${p.outcome.to_day} must be after outcome.from_day ${p.outcome.from_day}`, 'outcome.to_day');
  }
  (p.behavior_windows_days ?? []).forEach((w, i) => {
    if (w > p.outcome.from_day) {
      throw new ValidationError(
        `behavior_windows_days[${i}] (${w} days) overlaps the outcome window, which starts on day ${p.outcome.from_day}: every behavior window must end before it`,
        `behavior_windows_days[${i}]`,
      );
    }
  });
  if (windowsOf(p).length === 0) {
    throw new ValidationError(`no behavior window ends before outcome.from_day ${p.outcome.from_day}: give behavior_windows_days or a later from_day`, 'outcome.from_day');
  }
}

// --- SQL -------------------------------------------------------------------------------------

/** The CTEs ending in `pop`: eligible anchored actors (actor, anchored_at, aday, discovery, retained). */
function populationCtes(b: Binder, p: ActivationDriversParams, range: DateRange, ctx: QueryContext): string {
  const filters = filtersCondition(b, p.filters, ctx.segments);
  const base = { projectId: ctx.projectId, timezone: ctx.timezone };
  const anchorScan = scanEvents(b, (local) => ({ actor: ACTOR, t: 'epoch_ms(e.ts)', day: local.day }), {
    ...base, from: range.date_from, to: range.date_to, where: [`e.event = ${b.bind(p.anchor_event)}`, filters],
  });
  const outcomeScan = scanEvents(b, (local) => ({ actor: ACTOR, day: local.day }), {
    ...base, from: addDays(range.date_from, p.outcome.from_day), to: addDays(range.date_to, p.outcome.to_day - 1), where: [`e.event = ${b.bind(p.outcome.event)}`, filters],
  });
  const from = b.bind(p.outcome.from_day);
  const to = b.bind(p.outcome.to_day);
  return `anchors AS (SELECT actor, min(t) AS anchored_at, arg_min(day, t) AS aday FROM (${anchorScan}) GROUP BY actor),
elig AS (SELECT actor, anchored_at, aday, actor % 100 < ${b.bind(DISCOVERY_PERCENT)} AS discovery FROM anchors WHERE aday + ${to} <= ${dateValue(b, today(ctx))}),
ret AS (SELECT DISTINCT o.actor FROM (${outcomeScan}) o JOIN elig e USING (actor) WHERE o.day >= e.aday + ${from} AND o.day < e.aday + ${to}),
pop AS (SELECT e.*, r.actor IS NOT NULL AS retained FROM elig e LEFT JOIN ret r USING (actor))`;
}

export function activationDriversSql(p: ActivationDriversParams, range: DateRange, ctx: QueryContext): { totals: BuiltSql; counts: BuiltSql } {
  const windows = windowsOf(p);
  const t = new Binder();
  const totals = {
    sql: `WITH ${populationCtes(t, p, range, ctx)}
SELECT (SELECT count(*) FROM anchors) AS anchored, discovery, retained, count(*) AS n FROM pop GROUP BY discovery, retained
UNION ALL SELECT (SELECT count(*) FROM anchors), NULL, NULL, 0`,
    params: t.values,
  };
  const b = new Binder();
  const longest = windows.at(-1)!;
  const excluded = [p.anchor_event, ...(p.excluded_events ?? [])].map((x) => b.bind(x)).join(', ');
  const where = [`e.event NOT IN (${excluded})`, filtersCondition(b, p.filters, ctx.segments), ...(p.exclude_managed_events ? [`NOT ${managedEvent()}`] : [])];
  const behaviorScan = scanEvents(b, (local) => ({ actor: ACTOR, t: 'epoch_ms(e.ts)', day: local.day, event: 'e.event' }), {
    projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: addDays(range.date_to, longest - 1), where,
  });
  const perWindow = windows.map((w, i) => `count(*) FILTER (WHERE x.day < p.aday + ${b.bind(w)}) AS c${i}`).join(', ');
  const tallies = windows.flatMap((_, i) => THRESHOLDS.map((k) => `count(*) FILTER (WHERE c.c${i} >= ${k}) AS n${i}_${k}`)).join(', ');
  const counts = {
    sql: `WITH ${populationCtes(b, p, range, ctx)},
did AS (SELECT x.actor, x.event, ${perWindow} FROM (${behaviorScan}) x JOIN pop p USING (actor)
  WHERE x.t >= p.anchored_at AND x.day < p.aday + ${b.bind(longest)} GROUP BY x.actor, x.event),
cand AS (SELECT event FROM did GROUP BY event ORDER BY count(*) DESC, event LIMIT ${b.bind(p.candidate_limit)})
SELECT c.event, p.discovery, p.retained, ${tallies} FROM did c JOIN cand USING (event) JOIN pop p USING (actor) GROUP BY c.event, p.discovery, p.retained`,
    params: b.values,
  };
  return { totals, counts };
}

export async function runActivationDrivers(store: EventStore, p: ActivationDriversParams, ctx: QueryContext): Promise<{ range: DateRange; totals: Row[]; counts: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = activationDriversSql(p, range, ctx);
  const read = (x: BuiltSql) => store.read(x.sql, x.params, { timeoutMs: ctx.timeoutMs });
  const [totals, counts] = await Promise.all([read(q.totals), read(q.counts)]);
  return { range, totals, counts };
}

// --- statistics and shaping ------------------------------------------------------------------

/** Amplitude Compass's bands, by the size of phi. */
export function band(value: number | null): string {
  const size = Math.abs(value ?? 0);
  return size >= 0.4 ? 'highly predictive' : size >= 0.3 ? 'moderately predictive' : size >= 0.2 ? 'slightly predictive' : 'not predictive';
}

export interface Driver {
  event: string;
  window_days: number;
  threshold: number;
  discovery: { phi: number; actors: number; support: number };
  validation: {
    phi: number | null;
    phi_low: number | null;
    phi_high: number | null;
    actors: number;
    /** Validation actors who did it at least `threshold` times within the window. */
    support: number;
    retention_above: number | null;
    retention_below: number | null;
    lift: number | null;
    ppv: number | null;
    tpr: number | null;
  };
  validated: boolean;
  band: string;
  direction: 'positive' | 'negative' | 'none';
}

export interface ActivationDriversResponse extends DateRange {
  anchor_event: string;
  outcome: ActivationOutcome;
  as_of: string;
  windows_days: number[];
  thresholds: number[];
  anchored: number;
  eligible: number;
  immature: number;
  retained: number;
  retention_rate: number | null;
  split: { method: string; discovery_share: number; validation_share: number; discovery_actors: number; validation_actors: number };
  candidates_considered: number;
  warning: string;
  drivers: Driver[];
}

interface Group {
  n: number;
  retained: number;
}

export function shapeActivationDrivers(run: { range: DateRange; totals: Row[]; counts: Row[] }, p: ActivationDriversParams, ctx: QueryContext): ActivationDriversResponse {
  const windows = windowsOf(p);
  const anchored = num(run.totals[0]?.anchored);
  const groups: Record<'discovery' | 'validation', Group> = { discovery: { n: 0, retained: 0 }, validation: { n: 0, retained: 0 } };
  for (const r of run.totals) {
    if (r.discovery === null || r.discovery === undefined) continue;
    const g = groups[r.discovery ? 'discovery' : 'validation'];
    g.n += num(r.n);
    if (r.retained) g.retained += num(r.n);
  }
  // Per event and group: actors at or past each (window, threshold), split by retained.
  const tallies = new Map<string, Record<'discovery' | 'validation', { y1: Row | undefined; y0: Row | undefined }>>();
  for (const r of run.counts) {
    const event = String(r.event);
    const entry = tallies.get(event) ?? { discovery: { y1: undefined, y0: undefined }, validation: { y1: undefined, y0: undefined } };
    entry[r.discovery ? 'discovery' : 'validation'][r.retained ? 'y1' : 'y0'] = r;
    tallies.set(event, entry);
  }
  const tableOf = (g: Group, rows: { y1: Row | undefined; y0: Row | undefined }, i: number, k: number): Table => {
    const x1y1 = num(rows.y1?.[`n${i}_${k}`]);
    const x1y0 = num(rows.y0?.[`n${i}_${k}`]);
    return { x1y1, x1y0, x0y1: g.retained - x1y1, x0y0: g.n - g.retained - x1y0 };
  };
  const drivers: Driver[] = [];
  for (const [event, rows] of tallies) {
    let best: { i: number; k: number; phi: number; support: number } | undefined;
    windows.forEach((_, i) => {
      for (const k of THRESHOLDS) {
        const t = tableOf(groups.discovery, rows.discovery, i, k);
        const support = t.x1y1 + t.x1y0;
        const value = phi(t);
        if (value === null || support < MIN_SUPPORT || groups.discovery.n - support < MIN_SUPPORT) continue;
        // The largest phi; ties go to the shorter window, then the lower threshold.
        if (!best || value > best.phi) best = { i, k, phi: value, support };
      }
    });
    if (!best) continue;
    const v = tableOf(groups.validation, rows.validation, best.i, best.k);
    const value = phi(v);
    const support = v.x1y1 + v.x1y0;
    const interval = value === null ? null : phiInterval(value, groups.validation.n);
    const above = ratio(v.x1y1, support);
    const overall = ratio(groups.validation.retained, groups.validation.n);
    drivers.push({
      event,
      window_days: windows[best.i]!,
      threshold: best.k,
      discovery: { phi: best.phi, actors: groups.discovery.n, support: best.support },
      validation: {
        phi: value,
        phi_low: interval?.low ?? null,
        phi_high: interval?.high ?? null,
        actors: groups.validation.n,
        support,
        retention_above: above,
        retention_below: ratio(v.x0y1, v.x0y1 + v.x0y0),
        lift: above === null || overall === null || overall === 0 ? null : above / overall,
        ppv: above,
        tpr: ratio(v.x1y1, groups.validation.retained),
      },
      validated: interval !== null && (interval.low > 0 || interval.high < 0),
      band: band(value),
      direction: value === null || value === 0 ? 'none' : value > 0 ? 'positive' : 'negative',
    });
  }
  drivers.sort((a, b) => (b.validation.phi ?? -Infinity) - (a.validation.phi ?? -Infinity) || compareText(a.event, b.event));
  const eligible = groups.discovery.n + groups.validation.n;
  const retained = groups.discovery.retained + groups.validation.retained;
  return {
    ...run.range,
    anchor_event: p.anchor_event,
    outcome: p.outcome,
    as_of: ctx.now.toISOString(),
    windows_days: windows,
    thresholds: THRESHOLDS,
    anchored,
    eligible,
    immature: anchored - eligible,
    retained,
    retention_rate: ratio(retained, eligible),
    split: {
      method: `bytes 8 to 15 of the md5 of the actor id, read as a little-endian unsigned 64-bit integer, modulo 100: below ${DISCOVERY_PERCENT} discovery, the rest validation`,
      // Whole percents divided once, so the shares are the configured values (1 − 0.7 is 0.30000000000000004).
      discovery_share: DISCOVERY_PERCENT / 100,
      validation_share: (100 - DISCOVERY_PERCENT) / 100,
      discovery_actors: groups.discovery.n,
      validation_actors: groups.validation.n,
    },
    candidates_considered: tallies.size,
    warning: DRIVERS_WARNING,
    drivers,
  };
}
