// Reference stickiness: distinct local days per actor among matching events, then a histogram.

import { actorResolver, daysInRange, isEvent, localDateOf, matchesAll, type Filter, type OracleEvent } from './common.js';

export interface StickinessInput {
  date_from: string;
  date_to: string;
  event?: string;
  filters?: Filter[];
}

export function stickinessOracle(events: OracleEvent[], links: Array<[string, string]>, q: StickinessInput, tz: string) {
  const actorOf = actorResolver(links);
  const days = new Map<string, Set<string>>();
  for (const e of events) {
    const d = localDateOf(e.ts.getTime(), tz);
    if (d < q.date_from || d > q.date_to || !isEvent(e, q.event ?? 'any') || !matchesAll(e, q.filters)) continue;
    const actor = actorOf(e.distinct_id);
    (days.get(actor) ?? days.set(actor, new Set()).get(actor)!).add(d);
  }
  const distribution = Array.from({ length: daysInRange(q.date_from, q.date_to) }, (_, i) => ({
    days: i + 1,
    actors: [...days.values()].filter((s) => s.size === i + 1).length,
  }));
  return { date_from: q.date_from, date_to: q.date_to, event: q.event ?? 'any', distribution };
}
