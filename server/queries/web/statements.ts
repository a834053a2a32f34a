// The Web page's statements, pure: events of the range split into visits (a visitor's events with
// no gap over 30 minutes), visits kept when one of their events matches the filters and they hold a
// page view, then every section of the answer as rows of one result. Values are bound; property
// names come from the fixed list in types.ts. Without filters the visits are joined from the
// per-day runs of visit_days (engine/rollups/visitDays.ts) instead of every raw event, most of them
// counted from the numbers compaction gave their texts. ClickHouse's
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
  const sections = sectionsOf(totalsOnly, pages);
  return { sql: `${visits}${sections.with}\n${sections.rows.join('\nUNION ALL ')}`, params: b.values };
}

/**
 * The same answer from visit_days. The runs of an actor whose runs in range are all visits of one
 * run as compaction left them (joined under that actor, with their texts as numbers, and no run of
 * another actor joined under it: most actors) are its visits as they are, so they are counted from
 * their numbers alone, each table grouped by (number, actor) then by number, and the numbers turned
 * back into texts for the rows only. Those actors' visitors are theirs alone, so their rows add to
 * the other actors'. Of the other actors, one whose runs all hold the visit compaction gave them
 * under it has its visits from that: the runs of a visit outside the range take no part, a visit of
 * one run is that run. The rest (ids linked to another person since, runs folded since the last
 * compaction, raw events not yet folded, and the person an id was joined under before it moved)
 * have their runs joined in order of their start while one starts within 30 minutes of the latest
 * end before it (the rule in visitDays.ts). The windows doing so read only (actor, first_ms,
 * last_ms), one row per actor and start (runs starting together are in one visit), and the runs
 * take their visit by a join: a window carries every column it is given through its sort. Without
 * filters every visit holding a page view is kept, so the pages table counts every run's page views.
 */
function fromVisitDays(range: { from: string; to: string }, ctx: WebSqlContext, totalsOnly: boolean): BuiltSql {
  const b = new Binder();
  const scan = scanVisitDays(b, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.from, to: range.to });
  const gap = b.bind(VISIT_GAP_MS);
  const order = 'PARTITION BY actor ORDER BY first_ms ROWS';
  // r is read once per use, each time for its own columns only: materialized, it would hold every run's texts and maps.
  const visits = `WITH r AS NOT MATERIALIZED (${scan}),
rn AS MATERIALIZED (SELECT actor, visit_actor, coalesce(visit_runs = 1 AND visit_actor = actor, false) AND (page_views = 0 OR exit_id IS NOT NULL) AS numbered FROM r),
c AS MATERIALIZED (SELECT actor FROM rn GROUP BY actor HAVING bool_and(numbered) AND actor NOT IN (SELECT visit_actor FROM rn WHERE visit_actor <> actor)),
rf AS (SELECT actor, visit_ms, visit_runs, visit_actor, day, first_ms, last_ms, events, page_views, entry, exit, pages FROM r WHERE actor NOT IN (SELECT actor FROM c)),
joined AS (SELECT actor FROM rf WHERE visit_ms IS NULL OR visit_actor IS DISTINCT FROM actor UNION SELECT visit_actor FROM rf WHERE visit_actor <> actor),
k AS (SELECT actor, first_ms, max(last_ms) AS last_ms FROM rf WHERE actor IN (SELECT actor FROM joined) GROUP BY actor, first_ms),
s AS (SELECT actor, first_ms, CASE WHEN first_ms - max(last_ms) OVER (${order} BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= ${gap} THEN NULL ELSE first_ms END AS start FROM k),
m AS (SELECT actor, first_ms, max(start) OVER (${order} UNBOUNDED PRECEDING) AS visit FROM s),
v AS (SELECT rf.*, coalesce(m.visit, rf.visit_ms) AS visit, m.visit IS NULL AND coalesce(rf.visit_runs = 1, false) AS alone FROM rf LEFT JOIN m ON m.actor = rf.actor AND m.first_ms = rf.first_ms),
w AS (
  SELECT actor, visit, first_ms, last_ms, day, events, page_views AS pvs, entry, exit FROM v WHERE alone AND page_views > 0
  UNION ALL
  SELECT actor, visit, min(first_ms), max(last_ms), min(day), sum(events), sum(page_views), min(entry), max(exit)
  FROM v WHERE NOT alone GROUP BY actor, visit HAVING sum(page_views) > 0
),
cv AS MATERIALIZED (SELECT actor, day, events, page_views AS pvs, last_ms - first_ms AS ms, entry_id, exit_id, ${ENTRY_DIMENSIONS.map((_, i) => `entry_ids[${i + 1}] AS e${i + 1}`).join(', ')}
  FROM r WHERE page_views > 0 AND actor IN (SELECT actor FROM c))`;
  // Per (path, visit) first, so visits are counted as rows rather than as distinct pairs; a visit
  // of one run holds each path once already, and an actor of one visit is one visitor per row.
  const pages = `SELECT 'pages', path, count(*) FILTER (WHERE a.once) + count(DISTINCT g.actor) FILTER (WHERE NOT a.once), count(*), sum(n), NULL, NULL
  FROM (SELECT e.key AS path, actor, e.value AS n FROM (SELECT actor, unnest(map_entries(pages)) AS e FROM v WHERE alone AND pages IS NOT NULL)
    UNION ALL
    SELECT e.key, actor, sum(e.value) FROM (SELECT actor, visit, unnest(map_entries(pages)) AS e FROM v WHERE NOT alone AND pages IS NOT NULL) GROUP BY e.key, actor, visit) g
  JOIN a ON a.actor = g.actor
  GROUP BY path`;
  const sections = sectionsOf(totalsOnly, pages);
  const rows = [...sections.rows, ...numberedSections(totalsOnly)];
  const sql = `${visits}${sections.with}
SELECT section, value, sum(visitors) AS visitors, sum(visits) AS visits, sum(page_views) AS page_views, sum(bounces) AS bounces, sum(duration_ms) AS duration_ms
FROM (${rows.join('\nUNION ALL ')}) GROUP BY section, value`;
  return { sql, params: b.values };
}

