// The Web page's statements, pure: events of the range split into visits (a visitor's events with
// no gap over 30 minutes), visits kept when one of their events matches the filters and they hold a
// page view, then every section of the answer as rows of one result. Values are bound; property
// names come from the fixed list in types.ts. Without filters the visits are joined from the
// per-day runs of visit_days (engine/rollups/visitDays.ts) instead of every raw event. ClickHouse's
// statements (clickhouseStatements.ts) give the same rows from the raw events.

import { filtersCondition, hasFilters, propsPath } from '../../engine/conditions.js';
import { scanEvents } from '../../engine/eventScan.js';
import { ACTOR, EVENTS_WITH_ACTORS } from '../../engine/identity.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import { DIMS_SEP as SEP, entryDims, scanVisitDays, VISIT_ENTRY_PROPERTIES } from '../../engine/rollups/visitDays.js';
import type { ByEngine } from '../../engine/engine.js';
import type { Segments } from '../../engine/conditions.js';
import type { FilterItem } from '../../engine/filters.js';
import { ENTRY_DIMENSIONS, LIVE_WINDOW_MS, PAGE_VIEW, VISIT_GAP_MS } from './types.js';
import { buildLiveVisitorsClickHouse, buildWebSummaryClickHouse } from './clickhouseStatements.js';

export interface WebSqlContext {
  projectId: number;
  timezone: string;
  segments: Segments;
}

// The rollup holds the entry properties the tables read, in their order.
if (ENTRY_DIMENSIONS.some(([, prop], i) => VISIT_ENTRY_PROPERTIES[i] !== prop) || ENTRY_DIMENSIONS.length !== VISIT_ENTRY_PROPERTIES.length) {
  throw new Error('ENTRY_DIMENSIONS and visit_days disagree');
}

/** `totalsOnly`: just the `total` row (the previous period). */
export function buildWebSummarySql(range: { from: string; to: string }, filters: FilterItem[] | undefined, ctx: WebSqlContext, totalsOnly: boolean): BuiltSql {
  return hasFilters(filters) ? buildWebSummaryRawSql(range, filters, ctx, totalsOnly) : fromVisitDays(range, ctx, totalsOnly);
}

/** The same from every raw event of the range: the answer with filters, and the rollup's reference. */
export function buildWebSummaryRawSql(range: { from: string; to: string }, filters: FilterItem[] | undefined, ctx: WebSqlContext, totalsOnly: boolean): BuiltSql {
  const b = new Binder();
  const pv = `e.event = ${b.bind(PAGE_VIEW)}`;
  const paths = `[${ENTRY_DIMENSIONS.map(([, prop]) => b.bind(propsPath(prop))).join(', ')}]`;
  const scan = scanEvents(
    b,
    (local) => ({
      actor: ACTOR,
      ms: 'epoch_ms(e.ts)',
      day: local.day,
      pv,
      path: "coalesce(e.path, '')",
      dims: entryDims(pv, paths),
      matched: filtersCondition(b, filters, ctx.segments),
    }),
    { projectId: ctx.projectId, timezone: ctx.timezone, from: range.from, to: range.to },
  );
  const gap = b.bind(VISIT_GAP_MS);
  const visits = `WITH ev AS (${scan}),
g AS (SELECT *, CASE WHEN prev IS NULL OR ms - prev > ${gap} THEN 1 ELSE 0 END AS starts FROM (SELECT *, lag(ms) OVER (PARTITION BY actor ORDER BY ms) AS prev FROM ev)),
v AS (SELECT *, sum(starts) OVER (PARTITION BY actor ORDER BY ms) AS visit FROM g),
w AS (
  SELECT actor, visit, min(ms) AS first_ms, max(ms) AS last_ms, min(day) AS day, count(*) AS events, count(*) FILTER (WHERE pv) AS pvs,
    min({'ms': ms, 'path': path, 'dims': dims}) FILTER (WHERE pv) AS entry, max({'ms': ms, 'path': path}) FILTER (WHERE pv) AS exit
  FROM v GROUP BY actor, visit HAVING count(*) FILTER (WHERE pv) > 0 AND bool_or(matched)
)`;
  const pages = `SELECT 'pages', v.path, count(DISTINCT v.actor), count(DISTINCT {'a': v.actor, 'v': v.visit}), count(*), NULL, NULL FROM v JOIN w ON w.actor = v.actor AND w.visit = v.visit WHERE v.pv GROUP BY 2`;
  return { sql: `${visits}\n${sectionsOf(totalsOnly, pages)}`, params: b.values };
}

/**
 * The same answer from visit_days. An actor whose runs in range all come from one distinct id and
 * all hold the visit compaction gave them (most actors) has its visits from that: its runs are
 * exactly its id's, and the runs of a visit outside the range take no part; a visit of one run
 * (most visits) is that run, without grouping. The other actors' runs (ids later found to be one
 * person, runs folded since the last compaction, raw events not yet folded) are joined in order of
 * their start while one starts within 30 minutes of the latest end before it (the rule in
 * visitDays.ts). The windows doing so read only (actor, first_ms, last_ms), one row per actor and
 * start (runs starting together are in one visit), and the runs take their visit by a join: a
 * window carries every column it is given through its sort. Without filters every visit holding a
 * page view is kept, so the pages table counts every run's page views.
 */
