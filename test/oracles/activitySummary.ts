// Reference activity summary: the set of active local days per actor over the 30 days ending at
// date_to, from which DAU, WAU, MAU and the ratios follow.

import { actorResolver, addDays, isEvent, localDateOf, type OracleEvent } from './common.js';

export function activitySummaryOracle(events: OracleEvent[], links: Array<[string, string]>, q: { date_to: string; event?: string }, tz: string) {
  const actorOf = actorResolver(links);
  const monthStart = addDays(q.date_to, -29);
  const weekStart = addDays(q.date_to, -6);
  const days = new Map<string, Set<string>>();
  for (const e of events) {
    const d = localDateOf(e.ts.getTime(), tz);
    if (d < monthStart || d > q.date_to || !isEvent(e, q.event ?? 'any')) continue;
    const actor = actorOf(e.distinct_id);
    (days.get(actor) ?? days.set(actor, new Set()).get(actor)!).add(d);
  }
  const sets = [...days.values()];
  const mau = sets.length;
  const dau = sets.filter((s) => s.has(q.date_to)).length;
  const wau = sets.filter((s) => [...s].some((d) => d >= weekStart)).length;
  const activeDays = sets.reduce((n, s) => n + s.size, 0);
  return {
    date_to: q.date_to,
    event: q.event ?? 'any',
    dau,
    wau,
    mau,
    dau_mau: mau === 0 ? null : dau / mau,
    usage_frequency: mau === 0 ? null : activeDays / mau,
    repeat_activity: mau === 0 ? null : sets.filter((s) => s.size >= 2).length / mau,
  };
}
