// Reference retention and retention actors: cohorts from each actor's first start event in the
// range, then per period the members who returned, their cumulative revenue, or who has paid.

import { actorResolver, addDays, bucketList, bucketOf, compareText, isEvent, localDateOf, matchesAll, sum, type Filter, type OracleEvent } from './common.js';

export interface RetentionInput {
  start_event: string;
  return_event?: string;
  granularity?: 'day' | 'week';
  periods?: number;
  date_from: string;
  date_to: string;
  filters?: Filter[];
  value?: 'actors' | 'revenue' | 'paid_conversion';
}

function periodStart(cohort: string, g: string, p: number): string {
  return addDays(cohort, p * (g === 'week' ? 7 : 1));
}

function periodOf(cohort: string, bucket: string, g: string): number {
  const days = Math.round((Date.parse(bucket) - Date.parse(cohort)) / 86_400_000);
  return g === 'week' ? days / 7 : days;
}

interface Prepared {
  g: string;
  periods: number;
  cohortOf: Map<string, string>;
  returns: Map<string, Set<number>>;
  actorOf: (d: string) => string;
}

function prepare(events: OracleEvent[], links: Array<[string, string]>, q: RetentionInput, tz: string): Prepared {
  const g = q.granularity ?? 'day';
  const actorOf = actorResolver(links);
  const dayOf = (e: OracleEvent) => localDateOf(e.ts.getTime(), tz);
  const cohortOf = new Map<string, string>();
  for (const e of events) {
    const d = dayOf(e);
    if (!isEvent(e, q.start_event) || !matchesAll(e, q.filters) || d < q.date_from || d > q.date_to) continue;
    const actor = actorOf(e.distinct_id);
    const b = bucketOf(d, g);
    if (!cohortOf.has(actor) || b < cohortOf.get(actor)!) cohortOf.set(actor, b);
  }
  const returns = new Map<string, Set<number>>();
  for (const e of events) {
    const actor = actorOf(e.distinct_id);
    const cohort = cohortOf.get(actor);
    if (!cohort || !isEvent(e, q.return_event ?? 'any') || !matchesAll(e, q.filters)) continue;
    const p = periodOf(cohort, bucketOf(dayOf(e), g), g);
    if (p >= 1) (returns.get(actor) ?? returns.set(actor, new Set()).get(actor)!).add(p);
  }
  return { g, periods: q.periods ?? 7, cohortOf, returns, actorOf };
}

export function retentionOracle(events: OracleEvent[], links: Array<[string, string]>, q: RetentionInput, tz: string, today: string) {
  const { g, periods, cohortOf, returns, actorOf } = prepare(events, links, q, tz);
  const value = q.value ?? 'actors';
  const cohorts = bucketList(q.date_from, q.date_to, g).map((cohort) => {
    const members = [...cohortOf].filter(([, c]) => c === cohort).map(([a]) => a);
    const size = members.length;
    const started = (p: number) => periodStart(cohort, g, p) <= today;
    const ps = Array.from({ length: periods + 1 }, (_, p) => p);
    if (value === 'actors') {
      const counts = ps.map((p) => (!started(p) ? null : p === 0 ? size : members.filter((a) => returns.get(a)?.has(p)).length));
      return { cohort, size, values: counts.map((c) => (c === null || size === 0 ? null : c / size)), counts };
    }
    // Revenue of members from the start of the cohort bucket to the end of period p (any event).
    const revenueEvents = events.filter((e) => e.revenue !== null && members.includes(actorOf(e.distinct_id)));
    const values = ps.map((p) => {
      if (!started(p) || size === 0) return null;
      const end = periodStart(cohort, g, p + 1);
      const inSpan = revenueEvents.filter((e) => {
        const d = localDateOf(e.ts.getTime(), tz);
        return d >= cohort && d < end;
      });
      if (value === 'revenue') return sum(inSpan.map((e) => e.revenue!)) / size;
      const payers = new Set(inSpan.filter((e) => e.revenue! > 0).map((e) => actorOf(e.distinct_id)));
      return payers.size / size;
    });
    return { cohort, size, values };
  });
  return { date_from: q.date_from, date_to: q.date_to, cohorts };
}

export function retentionActorsOracle(events: OracleEvent[], links: Array<[string, string]>, q: RetentionInput & { cohort: string; period: number }, tz: string): string[] {
  const { cohortOf, returns } = prepare(events, links, q, tz);
  return [...cohortOf]
    .filter(([actor, c]) => c === q.cohort && (q.period === 0 || returns.get(actor)?.has(q.period)))
    .map(([actor]) => actor)
    .sort(compareText);
}
