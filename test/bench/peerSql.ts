// The ClickHouse side of the benchmark: the events table and, per case, SQL computing what pp's
// query computes (docs/queries.md), in the dialect of Debian's ClickHouse 18.16.

import { addDays, bucketStart } from '../../server/engine/dates.js';

export interface PeerScope {
  projectId: number;
  timezone: string;
}

/** A ClickHouse string literal. */
export function lit(s: string): string {
  return `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

const date = (d: string) => `toDate(${lit(d)})`;
const utc = (d: string) => `toDateTime(${lit(`${d} 00:00:00`)})`;

/**
 * Columns shared by the event table and the ingest table. 18.16 has no sub-second DateTime, so the
 * receipt time (the events list's order) is kept as epoch milliseconds.
 */
export const EVENT_TABLE_COLUMNS = `project_id UInt32, uuid UUID, ts DateTime, received_at UInt64, event String, distinct_id String, anonymous_id String,
  user_id String, session_id String, source String, sdk_name String, sdk_version String, key_id String, release String, url String, path String,
  referrer String, props String, revenue Nullable(Float64), elements String, invalid UInt8`;

/** PostHog's layout for its events table: by team, day, event and actor, partitioned by month (18.16 cannot hash a UUID, so the uuid is left out of the key). */
export const EVENT_TABLE_ENGINE = 'ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (project_id, toDate(ts), event, cityHash64(distinct_id))';

export interface ScanOptions {
  /** First local date (inclusive); omitted reads all history. */
  from?: string;
  /** Last local date (inclusive) — or, with `extraAfterSeconds`, only a UTC bound this long after it. */
  to: string;
  extraAfterSeconds?: number;
  where?: string[];
  /** Resolve each event's actor through identity_links (exposed as `actor`). */
  actors?: boolean;
  columns: string;
}

/**
 * The project's events in a local date range, with `day` (local date) and optionally `actor`:
 * the same bounds as pp's scan (a UTC pre-filter one day wider, then local dates).
 */
export function scan(s: PeerScope, o: ScanOptions): string {
  const tz = lit(s.timezone);
  const where = [`project_id = ${s.projectId}`];
  if (o.from !== undefined) where.push(`ts >= ${utc(addDays(o.from, -1))}`, `day >= ${date(o.from)}`);
  where.push(`ts < ${utc(addDays(o.to, 2))} + ${o.extraAfterSeconds ?? 0}`);
  if (o.extraAfterSeconds === undefined) where.push(`day <= ${date(o.to)}`);
  where.push(...(o.where ?? []));
  const inner = `SELECT ts, event, distinct_id, path, props, revenue, toDate(ts, ${tz}) AS day FROM events WHERE ${where.join(' AND ')}`;
  if (!o.actors) return `SELECT ${o.columns} FROM (${inner})`;
  return `SELECT ${o.columns} FROM (SELECT *, if(actor_id = '', distinct_id, actor_id) AS actor FROM (${inner})
    ANY LEFT JOIN (SELECT distinct_id, actor_id FROM identity_links WHERE project_id = ${s.projectId}) USING distinct_id)`;
}

const eventIs = (event: string) => (event === 'any' ? '1' : `event = ${lit(event)}`);

/** Actors by the furthest step reached by any attempt whose first step falls in the range. */
export function funnelSql(s: PeerScope, p: { from: string; to: string; steps: string[]; windowHours: number }): string {
  const window = p.windowHours * 3600;
  const conds = p.steps.map((e, i) => (i === 0 ? `event = ${lit(e)} AND day <= ${date(p.to)}` : `event = ${lit(e)}`));
  const rows = scan(s, { from: p.from, to: p.to, extraAfterSeconds: window, actors: true, columns: 'actor, ts, event, day', where: [`event IN (${p.steps.map(lit).join(', ')})`] });
  return `SELECT level, count() FROM (SELECT actor, windowFunnel(${window})(ts, ${conds.join(', ')}) AS level FROM (${rows}) GROUP BY actor)
    WHERE level > 0 GROUP BY level ORDER BY level`;
}

export interface CohortSpec {
  from: string;
  to: string;
  startEvent: string;
  returnEvent: string;
  /** Week cohorts (Monday buckets) only: the bench's case. */
  periods: number;
}

/** Cohorts (first start week in range) joined with the weeks each actor came back in. */
function cohortJoin(s: PeerScope, c: CohortSpec, kind: 'LEFT' | 'INNER'): string {
  const tz = lit(s.timezone);
  const firstReturn = addDays(mondayOf(c.from), 7);
  const horizon = addDays(mondayOf(c.to), 7 * (c.periods + 1) - 1);
  const starts = scan(s, { from: c.from, to: c.to, actors: true, columns: `actor, toMonday(ts, ${tz}) AS bucket`, where: [eventIs(c.startEvent)] });
  const rets = scan(s, { from: firstReturn, to: horizon, actors: true, columns: `DISTINCT actor, toMonday(ts, ${tz}) AS bucket`, where: [eventIs(c.returnEvent)] });
  return `SELECT actor, cohort, bucket, intDiv(toRelativeDayNum(bucket) - toRelativeDayNum(cohort), 7) AS period
    FROM (SELECT actor, min(bucket) AS cohort FROM (${starts}) GROUP BY actor) ALL ${kind} JOIN (${rets}) USING actor`;
}

export const mondayOf = (d: string): string => bucketStart(d, 'week');

/** Cohort sizes (period 0) and returning actors per later period, counted with uniqExact. */
export function retentionSql(s: PeerScope, c: CohortSpec): string {
  return `SELECT toString(cohort), p, uniqExact(actor) FROM (${cohortJoin(s, c, 'LEFT')})
    ARRAY JOIN [0, period] AS p WHERE p BETWEEN 0 AND ${c.periods} AND (p = 0 OR bucket > cohort) GROUP BY cohort, p ORDER BY cohort, p`;
}

export function retentionActorsSql(s: PeerScope, c: CohortSpec, cohort: string, period: number, limit: number): string {
  return `SELECT actor FROM (${cohortJoin(s, c, 'INNER')}) WHERE cohort = ${date(cohort)} AND period = ${period} ORDER BY actor LIMIT ${limit}`;
}

/** Distinct actors per local day. */
export function dailyUniquesSql(s: PeerScope, p: { from: string; to: string; event: string }): string {
  return `SELECT toString(day) AS b, uniqExact(actor) FROM (${scan(s, { ...p, actors: true, columns: 'actor, day', where: [eventIs(p.event)] })}) GROUP BY b ORDER BY b`;
}

/** Events per local day and value of a top-level JSON property ('' where absent). */
export function eventsByPropertySql(s: PeerScope, p: { from: string; to: string; event: string; property: string }): string {
  const g = `visitParamExtractString(props, ${lit(p.property)})`;
  return `SELECT g, toString(day) AS b, count() FROM (${scan(s, { ...p, columns: `${g} AS g, day`, where: [eventIs(p.event)] })}) GROUP BY g, b ORDER BY g, b`;
}

/**
 * New, returning, resurrecting and dormant actors per local day ("new" looks at all history). Each
 * active day of an actor yields a row for that day (kind 0) and a candidate dormant row for the
 * next day (kind 1). 18.16's lambdas cannot see other columns, hence ARRAY JOIN rather than arrayMap.
 */
export function lifecycleSql(s: PeerScope, p: { from: string; to: string }): string {
  const rows = scan(s, { to: p.to, actors: true, columns: 'actor, day' });
  const from = date(p.from);
  const to = date(p.to);
  return `SELECT toString(b) AS bucket, sum(n), sum(r), sum(rs), sum(dm) FROM (
      SELECT if(kind = 0, d, d + 1) AS b, toUInt8(kind = 0 AND d = first) AS n, toUInt8(kind = 0 AND has(days, d - 1)) AS r,
        toUInt8(kind = 0 AND NOT has(days, d - 1) AND first < d) AS rs, toUInt8(kind = 1) AS dm,
        (kind = 0 AND d >= ${from}) OR (kind = 1 AND d + 1 <= ${to} AND NOT has(days, d + 1)) AS keep
      FROM (
        SELECT first, days, d FROM (
          SELECT min(day) AS first, groupUniqArrayIf(day, day >= ${from} - 1) AS days FROM (${rows}) GROUP BY actor
        ) ARRAY JOIN days AS d
      ) ARRAY JOIN [0, 1] AS kind
    ) WHERE keep GROUP BY bucket ORDER BY bucket`;
}

/** Actors by the number of distinct local days they were active. */
export function stickinessSql(s: PeerScope, p: { from: string; to: string; event: string }): string {
  return `SELECT days, count() FROM (SELECT actor, uniqExact(day) AS days FROM (${scan(s, { ...p, actors: true, columns: 'actor, day', where: [eventIs(p.event)] })}) GROUP BY actor)
    GROUP BY days ORDER BY days`;
}

/** DAU, WAU, MAU (exact unions), active days and repeaters over the trailing 30 local days. */
export function activitySummarySql(s: PeerScope, p: { to: string; event: string }): string {
  const rows = scan(s, { from: addDays(p.to, -29), to: p.to, actors: true, columns: 'actor, day', where: [eventIs(p.event)] });
  return `SELECT countIf(on_last), countIf(in_week), count(), sum(days), countIf(days >= 2) FROM (
    SELECT actor, uniqExact(day) AS days, max(day = ${date(p.to)}) AS on_last, max(day >= ${date(addDays(p.to, -6))}) AS in_week FROM (${rows}) GROUP BY actor)`;
}

/** Signed revenue, active and paying actors, paying revenue, refunds over a range. */
export function revenueSummarySql(s: PeerScope, p: { from: string; to: string }): string {
  const rows = scan(s, { ...p, actors: true, columns: 'actor, ifNull(revenue, 0) AS r' });
  return `SELECT sum(total), count(), countIf(total > 0), sumIf(total, total > 0), sum(refunds), sum(refund_count) FROM (
    SELECT actor, sum(r) AS total, sumIf(r, r < 0) AS refunds, countIf(r < 0) AS refund_count FROM (${rows}) GROUP BY actor)`;
}

export interface PathsSpec {
  from: string;
  to: string;
  selected: string;
  depth: number;
  exclude: string[];
  rules: Array<{ pattern: string; alias: string }>;
  top: number;
}

/**
 * The top routes after a selected event, per actor: each actor's items (event names, page views as
 * cleaned paths) in time order, repeats collapsed, from the first selected item on. Bench data has
 * no simultaneous events of one person, so time alone orders them as pp does.
 */
export function pathsSql(s: PeerScope, p: PathsSpec): string {
  const trimmed = `if(replaceRegexpOne(path, '/+$', '') = '', '/', replaceRegexpOne(path, '/+$', ''))`;
  const cleaned = p.rules.reduce((x, r) => `replaceRegexpAll(${x}, ${lit(r.pattern)}, ${lit(r.alias)})`, trimmed);
  const item = `if(event = 'pp.page_view' AND path != '', ${cleaned}, event)`;
  const excluded = p.exclude.length > 0 ? [`event NOT IN (${p.exclude.map(lit).join(', ')})`, `NOT (event = 'pp.page_view' AND path != '' AND ${cleaned} IN (${p.exclude.map(lit).join(', ')}))`] : [];
  const rows = scan(s, { from: p.from, to: p.to, actors: true, columns: `actor, ts, ${item} AS item`, where: excluded });
  return `SELECT route, count() AS c FROM (
      SELECT arraySlice(items, indexOf(items, ${lit(p.selected)}), ${p.depth + 1}) AS route FROM (
        SELECT arrayFilter((x, prev) -> x != prev, sorted, arrayPushFront(arrayPopBack(sorted), '')) AS items FROM (
          SELECT arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((ts, item)))) AS sorted FROM (${rows}) GROUP BY actor))
      WHERE has(items, ${lit(p.selected)}))
    GROUP BY route ORDER BY c DESC, route LIMIT ${p.top}`;
}

/**
 * Correlations with a target event: per actor the first event and first conversion; converters
 * observed before converting, the others for the converters' exact median time to convert (the
 * mean of the middle two for an even count); per candidate, actors who did it and how many of them
 * converted; the top `limit` by conversion among those who did it (the order of lift), ties by name.
 */
export function correlationsSql(s: PeerScope, p: { from: string; to: string; target: string; minN: number; limit: number }): string {
  const rows = scan(s, { from: p.from, to: p.to, actors: true, columns: 'actor, toUInt32(ts) AS t, event' });
  const target = lit(p.target);
  const perActor = `SELECT actor, min(t) AS first, minIf(t, event = ${target}) AS converted_at, countIf(event = ${target}) > 0 AS converted FROM (${rows}) GROUP BY actor`;
  const span = `SELECT if(n % 2 = 1, toFloat64(sorted[intDiv(n, 2) + 1]), (sorted[intDiv(n, 2)] + sorted[intDiv(n, 2) + 1]) / 2) AS span
    FROM (SELECT arraySort(groupArray(converted_at - first)) AS sorted, length(sorted) AS n FROM (${perActor}) WHERE converted)`;
  const windows = `SELECT actor, converted, if(converted, toFloat64(converted_at), first + span) AS until FROM (${perActor}) CROSS JOIN (${span})`;
  return `SELECT event, count() AS did, sum(converted) AS conv FROM (
      SELECT DISTINCT actor, event, converted FROM (${rows}) ANY INNER JOIN (${windows}) USING actor
      WHERE t < until AND event != ${target} AND event NOT LIKE 'pp.%')
    GROUP BY event HAVING did >= ${p.minN} ORDER BY conv / did DESC, event LIMIT ${p.limit}`;
}

/** Receipt times (epoch ms) of the project's events, newest first: page `page` (0-based) before `beforeMs`. */
export function eventsPageSql(s: PeerScope, p: { beforeMs?: number; page: number; limit: number }): string {
  const where = [`project_id = ${s.projectId}`];
  if (p.beforeMs !== undefined) where.push(`received_at < ${p.beforeMs}`);
  return `SELECT received_at FROM events WHERE ${where.join(' AND ')} ORDER BY received_at DESC LIMIT ${p.page * p.limit}, ${p.limit}`;
}
