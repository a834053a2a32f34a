// visit_days (migrations/duckdb/0030): per project, local day and distinct id, the runs of events
// with no gap over 30 minutes — visits cut at local midnight and wherever a fold pass ended. How the
// folder writes them, and how the Web statement reads them with the raw events not yet folded.
//
// The rule that keeps answers exact: split any set of events into groups (distinct ids, local days,
// fold passes), split each group into runs at gaps over 30 minutes, then join the runs of one actor
// in order of their first event whenever a run starts no more than 30 minutes after the latest end
// before it: the joined runs are exactly the visits of the actor's events taken together (a gap of
// over 30 minutes between two consecutive events of the actor is crossed by no run). So a visit
// across midnight, a late event for a folded day and two ids merged into one person all come out as
// the raw statement's visits.

import { actorOf, identityJoin } from '../identity.js';
import { scanEvents } from '../eventScan.js';
import type { Binder } from '../sql.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

/** A visit ends after this long without an event of its visitor. */
export const VISIT_GAP_MS = 30 * 60 * 1000;
export const PAGE_VIEW = 'pp.page_view';

/** The entry page view's derived properties held by visit_days, in the Web page's table order. */
export const VISIT_ENTRY_PROPERTIES = ['$channel', '$referring_domain', '$utm_campaign', '$country', '$browser', '$os', '$device_type'] as const;

/** Separates the entry page view's property values, held as one text so ties order by plain text. */
export const DIMS_SEP = 'chr(1)';

/** The entry properties of the page view `e` as one text (`paths`: a SQL list of their JSON paths). */
export const entryDims = (pv: string, paths: string) => `CASE WHEN ${pv} THEN array_to_string(list_transform(json_extract_string(e.props, ${paths}), x -> coalesce(x, '')), ${DIMS_SEP}) END`;

const PATHS_LITERAL = `[${VISIT_ENTRY_PROPERTIES.map((p) => `'$."${p}"'`).join(', ')}]`;

/** The visit_days columns after the key, as the runs of rows with `ms`, `pv`, `path` and `dims` give them. */
const RUN_MEASURES = `min(ms), max(ms), count(*), count(*) FILTER (WHERE pv),
    min({'ms': ms, 'path': path, 'dims': dims}) FILTER (WHERE pv), max({'ms': ms, 'path': path}) FILTER (WHERE pv),
    histogram(path) FILTER (WHERE pv)`;

/**
 * (project, local day, distinct id, run) rows of the events joined to `z` and matching `where`, in
 * the table's column order; their visit is left to the next compaction.
 */
export const foldVisitDays = (where: string) => `SELECT project_id, day, distinct_key, ${RUN_MEASURES}, CAST(NULL AS BIGINT), CAST(NULL AS INTEGER)
  FROM (SELECT *, sum(starts) OVER (PARTITION BY project_id, day, distinct_key ORDER BY ms) AS run
    FROM (SELECT *, CASE WHEN ms - lag(ms) OVER (PARTITION BY project_id, day, distinct_key ORDER BY ms) <= ${VISIT_GAP_MS} THEN 0 ELSE 1 END AS starts
      FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.distinct_key, epoch_ms(e.ts) AS ms, e.event = '${PAGE_VIEW}' AS pv,
          coalesce(e.path, '') AS path, ${entryDims(`e.event = '${PAGE_VIEW}'`, PATHS_LITERAL)} AS dims
        FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id WHERE ${where})))
  GROUP BY project_id, day, distinct_key, run`;

/** The runs of one distinct id by their start; runs starting together (one visit) are one row here. */
const BY_ID = 'PARTITION BY project_id, distinct_key ORDER BY first_ms ROWS';

/**
 * Rewrites the table in key order for zone-map pruning, and gives every run its visit: the id's
 * runs joined by the rule above, across midnight and across passes, each run then holding the
 * start of the first. The windows read only the id and times of each start, and the runs take their
 * visit by a join (a window over whole rows, maps and texts included, does not fit the memory
 * budget at 10M events). Rows are not merged.
 */