/**
 * The rows of the visits `cv` (one per run, of actors `c` whose runs are all such visits) from their
 * numbers: each table grouped by (number, actor), then by number, then turned back into its text.
 * `cv` holds no lists (each read of it copies every column), so the pages are read from the runs.
 */
function numberedSections(totalsOnly: boolean): string[] {
  const total = `SELECT 'total', NULL, count(DISTINCT actor), count(*), sum(pvs), count(*) FILTER (WHERE events = 1), sum(ms) FROM cv`;
  if (totalsOnly) return [total];
  const grouped = (key: string) =>
    `SELECT key, count(*) AS visitors, sum(n) AS visits, sum(pvs) AS pvs FROM (SELECT ${key} AS key, actor, count(*) AS n, sum(pvs) AS pvs FROM cv GROUP BY ${key}, actor) GROUP BY key`;
  const numbered = [['entry_pages', 'entry_id'], ['exit_pages', 'exit_id'], ...ENTRY_DIMENSIONS.map(([name], i) => [name, `e${i + 1}`])].map(
    ([s, key]) => `SELECT '${s}' AS s, q.* FROM (${grouped(key!)}) q`,
  );
  const pages = `SELECT 'pages' AS s, key, count(*), sum(n), sum(views) FROM (SELECT p.id AS key, actor, count(*) AS n, sum(p.n) AS views FROM (SELECT actor, unnest(page_ids) AS p FROM r WHERE actor IN (SELECT actor FROM c)) GROUP BY p.id, actor) GROUP BY key`;
  return [
    total,
    `SELECT 'day', CAST(key AS VARCHAR), visitors, visits, pvs, NULL, NULL FROM (${grouped('day')})`,
    `SELECT q.s, t.text, q.visitors, q.visits, q.pvs, NULL, NULL FROM (${[...numbered, pages].join('\n    UNION ALL ')}) q JOIN visit_texts t ON t.id = q.key`,
  ];
}

