// Activation drivers: turns the rows into the answer. Pure.

import { compareText, num } from '../../engine/sql.js';
import type { Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import type { DateRange } from '../ranges.js';
import { phi, phiInterval, ratio, type Table } from '../stats.js';
import { THRESHOLDS, MIN_SUPPORT, DISCOVERY_PERCENT, DRIVERS_WARNING, windowsOf, type ActivationOutcome, type ActivationDriversParams } from './types.js';

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