function fromVisitDays(range: { from: string; to: string }, ctx: WebSqlContext, totalsOnly: boolean): BuiltSql {
  const b = new Binder();
  const scan = scanVisitDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.from, to: range.to });
  const gap = b.bind(VISIT_GAP_MS);
  const order = 'PARTITION BY actor ORDER BY first_ms ROWS';
  const visits = `WITH r AS (${scan}),
joined AS (SELECT actor FROM r GROUP BY actor HAVING count(visit_ms) < count(*) OR min(key) < max(key)),
k AS (SELECT actor, first_ms, max(last_ms) AS last_ms FROM r WHERE actor IN (SELECT actor FROM joined) GROUP BY actor, first_ms),
s AS (SELECT actor, first_ms, CASE WHEN first_ms - max(last_ms) OVER (${order} BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= ${gap} THEN NULL ELSE first_ms END AS start FROM k),
m AS (SELECT actor, first_ms, max(start) OVER (${order} UNBOUNDED PRECEDING) AS visit FROM s),
v AS (SELECT r.*, coalesce(m.visit, r.visit_ms) AS visit, m.visit IS NULL AND coalesce(r.visit_runs = 1, false) AS alone FROM r LEFT JOIN m ON m.actor = r.actor AND m.first_ms = r.first_ms),
w AS (
  SELECT actor, visit, first_ms, last_ms, day, events, page_views AS pvs, entry, exit FROM v WHERE alone AND page_views > 0
  UNION ALL
  SELECT actor, visit, min(first_ms), max(last_ms), min(day), sum(events), sum(page_views), min(entry), max(exit)
  FROM v WHERE NOT alone GROUP BY actor, visit HAVING sum(page_views) > 0
)`;
  // Per (path, visit) first, so visits are counted as rows rather than as distinct pairs; a visit
  // of one run holds each path once already.
  const pages = `SELECT 'pages', path, count(DISTINCT actor), count(*), sum(n), NULL, NULL
  FROM (SELECT p.key AS path, actor, p.value AS n FROM (SELECT actor, unnest(map_entries(pages)) AS p FROM v WHERE alone AND pages IS NOT NULL)
    UNION ALL
    SELECT p.key, actor, sum(p.value) FROM (SELECT actor, visit, unnest(map_entries(pages)) AS p FROM v WHERE NOT alone AND pages IS NOT NULL) GROUP BY p.key, actor, visit)
  GROUP BY path`;
  return { sql: `${visits}\n${sectionsOf(totalsOnly, pages)}`, params: b.values };
}

/** Every section's rows from the visits `w` (actor, visit, first_ms, last_ms, day, events, pvs, entry, exit), `pages` apart. */
function sectionsOf(totalsOnly: boolean, pages: string): string {
  const measures = `count(DISTINCT actor) AS visitors, count(*) AS visits, sum(pvs) AS page_views`;
  const total = `SELECT 'total' AS section, NULL AS value, ${measures}, count(*) FILTER (WHERE events = 1) AS bounces, sum(last_ms - first_ms) AS duration_ms FROM w`;
  if (totalsOnly) return total;
  // Each visit once per table, so every table is one pass of one grouping.
  const keyed = [
    `{'s': 'day', 'v': CAST(day AS VARCHAR)}`,
    `{'s': 'entry_pages', 'v': entry.path}`,
    `{'s': 'exit_pages', 'v': exit.path}`,
    ...ENTRY_DIMENSIONS.map(([name], i) => `{'s': '${name}', 'v': dims[${i + 1}]}`),
  ];
  // An actor with one visit in range is one visitor of each of its rows: only the others' visits
  // are counted distinct (a sixth less time at 10M events, where most actors have one visit).
  const tables = `SELECT k.s, k.v, count(*) FILTER (WHERE once) + count(DISTINCT actor) FILTER (WHERE NOT once) AS visitors, count(*) AS visits, sum(pvs) AS page_views, NULL, NULL
  FROM (SELECT actor, pvs, once, unnest([${keyed.join(', ')}]) AS k
    FROM (SELECT w.*, string_split(entry.dims, ${SEP}) AS dims, a.visits = 1 AS once FROM w JOIN (SELECT actor, count(*) AS visits FROM w GROUP BY actor) a ON a.actor = w.actor))
  GROUP BY k.s, k.v`;
  return [total, tables, pages].join('\nUNION ALL ');
}

/** Distinct visitors with an event in the live window before `now` (filters apply per event). */
export function buildLiveVisitorsSql(now: Date, filters: FilterItem[] | undefined, ctx: WebSqlContext): BuiltSql {
  const b = new Binder();
  const sql = `SELECT count(DISTINCT ${ACTOR}) AS live FROM ${EVENTS_WITH_ACTORS}
WHERE e.project_id = ${b.bind(ctx.projectId)} AND e.ts > CAST(${b.bind(new Date(now.getTime() - LIVE_WINDOW_MS).toISOString())} AS TIMESTAMPTZ)
  AND e.ts <= CAST(${b.bind(now.toISOString())} AS TIMESTAMPTZ) AND ${filtersCondition(b, filters, ctx.segments)}`;
  return { sql, params: b.values };
}

/** The statement builders of each engine (the shaping reads the same rows from any). */
export const webStatements: ByEngine<{ summary: typeof buildWebSummarySql; live: typeof buildLiveVisitorsSql }> = {
  duckdb: { summary: buildWebSummarySql, live: buildLiveVisitorsSql },
  clickhouse: { summary: buildWebSummaryClickHouse, live: buildLiveVisitorsClickHouse },
};