/**
 * Every section's rows (`with`: the CTEs they read after `w`; `rows`: statements to join by UNION
 * ALL) from the visits `w` (actor, visit, first_ms, last_ms, day, events, pvs, entry, exit), `pages` apart (given `a`, each actor with `once`: one visit in range). An actor of one
 * visit is one visitor of each row that visit counts in, so those visits are grouped by each
 * table's value alone (the entry properties once per distinct set of them). The other actors'
 * visits are grouped per table: by value and actor, then by value. Their entry properties are
 * grouped per distinct set and actor, and each property value of those sets numbered, so that the
 * grouping by value and actor holds integers: one grouping of every visit ten times over (its day,
 * pages and properties as texts) with a count of distinct actors took most of the page's time.
 */
function sectionsOf(totalsOnly: boolean, pages: string): { with: string; rows: string[] } {
  const actors = `, a AS (SELECT actor, count(*) = 1 AS once FROM w GROUP BY actor)`;
  const measures = `count(*) AS visits, sum(pvs) AS page_views, count(*) FILTER (WHERE events = 1) AS bounces, sum(last_ms - first_ms) AS duration_ms`;
  const total = `SELECT 'total' AS section, NULL AS value, (SELECT count(*) FROM a) AS visitors, ${measures} FROM w`;
  if (totalsOnly) return { with: actors, rows: [total] };
  const dims = ENTRY_DIMENSIONS.map(([name], i) => `{'s': '${name}', 'v': d[${i + 1}]}`);
  const x = `, x AS (SELECT w.actor, w.day, w.pvs, w.entry.path AS entry_path, w.exit.path AS exit_path, w.entry.dims AS dims, a.once FROM w JOIN a ON a.actor = w.actor)`;
  const single = (s: string, v: string) => `SELECT '${s}' AS s, ${v} AS v, count(*) AS visitors, count(*) AS visits, sum(pvs) AS pvs FROM x WHERE once GROUP BY ${v}`;
  const once = [
    single('day', 'CAST(day AS VARCHAR)'),
    single('entry_pages', 'entry_path'),
    single('exit_pages', 'exit_path'),
    `SELECT k.s, k.v, sum(n), sum(n), sum(pvs) FROM (SELECT n, pvs, unnest([${dims.join(', ')}]) AS k
      FROM (SELECT string_split(dims, ${SEP}) AS d, n, pvs FROM (SELECT dims, count(*) AS n, sum(pvs) AS pvs FROM x WHERE once GROUP BY dims)))
    GROUP BY k.s, k.v`,
  ];
  const perActor = (s: string, key: string, value: string) =>
    `SELECT '${s}' AS s, ${value} AS v, count(*) AS visitors, sum(n) AS visits, sum(pvs) AS pvs FROM (SELECT ${key} AS key, actor, count(*) AS n, sum(pvs) AS pvs FROM x WHERE NOT once GROUP BY ${key}, actor) GROUP BY key`;
  const values = `, entries AS (SELECT dims, actor, count(*) AS n, sum(pvs) AS pvs FROM x WHERE NOT once GROUP BY dims, actor),
entry_values AS (SELECT dims, k.s, k.v, dense_rank() OVER (ORDER BY k.s, k.v) AS id FROM (SELECT dims, unnest([${dims.join(', ')}]) AS k FROM (SELECT dims, string_split(dims, ${SEP}) AS d FROM (SELECT DISTINCT dims FROM entries))))`;
  const several = [
    perActor('day', 'day', 'CAST(key AS VARCHAR)'),
    perActor('entry_pages', 'entry_path', 'key'),
    perActor('exit_pages', 'exit_path', 'key'),
    `SELECT nm.s, nm.v, q.visitors, q.visits, q.pvs
    FROM (SELECT id, count(*) AS visitors, sum(n) AS visits, sum(pvs) AS pvs FROM (SELECT ids.id, en.actor, sum(en.n) AS n, sum(en.pvs) AS pvs FROM entries en JOIN entry_values ids ON ids.dims IS NOT DISTINCT FROM en.dims GROUP BY ids.id, en.actor) GROUP BY id) q
    JOIN (SELECT DISTINCT id, s, v FROM entry_values) nm ON nm.id = q.id`,
  ];
  const tables = `SELECT s, v, sum(visitors), sum(visits), sum(pvs), NULL, NULL FROM (${[...once, ...several].join('\n    UNION ALL ')}) GROUP BY s, v`;
  return { with: `${actors}${x}${values}`, rows: [total, tables, pages] };
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