export const COMPACT_VISIT_DAYS = [
  'CREATE TABLE visit_days_merged AS FROM visit_days LIMIT 0',
  `INSERT INTO visit_days_merged
    SELECT d.* EXCLUDE (visit_ms, visit_runs), s.visit, s.runs
    FROM visit_days d JOIN (
      SELECT *, CAST(sum(n) OVER (PARTITION BY project_id, distinct_key, visit) AS INTEGER) AS runs
      FROM (SELECT project_id, distinct_key, first_ms, n, max(start) OVER (${BY_ID} UNBOUNDED PRECEDING) AS visit
        FROM (SELECT project_id, distinct_key, first_ms, n,
            CASE WHEN first_ms - max(last_ms) OVER (${BY_ID} BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= ${VISIT_GAP_MS} THEN NULL ELSE first_ms END AS start
          FROM (SELECT project_id, distinct_key, first_ms, max(last_ms) AS last_ms, count(*) AS n FROM visit_days GROUP BY project_id, distinct_key, first_ms)))
    ) s ON s.project_id = d.project_id AND s.distinct_key = d.distinct_key AND s.first_ms = d.first_ms
    ORDER BY d.project_id, d.day, d.distinct_key, d.first_ms`,
  'DROP TABLE visit_days',
  'ALTER TABLE visit_days_merged RENAME TO visit_days',
];

/** After some of a project's days were folded again: its runs' visits are unknown until the next compaction. */
export const FORGET_VISITS = 'UPDATE visit_days SET visit_ms = NULL, visit_runs = NULL WHERE project_id = $project';

/**
 * `SELECT actor, key, visit_ms, visit_runs, day, first_ms, last_ms, events, page_views, entry, exit, pages`: runs
 * of the project's events (see above) on local days in range, from visit_days where it is folded in
 * this zone, plus each raw event past the folded rowid as a run of its own, in one snapshot. `key`
 * is the run's distinct id, `visit_ms` its id's visit as compacted and `visit_runs` that visit's runs
 * (NULL when not known, and for raw events). For the Web page without filters (a filter asks of every event, which the rows do not hold).
 */
export function scanVisitDays(b: Binder, o: Omit<DayScanOptions, 'event' | 'actors'>): string {
  const point = foldedPoint(b, { ...o, event: 'any' });
  const where = [`d.project_id = ${point.project}`, ...point.rollupWhere];
  const folded = `SELECT ${actorOf('key', 'd')} AS actor, d.distinct_key AS key, d.visit_ms, d.visit_runs, d.day, d.first_ms, d.last_ms, d.events, d.page_views, d.entry, d.exit, d.pages
  FROM visit_days d ${identityJoin('d')} WHERE ${where.join(' AND ')}`;
  const pv = `e.event = ${b.bind(PAGE_VIEW)}`;
  const paths = `[${VISIT_ENTRY_PROPERTIES.map((p) => b.bind(`$."${p}"`)).join(', ')}]`;
  const raw = scanEvents(
    b,
    (local) => ({
      actor: actorOf(),
      key: 'e.distinct_key',
      day: local.day,
      ms: 'epoch_ms(e.ts)',
      pv,
      path: "coalesce(e.path, '')",
      dims: entryDims(pv, paths),
    }),
    { projectId: o.projectId, timezone: o.timezone, from: o.from, to: o.to, where: [point.rawWhere] },
  );
  return `${folded}
  UNION ALL
  SELECT actor, key, CAST(NULL AS BIGINT), CAST(NULL AS INTEGER), day, ms, ms, 1, CASE WHEN pv THEN 1 ELSE 0 END,
    CASE WHEN pv THEN {'ms': ms, 'path': path, 'dims': dims} END, CASE WHEN pv THEN {'ms': ms, 'path': path} END,
    CASE WHEN pv THEN MAP([path], [CAST(1 AS UBIGINT)]) END
  FROM (${raw})`;
}
