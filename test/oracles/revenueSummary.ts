// Reference revenue summary: per-actor totals over the matching events in the range.

import { actorResolver, localDateOf, matchesAll, sum, type Filter, type OracleEvent } from './common.js';

export function revenueSummaryOracle(events: OracleEvent[], links: Array<[string, string]>, q: { date_from: string; date_to: string; filters?: Filter[] }, tz: string) {
  const actorOf = actorResolver(links);
  const totals = new Map<string, number>();
  const amounts: number[] = [];
  for (const e of events) {
    const d = localDateOf(e.ts.getTime(), tz);
    if (d < q.date_from || d > q.date_to || !matchesAll(e, q.filters)) continue;
    const actor = actorOf(e.distinct_id);
    totals.set(actor, (totals.get(actor) ?? 0) + (e.revenue ?? 0));
    if (e.revenue !== null) amounts.push(e.revenue);
  }
  const revenue = sum(amounts);
  const paying = [...totals.values()].filter((t) => t > 0);
  const refunds = amounts.filter((a) => a < 0);
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    revenue,
    paying_actors: paying.length,
    active_actors: totals.size,
    arpu: totals.size === 0 ? null : revenue / totals.size,
    arppu: paying.length === 0 ? null : sum(paying) / paying.length,
    refunds: refunds.length === 0 ? 0 : sum(refunds),
    refund_count: refunds.length,
  };
}
