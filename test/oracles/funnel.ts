// Reference funnel: for every step-1 event in the range, walk the actor's events in funnel order
// (time, then step order for simultaneous events) and take the first event matching each next step
// within the window; then count actors (best attempt)
// or attempts, per breakdown segment.

import { actorResolver, compareText, daysInRange, fieldValue, groupBy, isEvent, localDateOf, matchesAll, median, rankValues, sum, type Filter, type OracleEvent } from './common.js';

export interface FunnelInput {
  date_from: string;
  date_to: string;
  window_hours?: number;
  steps: Array<{ event: string; filters?: Filter[]; label?: string }>;
  breakdown?: { property: string; limit?: number };
  count_by?: 'actors' | 'totals';
  value?: 'actors' | 'revenue';
  dropped_at_step?: number;
}

interface Unit {
  actor: string;
  level: number;
  times: number[];
  breakdownValue: string | null;
  /** The step-1 event's position in the actor's funnel order. */
  startRank: number;
}

/**
 * An actor's events in time order; simultaneous ones by the first step they match, then by which
 * steps they match (matching fewer first), then by breakdown value (none last), then by uuid.
 */
function inFunnelOrder(list: OracleEvent[], q: FunnelInput, matches: (e: OracleEvent, i: number) => boolean): OracleEvent[] {
  const signature = (e: OracleEvent) => q.steps.map((_, i) => matches(e, i));
  const firstStep = (e: OracleEvent) => {
    const i = signature(e).indexOf(true);
    return i < 0 ? q.steps.length : i;
  };
  const value = (e: OracleEvent) => (q.breakdown ? fieldValue(e, q.breakdown.property) : null);
  const byValue = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : compareText(a, b));
  const bySignature = (a: boolean[], b: boolean[]) => {
    const i = a.findIndex((x, k) => x !== b[k]);
    return i < 0 ? 0 : a[i] ? 1 : -1;
  };
  return [...list].sort(
    (a, b) => a.ts.getTime() - b.ts.getTime() || firstStep(a) - firstStep(b) || bySignature(signature(a), signature(b)) || byValue(value(a), value(b)) || compareText(a.uuid, b.uuid),
  );
}

function attempts(events: OracleEvent[], actorOf: (d: string) => string, q: FunnelInput, tz: string): Unit[] {
  const windowMs = (q.window_hours ?? 336) * 3_600_000;
  const matches = (e: OracleEvent, i: number) => isEvent(e, q.steps[i]!.event) && matchesAll(e, q.steps[i]!.filters);
  const out: Unit[] = [];
  for (const [actor, list] of groupBy(events, (e) => actorOf(e.distinct_id))) {
    const ordered = inFunnelOrder(list, q, matches);
    ordered.forEach((first, start) => {
      const day = localDateOf(first.ts.getTime(), tz);
      if (!matches(first, 0) || day < q.date_from || day > q.date_to) return;
      const times = [first.ts.getTime()];
      let pos = start;
      for (let step = 1; step < q.steps.length; step++) {
        let found = -1;
        for (let j = pos + 1; j < ordered.length; j++) {
          if (ordered[j]!.ts.getTime() - times[0]! > windowMs) break;
          if (matches(ordered[j]!, step)) {
            found = j;
            break;
          }
        }
        if (found < 0) break;
        times.push(ordered[found]!.ts.getTime());
        pos = found;
      }
      out.push({
        actor,
        level: times.length,
        times,
        breakdownValue: q.breakdown ? fieldValue(first, q.breakdown.property) : null,
        startRank: start,
      });
    });
  }
  return out;
}

/** Per actor, the attempt reaching furthest; among those, the earliest. */
function bestAttempts(all: Unit[]): Unit[] {
  const best = new Map<string, Unit>();
  for (const u of all) {
    const b = best.get(u.actor);
    const earlier = b && u.startRank < b.startRank;
    if (!b || u.level > b.level || (u.level === b.level && earlier)) best.set(u.actor, u);
  }
  return [...best.values()];
}

function stepsOf(q: FunnelInput, units: Unit[]) {
  const counts = q.steps.map((_, i) => units.filter((u) => u.level > i).length);
  return q.steps.map((s, i) => {
    const gaps = units.filter((u) => u.level > i && i > 0).map((u) => u.times[i]! - u.times[i - 1]!);
    const m = median(gaps);
    return {
      event: s.event,
      label: s.label ?? s.event,
      count: counts[i]!,
      conversion_rate: counts[0] === 0 ? null : counts[i]! / counts[0]!,
      step_conversion_rate: i === 0 ? (counts[0] === 0 ? null : 1) : counts[i - 1] === 0 ? null : counts[i]! / counts[i - 1]!,
      median_seconds_from_previous: i === 0 || m === null ? null : m / 1000,
      mean_seconds_from_previous: i === 0 || gaps.length === 0 ? null : sum(gaps) / gaps.length / 1000,
    };
  });
}

export function funnelOracle(events: OracleEvent[], links: Array<[string, string]>, q: FunnelInput, tz: string) {
  const actorOf = actorResolver(links);
  const all = attempts(events, actorOf, q, tz);
  const units = (q.count_by ?? 'actors') === 'actors' ? bestAttempts(all) : all;
  const result: Record<string, unknown> = { date_from: q.date_from, date_to: q.date_to, steps: stepsOf(q, units) };

  if (q.breakdown) {
    const limit = q.breakdown.limit ?? 25;
    const byValue = groupBy(units, (u) => JSON.stringify(u.breakdownValue));
    const scores = new Map<string | null, number>([...byValue].map(([k, list]) => [JSON.parse(k) as string | null, list.length]));
    const ranked = rankValues(scores);
    const top = ranked.slice(0, limit);
    const segments = top.map((value) => ({
      name: value === null ? '$none' : value,
      value,
      steps: stepsOf(
        q,
        units.filter((u) => u.breakdownValue === value),
      ),
    }));
    if (ranked.length > limit) {
      segments.push({
        name: '$other',
        value: null,
        steps: stepsOf(
          q,
          units.filter((u) => !top.includes(u.breakdownValue)),
        ),
      });
    }
    result.breakdown = segments;
  }

  if (q.value === 'revenue') {
    const converters = new Set(units.filter((u) => u.level === q.steps.length).map((u) => u.actor));
    const revenue = sum(
      events
        .filter((e) => e.revenue !== null && converters.has(actorOf(e.distinct_id)))
        .filter((e) => {
          const d = localDateOf(e.ts.getTime(), tz);
          return d >= q.date_from && d <= q.date_to;
        })
        .map((e) => e.revenue!),
    );
    const perActor = converters.size === 0 ? null : revenue / converters.size;
    const steps = result.steps as Array<{ count: number }>;
    result.revenue = {
      converting_actors: converters.size,
      revenue_per_converting_actor: perActor,
      transitions: q.steps.slice(1).map((_, i) => {
        const dropped = steps[i]!.count - steps[i + 1]!.count;
        return {
          from_step: i + 1,
          to_step: i + 2,
          dropped,
          estimated_monthly_loss: perActor === null ? null : (dropped * perActor * 30) / daysInRange(q.date_from, q.date_to),
        };
      }),
    };
  }
  return result;
}

/** Every actor whose best level is exactly `step`, in actor id order. */
export function funnelDroppedOracle(events: OracleEvent[], links: Array<[string, string]>, q: FunnelInput, tz: string, step: number): string[] {
  const units = bestAttempts(attempts(events, actorResolver(links), q, tz));
  return units
    .filter((u) => u.level === step)
    .map((u) => u.actor)
    .sort(compareText);
}
