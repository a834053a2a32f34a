// The Web page's ClickHouse statements: the rows of statements.ts's, always from the raw events
// (ClickHouse keeps no visit_days rollup). Pure: nothing here touches the store.
//
// 18.16 has no window functions, so visits are cut in arrays: each visitor's events of the range in
// one array sorted by time, a visit starting at the first event and at each one more than 30
// minutes after the one before (the rule of statements.ts: events at one instant are in one visit),
// numbered by a running sum, then the events taken back out of the array with their visit. Visits
// holding a page view and an event matching the filters are kept. Each kept visit then gives one
// row per table it counts in (the total, its day, its entry and exit pages, its entry page view's
// properties, and one per page view for the pages table, marking the first view of each path), and
// one grouping counts them all.

import { filtersCondition, propertyText } from '../../engine/clickhouse/conditions.js';
import { ACTOR, eventsWithActors } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { EVENT_MS, EVENT_US, scanEvents } from '../../engine/clickhouse/scan.js';
import type { BuiltSql } from '../../engine/sql.js';
import type { FilterItem } from '../../engine/filters.js';
import { ENTRY_DIMENSIONS, LIVE_WINDOW_MS, PAGE_VIEW, VISIT_GAP_MS } from './types.js';
import type { WebSqlContext } from './statements.js';

/** Separates the entry page view's property values in one text, as DuckDB's chr(1), so ties order alike. */
const SEP = literal('\u0001');

/** A section row of a visit: (section, value, visits, page views, bounces, duration in ms). */
const row = (section: string, value: string, visits: string, pageViews: string, bounces = '0', duration = '0') =>
  `(${literal(section)}, ${value}, toInt64(${visits}), toInt64(${pageViews}), toInt64(${bounces}), toInt64(${duration}))`;

/** `totalsOnly`: just the `total` row (the previous period). */
export function buildWebSummaryClickHouse(range: { from: string; to: string }, filters: FilterItem[] | undefined, ctx: WebSqlContext, totalsOnly: boolean): BuiltSql {
  const pv = `e.event = ${literal(PAGE_VIEW)}`;
  const dims = `arrayStringConcat([${ENTRY_DIMENSIONS.map(([, prop]) => `ifNull(${propertyText(prop)}, '')`).join(', ')}], ${SEP})`;
  const scan = scanEvents(
    (local) => ({
      w_actor: ACTOR,
      w_ms: EVENT_MS,
      w_day: local.day,
      w_pv: `toUInt8(${pv})`,
      w_path: "ifNull(e.path, '')",
      w_dims: `if(${pv}, ${dims}, '')`,
      w_matched: filtersCondition(filters, ctx.segments),
    }),
    { projectId: ctx.projectId, timezone: ctx.timezone, from: range.from, to: range.to },
  );
  const gap = literal(VISIT_GAP_MS);
  // Per visitor, its events by time and each one's visit (a running count of visit starts).
  const byActor = `SELECT w_actor, evs, arrayMap(x -> tupleElement(x, 1), evs) AS times,
      arrayCumSum(arrayMap((m, p) -> toUInt32(m > p + ${gap}), times, arrayPushFront(arrayPopBack(times), toUInt64(0)))) AS visits
    FROM (SELECT w_actor, arraySort(x -> tupleElement(x, 1), groupArray((w_ms, w_day, w_pv, w_path, w_dims, w_matched))) AS evs FROM (${scan}) GROUP BY w_actor)`;
  const events = `SELECT w_actor AS actor, visit, tupleElement(ev, 1) AS ms, tupleElement(ev, 2) AS day, tupleElement(ev, 3) AS pv, tupleElement(ev, 4) AS page,
      tupleElement(ev, 5) AS entry_dims, tupleElement(ev, 6) AS matched
    FROM (${byActor}) ARRAY JOIN evs AS ev, visits AS visit`;
  const kept = `SELECT actor, visit, min(ms) AS first_ms, max(ms) AS last_ms, min(day) AS first_day, count() AS n_events, sum(pv) AS pvs,
      minIf((ms, page, entry_dims), pv = 1) AS entry, maxIf((ms, page), pv = 1) AS exit_page, groupArrayIf(page, pv = 1) AS pages, max(matched) AS any_matched
    FROM (${events}) GROUP BY actor, visit HAVING pvs > 0 AND any_matched = 1`;
  const total = row('total', "''", '1', 'pvs', 'n_events = 1', 'toInt64(last_ms) - toInt64(first_ms)');
  const tables = [
    row('day', 'toString(first_day)', '1', 'pvs'),
    row('entry_pages', 'tupleElement(entry, 2)', '1', 'pvs'),
    row('exit_pages', 'tupleElement(exit_page, 2)', '1', 'pvs'),
    ...ENTRY_DIMENSIONS.map(([name], i) => row(name, `arrayElement(splitByChar(${SEP}, tupleElement(entry, 3)), ${i + 1})`, '1', 'pvs')),
  ];
  // One row per page view of the visit, its visit counted at the first view of each path.
  const pages = `arrayMap((p, k) -> ${row('pages', 'p', 'k = 1', '1')}, pages, arrayEnumerateUniq(pages))`;
  const rows = totalsOnly ? `[${total}]` : `arrayConcat([${[total, ...tables].join(', ')}], ${pages})`;
  const sql = `SELECT tupleElement(s, 1) AS section, tupleElement(s, 2) AS value, uniqExact(actor) AS visitors, sum(tupleElement(s, 3)) AS visits,
    sum(tupleElement(s, 4)) AS page_views, sum(tupleElement(s, 5)) AS bounces, sum(tupleElement(s, 6)) AS duration_ms
  FROM (SELECT actor, ${rows} AS sections FROM (${kept})) ARRAY JOIN sections AS s
  GROUP BY section, value`;
  return { sql, params: [] };
}

/** Distinct visitors with an event in the live window before `now` (filters apply per event). */
export function buildLiveVisitorsClickHouse(now: Date, filters: FilterItem[] | undefined, ctx: WebSqlContext): BuiltSql {
  const since = now.getTime() - LIVE_WINDOW_MS;
  const sql = `SELECT uniqExact(${ACTOR}) AS live FROM ${eventsWithActors(ctx.projectId)}
WHERE e.project_id = ${literal(ctx.projectId)} AND e.ts >= toDateTime(${literal(Math.max(0, Math.floor(since / 1000)))}, 'UTC')
  AND ${EVENT_US} > ${literal(BigInt(since) * 1000n)} AND ${EVENT_US} <= ${literal(BigInt(now.getTime()) * 1000n)} AND ${filtersCondition(filters, ctx.segments)}`;
  return { sql, params: [] };
}
