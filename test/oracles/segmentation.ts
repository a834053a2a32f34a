// Reference segmentation: every matching event in the range lands in its local bucket; the metric
// is computed per bucket and group value, with values past the limit folded into `$other`.

import { actorResolver, bucketList, bucketOf, fieldValue, isEvent, localDateOf, localHour, matchesAll, rankValues, sum, type Filter, type OracleEvent } from './common.js';

export interface SegmentationInput {
  metric: 'events' | 'uniques' | 'revenue' | 'revenue_avg';
  event: string;
  filters?: Filter[];
  group_by?: { property: string; limit?: number };
  interval?: 'hour' | 'day' | 'week' | 'month';
  date_from: string;
  date_to: string;
}

function metricOf(metric: SegmentationInput['metric'], events: OracleEvent[], actorOf: (d: string) => string): number | null {
  const revenues = events.filter((e) => e.revenue !== null).map((e) => e.revenue!);
  switch (metric) {
    case 'events':
      return events.length;
    case 'uniques':
      return new Set(events.map((e) => actorOf(e.distinct_id))).size;
    case 'revenue':
      return sum(revenues);
    case 'revenue_avg':
      return revenues.length === 0 ? null : sum(revenues) / revenues.length;
  }
}

/** Every hour of the range as [start instant, label], found by walking minutes across the days. */
function hourList(from: string, to: string, tz: string): Array<{ start: number; label: string }> {
  const seen = new Map<number, string>();
  const begin = Date.parse(`${from}T00:00:00Z`) - 86_400_000;
  const end = Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000;
  for (let ms = begin; ms < end; ms += 10 * 60_000) {
    const d = localDateOf(ms, tz);
    if (d < from || d > to) continue;
    const h = localHour(ms, tz);
    seen.set(h.start, h.label);
  }
  return [...seen].sort((a, b) => a[0] - b[0]).map(([start, label]) => ({ start, label }));
}

export function segmentationOracle(events: OracleEvent[], links: Array<[string, string]>, q: SegmentationInput, tz: string) {
  const actorOf = actorResolver(links);
  const interval = q.interval ?? 'day';
  const matching = events.filter((e) => {
    const d = localDateOf(e.ts.getTime(), tz);
    return d >= q.date_from && d <= q.date_to && isEvent(e, q.event) && matchesAll(e, q.filters);
  });
  const buckets = interval === 'hour' ? hourList(q.date_from, q.date_to, tz) : bucketList(q.date_from, q.date_to, interval).map((b) => ({ start: 0, label: b }));
  const bucketLabel = (e: OracleEvent) => (interval === 'hour' ? localHour(e.ts.getTime(), tz).label : bucketOf(localDateOf(e.ts.getTime(), tz), interval));
  const empty = q.metric === 'revenue_avg' ? null : 0;
  const seriesOf = (name: string, value: string | null, list: OracleEvent[]) => ({
    name,
    value,
    points: buckets.map((b) => {
      const inBucket = list.filter((e) => bucketLabel(e) === b.label);
      return { bucket: b.label, value: inBucket.length === 0 ? empty : metricOf(q.metric, inBucket, actorOf) };
    }),
  });
  if (!q.group_by) return { date_from: q.date_from, date_to: q.date_to, series: [seriesOf('total', null, matching)] };

  const valueOf = (e: OracleEvent) => fieldValue(e, q.group_by!.property);
  const values = [...new Set(matching.map(valueOf))];
  const scores = new Map<string | null, number | null>(
    values.map((v) => {
      const m = metricOf(
        q.metric,
        matching.filter((e) => valueOf(e) === v),
        actorOf,
      );
      return [v, q.metric === 'revenue' ? (m ?? 0) : m];
    }),
  );
  const ranked = rankValues(scores);
  const limit = q.group_by.limit ?? 10;
  const top = ranked.slice(0, limit);
  const series = top.map((v) =>
    seriesOf(
      v === null ? '$none' : v,
      v,
      matching.filter((e) => valueOf(e) === v),
    ),
  );
  if (ranked.length > limit)
    series.push(
      seriesOf(
        '$other',
        null,
        matching.filter((e) => !top.includes(valueOf(e))),
      ),
    );
  return { date_from: q.date_from, date_to: q.date_to, series };
}
