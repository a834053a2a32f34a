// Reference lifecycle: which (actor, bucket) pairs are active, each actor's first bucket ever, and
// a comparison of every reported bucket with the one before it.

import { actorResolver, addDays, bucketList, bucketOf, localDateOf, matchesAll, type Filter, type OracleEvent } from './common.js';

export interface LifecycleInput {
  date_from: string;
  date_to: string;
  interval?: 'day' | 'week';
  filters?: Filter[];
}

export function lifecycleOracle(events: OracleEvent[], links: Array<[string, string]>, q: LifecycleInput, tz: string) {
  const actorOf = actorResolver(links);
  const interval = q.interval ?? 'day';
  const step = interval === 'week' ? 7 : 1;
  const active = new Set<string>(); // `${actor}|${bucket}`
  const firstBucket = new Map<string, string>();
  const actors = new Set<string>();
  for (const e of events) {
    const day = localDateOf(e.ts.getTime(), tz);
    if (day > q.date_to || !matchesAll(e, q.filters)) continue;
    const actor = actorOf(e.distinct_id);
    const bucket = bucketOf(day, interval);
    actors.add(actor);
    active.add(`${actor}|${bucket}`);
    if (!firstBucket.has(actor) || bucket < firstBucket.get(actor)!) firstBucket.set(actor, bucket);
  }
  const buckets = bucketList(q.date_from, q.date_to, interval).map((bucket) => {
    const prev = addDays(bucket, -step);
    let fresh = 0;
    let returning = 0;
    let resurrecting = 0;
    let dormant = 0;
    for (const actor of actors) {
      const now = active.has(`${actor}|${bucket}`);
      const before = active.has(`${actor}|${prev}`);
      if (now && firstBucket.get(actor) === bucket) fresh++;
      else if (now && before) returning++;
      else if (now) resurrecting++;
      else if (before) dormant++;
    }
    return { bucket, new: fresh, returning, resurrecting, dormant: dormant === 0 ? 0 : -dormant };
  });
  return { date_from: q.date_from, date_to: q.date_to, interval, buckets };
}
