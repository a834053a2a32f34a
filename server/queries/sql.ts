// The engine-specific SQL every query is built from (DuckDB dialect): bound parameters, the events
// scan with resolved actors, local days and buckets in the project's zone, property access and
// filters. Another engine would replace this module, not the queries. Column names, functions and
// intervals come only from the fixed choices below; every value from a request is bound.

import type { DuckDBValue } from '@duckdb/node-api';
import { addDays, dayNumber, type DateInterval } from './dates.js';
import { FILTER_COLUMNS, segmentId, type Filter, type FilterItem } from './filters.js';
import { offsetChanges } from './localTime.js';

/** Collects bound values and hands out their positional placeholders. */
export class Binder {
  readonly values: DuckDBValue[] = [];

  bind(value: DuckDBValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A built statement: SQL text plus the values bound to its placeholders. */
export interface BuiltSql {
  sql: string;
  params: DuckDBValue[];
}

/** How a scan gives each actor: by key (counting) or by id (listing). */
export type ActorForm = 'key' | 'id';

/**
 * The resolved actor of the row `row` (an event, or a rollup row), joined to its identity link
 * `l` (links are kept transitively resolved by ingestion). Queries group, sort and join actors by
 * their 64-bit key, far cheaper than the text; only listings need the id.
 */
export function actorOf(form: ActorForm = 'key', row = 'e'): string {
  return form === 'key' ? `COALESCE(l.actor_key, ${row}.distinct_key)` : `COALESCE(l.actor_id, ${row}.distinct_id)`;
}

/** The resolved actor of the event `e` as its key. */
export const ACTOR = actorOf();

/** The identity link `l` of the row `row`, joined by key. */
const identityJoin = (row: string) => `LEFT JOIN identity_links l ON l.project_id = ${row}.project_id AND l.distinct_key = ${row}.distinct_key`;

const EVENTS_WITH_ACTORS = `events e ${identityJoin('e')}`;

/** Local time of `e.ts` in the project's zone, as SQL expressions valid for the rows of one scan. */
export interface LocalTimeSql {
  /** The local calendar date (a DATE). */
  day: string;
  /** The instant (epoch ms) the local hour of `e.ts` began. */
  hourStart: string;
}

const DAY_MS = 86_400_000;
const EVENT_MS = 'epoch_ms(e.ts)';

/**
 * Local time by integer arithmetic: the event's epoch plus the zone's offset at that instant, with
 * the offsets between DST changes over [fromMs, toMs) written into the SQL. Converting each row
 * through ICU (`timezone()`) cost most of every query's time. Rows before `fromMs`, which only
 * all-history scans read, fall back to ICU.
 */
function localTimeSql(b: Binder, timezone: string, fromMs: number, toMs: number, allRowsInSpan: boolean): LocalTimeSql {
  const changes = offsetChanges(timezone, fromMs, toMs);
  const offset =
    changes.length === 1
      ? String(changes[0]!.offsetMs)
      : `CASE ${changes.slice(1).reverse().map((c) => `WHEN ${EVENT_MS} >= ${c.at} THEN ${c.offsetMs}`).join(' ')} ELSE ${changes[0]!.offsetMs} END`;
  const local = `(${EVENT_MS} + ${offset})`;
  let day = `(DATE '1970-01-01' + CAST(${local} // ${DAY_MS} AS INTEGER))`;
  let hourStart = `(${EVENT_MS} - ${local} % 3600000)`;
  if (!allRowsInSpan) {
    const tz = b.bind(timezone);
    const wall = `timezone(${tz}, e.ts)`;
    const before = `${EVENT_MS} < ${fromMs}`;
    day = `CASE WHEN ${before} THEN CAST(${wall} AS DATE) ELSE ${day} END`;
    hourStart = `CASE WHEN ${before} THEN ${EVENT_MS} - (epoch_ms(${wall}) - epoch_ms(date_trunc('hour', ${wall}))) ELSE ${hourStart} END`;
  }
  return { day, hourStart };
}

/** The local bucket start (a DATE) of a local date expression. */
export function dateBucket(day: string, interval: DateInterval): string {
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return `CAST(date_trunc('week', ${day}) AS DATE)`;
    case 'month':
      return `CAST(date_trunc('month', ${day}) AS DATE)`;
  }
}

/** A bucket as text: `YYYY-MM-DD` for dates, the start instant in epoch ms for hours. */
export function bucketKey(local: LocalTimeSql, interval: DateInterval | 'hour'): string {
  if (interval === 'hour') return `CAST(${local.hourStart} AS VARCHAR)`;
  return `CAST(${dateBucket(local.day, interval)} AS VARCHAR)`;
}

/** A `YYYY-MM-DD` value as a DATE. */
export function dateValue(b: Binder, date: string): string {
  return `CAST(${b.bind(date)} AS DATE)`;
}

/** The text of a filter field on `e`: a fixed column, or a top-level key of `props` (JSON). */
export function fieldText(b: Binder, field: string): string {
  if ((FILTER_COLUMNS as readonly string[]).includes(field)) return `e.${field}`;
  if (!field.startsWith('props.')) throw new Error(`unknown filter field ${field}`);
  return propertyText(b, field.slice('props.'.length));
}

/** The text of the top-level key `key` of `e.props` (JSON), NULL where absent. */
export function propertyText(b: Binder, key: string): string {
  return `json_extract_string(e.props, ${b.bind(propsPath(key))})`;
}

/** A JSON path naming exactly one top-level key, however it is spelled. */
export function propsPath(key: string): string {
  return `$."${key.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Scalars compare by their text, as `props` values are stored (5 → '5', true → 'true'). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One Filter as a condition on `e`. Negative operators also match events without the field. */
export function filterCondition(b: Binder, f: Filter): string {
  if (f.op === 'gt' || f.op === 'gte' || f.op === 'lt' || f.op === 'lte') return numericCondition(b, f);
  const field = fieldText(b, f.field);
  switch (f.op) {
    case 'eq':
      return `(${field} = ${b.bind(text(f.value))})`;
    case 'neq':
      return `(${field} IS NULL OR ${field} <> ${b.bind(text(f.value))})`;
    case 'in':
      return `(${field} IN (${(f.value as unknown[]).map((v) => b.bind(text(v))).join(', ')}))`;
    case 'not_in':
      return `(${field} IS NULL OR ${field} NOT IN (${(f.value as unknown[]).map((v) => b.bind(text(v))).join(', ')}))`;
    case 'contains':
      return `contains(${field}, ${b.bind(text(f.value))})`;
    case 'not_contains':
      return `(${field} IS NULL OR NOT contains(${field}, ${b.bind(text(f.value))}))`;
    case 'starts_with':
      return `starts_with(${field}, ${b.bind(text(f.value))})`;
    case 'exists':
      return `(${field} IS NOT NULL)`;
    case 'not_exists':
      return `(${field} IS NULL)`;
  }
}

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** Only JSON numbers take part in numeric comparisons; strings that look numeric do not. */
function numericCondition(b: Binder, f: Filter): string {
  const path = b.bind(propsPath(f.field.slice('props.'.length)));
  const cmp = COMPARATORS[f.op as keyof typeof COMPARATORS];
  return `(json_type(e.props, ${path}) IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND TRY_CAST(json_extract_string(e.props, ${path}) AS DOUBLE) ${cmp} ${b.bind(Number(f.value))})`;
}

/** Resolved saved segments by id; the route loads the ones a request names. */
export type Segments = ReadonlyMap<number, readonly Filter[]>;

/** All items ANDed; a `segment:<id>` item stands for its segment's filters. */
export function filtersCondition(b: Binder, items: readonly FilterItem[] | undefined, segments: Segments): string {
  const parts: string[] = [];
  for (const item of items ?? []) {
    if (typeof item === 'string') {
      const filters = segments.get(segmentId(item));
      if (!filters) throw new Error(`segment ${item} was not loaded`);
      parts.push(...filters.map((f) => filterCondition(b, f)));
    } else {
      parts.push(filterCondition(b, item));
    }
  }
  return parts.length > 0 ? parts.join(' AND ') : 'TRUE';
}

/** Whether a filter list restricts events at all (else the day-level rollup can answer). */
export function hasFilters(items: readonly FilterItem[] | undefined): boolean {
  return (items?.length ?? 0) > 0;
}

/** `e.event = …`, or no condition for the pseudo-event `any`. */
export function eventCondition(b: Binder, event: string): string {
  return event === 'any' ? 'TRUE' : `e.event = ${b.bind(event)}`;
}

export interface ScanOptions {
  projectId: number;
  /** The project's IANA zone. */
  timezone: string;
  /** First local date read (inclusive); omitted reads all history. */
  from?: string;
  /** Last local date read (inclusive). */
  to: string;
  /** Also read this long past the end of `to` (for funnel windows); the local upper bound is then the caller's. */
  extraAfterMs?: number;
  where?: string[];
}

/** The columns of a scan: fixed expressions, or expressions of the event's local time. */
export type ScanColumns = Record<string, string> | ((local: LocalTimeSql) => Record<string, string>);

/** How far back all-history scans compute local time by arithmetic; older rows go through ICU. */
const ARITHMETIC_HISTORY_DAYS = 800;

/**
 * `SELECT <columns> FROM` the project's events with their actors, limited to local dates. A UTC
 * pre-filter one day wider than any zone offset lets DuckDB skip row groups by `ts`.
 */
export function scanEvents(b: Binder, columns: ScanColumns, o: ScanOptions): string {
  const where = [`e.project_id = ${b.bind(o.projectId)}`];
  const until = (dayNumber(addDays(o.to, 2)) * DAY_MS) + (o.extraAfterMs ?? 0);
  const since = o.from !== undefined ? dayNumber(addDays(o.from, -1)) * DAY_MS : Math.max(0, until - ARITHMETIC_HISTORY_DAYS * DAY_MS);
  const local = localTimeSql(b, o.timezone, since, until, o.from !== undefined);
  if (o.from !== undefined) {
    where.push(`e.ts >= CAST(${b.bind(new Date(since).toISOString())} AS TIMESTAMPTZ)`, `${local.day} >= ${dateValue(b, o.from)}`);
  }
  where.push(`e.ts < CAST(${b.bind(new Date(until).toISOString())} AS TIMESTAMPTZ)`);
  if (o.extraAfterMs === undefined) where.push(`${local.day} <= ${dateValue(b, o.to)}`);
  where.push(...(o.where ?? []));
  const exprs = Object.entries(typeof columns === 'function' ? columns(local) : columns);
  // The identity join costs a hash probe per row: only scans that need actors make it.
  const from = exprs.some(([, expr]) => expr.includes(ACTOR) || expr.includes(actorOf('id'))) ? EVENTS_WITH_ACTORS : 'events e';
  return `SELECT ${exprs.map(([alias, expr]) => `${expr} AS ${alias}`).join(', ')} FROM ${from} WHERE ${where.join(' AND ')}`;
}

/**
 * The measures of an actor_days row over raw events with a `revenue` column, in the table's column
 * order: events, revenue, revenue_events, refunds, refund_events. The folder writes rows with them;
 * scanActorDays computes the not yet folded part with them.
 */
/**
 * The measures of a page_days row over rows with `event`, `pct` (a scroll depth's percent, else
 * NULL), `distinct_key` and `session_id`, in the table's column order from `events` on. The folder
 * writes rows with them; the behavior reports compute the part not yet folded with them.
 */
export const PAGE_DAY_MEASURES = `count(*), count(*) FILTER (WHERE event = 'pp.page_view'), count(*) FILTER (WHERE event = 'pp.click'),
  count(*) FILTER (WHERE event = 'pp.rage_click'), count(*) FILTER (WHERE event = 'pp.dead_click'), count(pct),
  count(*) FILTER (WHERE pct >= 25), count(*) FILTER (WHERE pct >= 50), count(*) FILTER (WHERE pct >= 75), count(*) FILTER (WHERE pct >= 100),
  sum(pct), coalesce(list(DISTINCT distinct_key) FILTER (WHERE event = 'pp.click'), CAST([] AS UBIGINT[])),
  coalesce(list(DISTINCT md5_number_lower(session_id)) FILTER (WHERE event = 'pp.page_view' AND session_id IS NOT NULL), CAST([] AS UBIGINT[])),
  coalesce(list(DISTINCT distinct_key) FILTER (WHERE event = 'pp.page_view' AND session_id IS NULL), CAST([] AS UBIGINT[]))`;

/** A scroll depth's percent on `e` (NULL for other events), as page_days folds it. */
export const SCROLL_PERCENT = `CASE WHEN e.event = 'pp.scroll_depth' THEN TRY_CAST(json_extract_string(e.props, '$.percent') AS DOUBLE) END`;

export const ACTOR_DAY_MEASURES = 'count(*), sum(revenue), count(revenue), sum(revenue) FILTER (WHERE revenue < 0), count(*) FILTER (WHERE revenue < 0)';

export interface DayScanOptions {
  projectId: number;
  timezone: string;
  /** First local date read (inclusive); omitted reads all history. */
  from?: string;
  /** Last local date read (inclusive). */
  to: string;
  /** An event name, or `any`. */
  event: string;
  /** Actors by key (the default) or by id. */
  actors?: ActorForm;
}

/**
 * Where a rollup's rows end and the raw events begin, for one project read in its zone: the rollup
 * rows count only if they were folded in this zone (and `held`, when given, holds), and then the
 * raw events are those past the folded rowid; otherwise every raw event is read.
 */
function foldedPoint(b: Binder, o: DayScanOptions, held?: string): { project: string; rollupWhere: string[]; rawWhere: string } {
  const project = b.bind(o.projectId);
  const valid = [`EXISTS (SELECT 1 FROM actor_day_zones z WHERE z.project_id = ${project} AND z.timezone = ${b.bind(o.timezone)})`, ...(held ? [held] : [])].join(' AND ');
  const rollupWhere = [`d.day <= ${dateValue(b, o.to)}`, valid];
  if (o.from !== undefined) rollupWhere.push(`d.day >= ${dateValue(b, o.from)}`);
  return { project, rollupWhere, rawWhere: `e.rowid > (SELECT CASE WHEN ${valid} THEN through_rowid ELSE -1 END FROM actor_day_state)` };
}

/**
 * `SELECT actor, day`: the local days on which each actor did `event` (or any event), possibly
 * repeated. With property filters every event is read; without, the per-day rollup answers.
 */
export function scanActiveDays(b: Binder, o: DayScanOptions & { filters: readonly FilterItem[] | undefined; segments: Segments }): string {
  if (!hasFilters(o.filters)) return `SELECT actor, day FROM (${scanActorDays(b, o)})`;
  return scanEvents(b, (local) => ({ actor: actorOf(o.actors), day: local.day }), {
    projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: [eventCondition(b, o.event), filtersCondition(b, o.filters, o.segments)],
  });
}

/**
 * `SELECT actor, day, events, revenue, revenue_events, refunds, refund_events`: the project's
 * activity per actor and local day, from the actor_days rollup where it holds the project's events
 * in this zone, plus the raw events stored after it, all read in one snapshot. An (actor, day) may
 * come in several rows (several distinct ids, rollup and raw); consumers aggregate. For queries
 * without property filters.
 */
export function scanActorDays(b: Binder, o: DayScanOptions): string {
  const point = foldedPoint(b, o);
  const where = [`d.project_id = ${point.project}`, ...point.rollupWhere];
  where.push(o.event === 'any' ? 'd.event IS NULL' : `d.event = ${b.bind(o.event)}`);
  const folded = `SELECT ${actorOf(o.actors, 'd')} AS actor, d.day, d.events, d.revenue, d.revenue_events, d.refunds, d.refund_events
  FROM actor_days d ${identityJoin('d')} WHERE ${where.join(' AND ')}`;
  const raw = scanEvents(b, (local) => ({ actor: actorOf(o.actors), day: local.day, revenue: 'e.revenue' }), {
    projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: [point.rawWhere, eventCondition(b, o.event)],
  });
  return `${folded}
  UNION ALL
  SELECT actor, day, ${ACTOR_DAY_MEASURES} FROM (${raw}) GROUP BY actor, day`;
}

/**
 * `SELECT gval, day, events, revenue`: the project's events per local day and value of the
 * top-level property `key`, from the per-day property rollup (see actorDayFolder.ts) where it holds
 * the key, is folded in this zone, plus the raw events past the folded rowid, in one snapshot. A
 * (gval, day) pair may appear in both parts; callers sum.
 */
export function scanPropertyDays(b: Binder, o: DayScanOptions & { key: string }): string {
  const key = b.bind(o.key);
  const point = foldedPoint(b, o, `EXISTS (SELECT 1 FROM property_day_keys k WHERE k.key = ${key})`);
  const where = [`d.project_id = ${point.project}`, `d.key = ${key}`, ...point.rollupWhere];
  if (o.event !== 'any') where.push(`d.event = ${b.bind(o.event)}`);
  const folded = `SELECT d.value AS gval, d.day, d.events, d.revenue FROM property_days d WHERE ${where.join(' AND ')}`;
  const raw = scanEvents(b, (local) => ({ gval: propertyText(b, o.key), day: local.day, revenue: 'e.revenue' }), {
    projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: [point.rawWhere, eventCondition(b, o.event)],
  });
  return `${folded}
  UNION ALL
  SELECT gval, day, count(*), sum(revenue) FROM (${raw}) GROUP BY gval, day`;
}

/** The columns of page_days after its key, in order, as scanPageDays gives them. */
export const PAGE_DAY_COLUMNS = 'events, page_views, clicks, rage_clicks, dead_clicks, measured, r25, r50, r75, r100, depth_sum, clickers, sessions, sessionless';

/**
 * `SELECT url, day, <PAGE_DAY_COLUMNS>`: the project's figures per stored URL and local day, from the per-day page
 * rollup where it is folded in this zone, plus the raw events past the folded rowid, in one
 * snapshot; `where` (conditions on `e`) applies to the raw part only, so it must hold for every
 * folded row (`urls` keeps both parts to those URLs). A URL may come in several rows; callers sum.
 * Without `rollup` (filters on event fields) every raw event is read.
 */
export function scanPageDays(b: Binder, o: Omit<DayScanOptions, 'event' | 'actors'> & { rollup: boolean; where: string[]; urls?: string[] }): string {
  const urlList = o.urls ? `(${o.urls.length > 0 ? o.urls.map((u) => b.bind(u)).join(', ') : 'NULL'})` : undefined;
  const rawWhere = ['e.url IS NOT NULL', 'e.rule_id IS NULL', ...o.where, ...(urlList ? [`e.url IN ${urlList}`] : [])];
  let folded = '';
  if (o.rollup) {
    const point = foldedPoint(b, { ...o, event: 'any' });
    const where = [`d.project_id = ${point.project}`, ...point.rollupWhere, ...(urlList ? [`d.url IN ${urlList}`] : [])];
    folded = `SELECT d.url, d.day, ${PAGE_DAY_COLUMNS} FROM page_days d WHERE ${where.join(' AND ')}
  UNION ALL
  `;
    rawWhere.push(point.rawWhere);
  }
  const raw = scanEvents(b, (local) => ({ url: 'e.url', day: local.day, event: 'e.event', distinct_key: 'e.distinct_key', session_id: 'e.session_id', pct: SCROLL_PERCENT }), {
    projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: rawWhere,
  });
  return `${folded}SELECT * FROM (SELECT url, day, ${PAGE_DAY_MEASURES} FROM (${raw}) GROUP BY url, day) r(url, day, ${PAGE_DAY_COLUMNS})`;
}

/** The columns of form_days after its key (day, url, form, session_key, distinct_key), in order. */
export const FORM_DAY_COLUMNS = 'starts, submits, abandons, durations';

/**
 * The measures of a form_days row over form events with `event` and `duration` (a submit's
 * duration_ms, else NULL), in the table's column order from `starts` on.
 */
export const FORM_DAY_MEASURES = `count(*) FILTER (WHERE event = 'pp.form_start'), count(*) FILTER (WHERE event = 'pp.form_submit'),
  count(*) FILTER (WHERE event = 'pp.form_abandon'), coalesce(list(duration) FILTER (WHERE event = 'pp.form_submit' AND duration IS NOT NULL), CAST([] AS DOUBLE[]))`;

/** The form events' columns form_days groups and measures, on `e`. */
export const FORM_DAY_SOURCE = {
  form: `json_extract_string(e.props, '$.form')`,
  session_key: 'md5_number_lower(e.session_id)',
  duration: `CASE WHEN e.event = 'pp.form_submit' THEN TRY_CAST(json_extract_string(e.props, '$.duration_ms') AS DOUBLE) END`,
};

/**
 * `SELECT url, day, form, session_key, distinct_key, <FORM_DAY_COLUMNS>`: the project's form
 * interaction per stored URL, day, form and visitor, from the per-day form rollup where it is
 * folded in this zone, plus the raw events past the folded rowid, in one snapshot. `where` applies
 * to the raw part only. Without `rollup` (filters on event fields) every raw event is read.
 */
export function scanFormDays(b: Binder, o: Omit<DayScanOptions, 'event' | 'actors'> & { rollup: boolean; where: string[] }): string {
  const rawWhere = [`e.event IN ('pp.form_start', 'pp.form_submit', 'pp.form_abandon')`, 'e.url IS NOT NULL', ...o.where];
  let folded = '';
  if (o.rollup) {
    const point = foldedPoint(b, { ...o, event: 'any' });
    folded = `SELECT d.url, d.day, d.form, d.session_key, d.distinct_key, ${FORM_DAY_COLUMNS} FROM form_days d WHERE ${[`d.project_id = ${point.project}`, ...point.rollupWhere].join(' AND ')}
  UNION ALL
  `;
    rawWhere.push(point.rawWhere);
  }
  const raw = scanEvents(b, (local) => ({ url: 'e.url', day: local.day, event: 'e.event', distinct_key: 'e.distinct_key', ...FORM_DAY_SOURCE }), {
    projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: rawWhere,
  });
  return `${folded}SELECT * FROM (SELECT url, day, form, session_key, distinct_key, ${FORM_DAY_MEASURES} FROM (${raw}) WHERE form IS NOT NULL
    GROUP BY url, day, form, session_key, distinct_key) r(url, day, form, session_key, distinct_key, ${FORM_DAY_COLUMNS})`;
}

/** Viewport-width bands of the click heatmap: name and lower bound (px); each ends where the next begins. */
export const HEATMAP_BANDS = [
  { band: 'mobile', min_width: 0 },
  { band: 'tablet', min_width: 768 },
  { band: 'desktop', min_width: 1024 },
  { band: 'wide', min_width: 1440 },
] as const;
export const X_STEP_PERCENT = 2;
export const Y_STEP_PX = 25;
export const ELEMENT_STEP_PERCENT = 10;

const CLICKISH = "('pp.click', 'pp.rage_click', 'pp.dead_click')";

/** A click's placement from `j` (its props at the rollup's paths), as click_cells folds it (see 0027). */
function clickCellColumns(): Record<string, string> {
  const n = (i: number) => `TRY_CAST(json_extract_string(j[${i}], '$') AS DOUBLE)`;
  const [x, y, vw] = [n(1), n(2), n(3)];
  const placed = `coalesce(${vw} > 0 AND ${x} IS NOT NULL AND ${y} IS NOT NULL, false)`;
  const fixed = `coalesce(TRY_CAST(json_extract_string(j[4], '$') AS BOOLEAN), false)`;
  const band = `CASE ${HEATMAP_BANDS.slice(1).reverse().map((b) => `WHEN ${vw} >= ${b.min_width} THEN '${b.band}'`).join(' ')} ELSE '${HEATMAP_BANDS[0].band}' END`;
  return {
    band: `CASE WHEN ${placed} THEN ${band} END`,
    cx: `CASE WHEN ${placed} AND NOT ${fixed} THEN least(${100 - X_STEP_PERCENT}, greatest(0, floor(100 * ${x} / ${vw} / ${X_STEP_PERCENT}) * ${X_STEP_PERCENT})) END`,
    cy: `CASE WHEN ${placed} AND NOT ${fixed} THEN greatest(0, floor(${y} / ${Y_STEP_PX}) * ${Y_STEP_PX}) END`,
  };
}

/** A clickish event's element chain and the 10 % cell inside it, from `event`, `elements` and `j` (see 0027). */
function clickElementColumns(): Record<string, string> {
  const n = (i: number) => `TRY_CAST(json_extract_string(j[${i}], '$') AS DOUBLE)`;
  const cell = (i: number) => `CASE WHEN event = 'pp.click' AND ${n(1)} IS NOT NULL AND ${n(2)} IS NOT NULL THEN least(${100 - ELEMENT_STEP_PERCENT}, greatest(0, floor(${n(i)} / ${ELEMENT_STEP_PERCENT}) * ${ELEMENT_STEP_PERCENT})) END`;
  return { event: 'event', chain: 'CAST(elements AS VARCHAR)', ex: cell(1), ey: cell(2) };
}

/** The click rollups: their keys past (project, day, url), how they are computed, from which events. */
export const CLICK_ROLLUPS = {
  click_cells: { keys: ['band', 'cx', 'cy'], columns: clickCellColumns, paths: ['$.x', '$.y', '$.vw', '$.fixed'], where: "e.event = 'pp.click'" },
  click_elements: { keys: ['event', 'chain', 'ex', 'ey'], columns: clickElementColumns, paths: ['$.ox', '$.oy'], where: `e.event IN ${CLICKISH} AND e.elements IS NOT NULL` },
} as const;
export type ClickRollup = keyof typeof CLICK_ROLLUPS;

/** The columns of `e` a click rollup is computed from (`event`, `elements`, `j`), besides the lead ones. */
export function clickSourceColumns(table: ClickRollup): Record<string, string> {
  return { event: 'e.event', elements: 'e.elements', j: `json_extract(e.props, [${CLICK_ROLLUPS[table].paths.map((p) => `'${p}'`).join(', ')}])` };
}

/** A click rollup's rows from `inner` (with the `lead` columns and clickSourceColumns), counted. */
export function clickRollupRows(table: ClickRollup, inner: string, lead: string[]): string {
  const r = CLICK_ROLLUPS[table];
  const columns = r.columns();
  const keys = [...lead, ...r.keys];
  return `SELECT ${keys.join(', ')}, count(*) AS clicks FROM (
    SELECT ${lead.join(', ')}, ${r.keys.map((k) => `${columns[k]} AS ${k}`).join(', ')} FROM (${inner}))
    GROUP BY ${keys.join(', ')}`;
}

/**
 * `SELECT url, day, <keys>, clicks` of a click rollup for the stored URLs `urls`: the folded rows
 * where the rollup is folded in this zone, plus the raw events past the folded rowid, in one
 * snapshot. `where` applies to the raw part only. Without `rollup` every raw event is read.
 */
export function scanClicks(b: Binder, table: ClickRollup, o: Omit<DayScanOptions, 'event' | 'actors'> & { rollup: boolean; where: string[]; urls: string[] }): string {
  const r = CLICK_ROLLUPS[table];
  const urlList = `(${o.urls.length > 0 ? o.urls.map((u) => b.bind(u)).join(', ') : 'NULL'})`;
  // The bounds are a filter the scan applies itself, before it reads the other columns; the list
  // alone becomes a join after the scan.
  const rawWhere = [r.where, 'e.url IS NOT NULL', `e.url IN ${urlList}`, ...o.where];
  if (o.urls.length > 0) rawWhere.push(`e.url BETWEEN ${b.bind(o.urls[0]!)} AND ${b.bind(o.urls[o.urls.length - 1]!)}`);
  let folded = '';
  if (o.rollup) {
    const point = foldedPoint(b, { ...o, event: 'any' });
    folded = `SELECT ${['url', 'day', ...r.keys].map((c) => `d.${c}`).join(', ')}, d.clicks FROM ${table} d
      WHERE ${[`d.project_id = ${point.project}`, ...point.rollupWhere, `d.url IN ${urlList}`].join(' AND ')}
  UNION ALL
  `;
    rawWhere.push(point.rawWhere);
  }
  const raw = scanEvents(b, (local) => ({ url: 'e.url', day: local.day, ...clickSourceColumns(table) }), { projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: rawWhere });
  return `${folded}${clickRollupRows(table, raw, ['url', 'day'])}`;
}

/** Events pp derives or captures itself: autocapture (`pp.*`) and labeled-event rows. */
export function managedEvent(row = 'e'): string {
  return `(starts_with(${row}.event, 'pp.') OR ${row}.rule_id IS NOT NULL)`;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * The order the engine sorts text in (UTF-8 bytes), for orderings finished in TypeScript; computed
 * without encoding: UTF-16 units order the
 * same way except that a surrogate (a character past U+FFFF) sorts after every other unit.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** DuckDB counts arrive as BigInt, sums as numbers; either may be NULL. */
export function num(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}
