// page_days (migrations/duckdb/0025): per project, local day and stored URL, the figures of the page
// behavior reports. How the folder writes and merges its rows, and how the reports read it together
// with the raw events not yet folded.

import { scanEvents } from '../eventScan.js';
import { compactByMonth, ROWS_PER_MERGE } from './compactByMonth.js';
import type { Binder } from '../sql.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

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

/** (project, local day, URL) figures of the events joined to `z` and matching `where`, for the page behavior reports (page_days); labeled events are their sources again, not counted. */
export const foldPageDays = (where: string) => `SELECT project_id, day, url, ${PAGE_DAY_MEASURES}
  FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.url, e.event, e.distinct_key, e.session_id, ${SCROLL_PERCENT} AS pct
    FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id WHERE e.url IS NOT NULL AND e.rule_id IS NULL AND ${where})
  GROUP BY project_id, day, url`;

/**
 * Merges the delta rows into one row per key (see actorDayFolder.ts's compaction), a run of whole
 * project-months of at most `perMerge` rows at a time (compactByMonth.ts): the merged lists of
 * clickers, sessions and ids of a whole store do not fit the event store's memory at once.
 */
export function compactPageDays(run: (sql: string) => Promise<void>, read: (sql: string) => Promise<Array<Record<string, unknown>>>, perMerge = ROWS_PER_MERGE): Promise<void> {
  return compactByMonth(
    'page_days',
    ['project_id', 'day', 'url'],
    `sum(events), sum(page_views), sum(clicks), sum(rage_clicks), sum(dead_clicks), sum(measured),
      sum(r25), sum(r50), sum(r75), sum(r100), sum(depth_sum), list_distinct(flatten(list(clickers))),
      list_distinct(flatten(list(sessions))), list_distinct(flatten(list(sessionless)))`,
    run,
    read,
    perMerge,
  );
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
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: rawWhere,
  });
  return `${folded}SELECT * FROM (SELECT url, day, ${PAGE_DAY_MEASURES} FROM (${raw}) GROUP BY url, day) r(url, day, ${PAGE_DAY_COLUMNS})`;
}
