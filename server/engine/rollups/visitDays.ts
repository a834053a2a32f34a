// visit_days (migrations/duckdb/0030, 0031, 0033): per project, local day and distinct id, the runs of events
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
export const foldVisitDays = (where: string) => `SELECT project_id, day, distinct_key, ${RUN_MEASURES}, ${UNCOMPACTED}
  FROM (SELECT *, sum(starts) OVER (PARTITION BY project_id, day, distinct_key ORDER BY ms) AS run
    FROM (SELECT *, CASE WHEN ms - lag(ms) OVER (PARTITION BY project_id, day, distinct_key ORDER BY ms) <= ${VISIT_GAP_MS} THEN 0 ELSE 1 END AS starts
      FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.distinct_key, epoch_ms(e.ts) AS ms, e.event = '${PAGE_VIEW}' AS pv,
          coalesce(e.path, '') AS path, ${entryDims(`e.event = '${PAGE_VIEW}'`, PATHS_LITERAL)} AS dims
        FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id WHERE ${where})))
  GROUP BY project_id, day, distinct_key, run`;

/** What compaction gives a run (its visit, and its texts as numbers), NULL until then, in column order. */
const UNCOMPACTED =
  'CAST(NULL AS BIGINT), CAST(NULL AS INTEGER), CAST(NULL AS UBIGINT), CAST(NULL AS UBIGINT), CAST(NULL AS UBIGINT), CAST(NULL AS UBIGINT[]), CAST(NULL AS STRUCT(id UBIGINT, n UBIGINT)[])';

/** The runs of one actor by their start; runs starting together (one visit) are one row here. */
const BY_ACTOR = 'PARTITION BY project_id, actor ORDER BY first_ms ROWS';

/** visit_days with each run's actor as the identities stand now. */
const WITH_ACTORS = 'SELECT v.*, coalesce(l.actor_key, v.distinct_key) AS actor FROM visit_days v LEFT JOIN identity_links l ON l.project_id = v.project_id AND l.distinct_key = v.distinct_key';

/** A text as the number visit_texts holds for it. */
const number = (text: string) => `hash(${text})`;

/**
 * Rewrites the table in key order for zone-map pruning, and gives every run its visit: the runs of
 * each actor (identities as they stand, all its ids, days and passes together) joined by the rule
 * above, each run then holding the start of the first and the actor. The windows read only the
 * actor and times of each start, and the runs take their visit by a join (a window over whole rows,
 * maps and texts included, does not fit the memory budget at 10M events). Rows are not merged. Each
 * run's texts are also kept as numbers, with visit_texts to turn them back: should two texts of the
 * table share a number, no run keeps numbers and the Web page reads the texts.
 */
export const COMPACT_VISIT_DAYS = [
  'CREATE TABLE visit_days_merged AS FROM visit_days LIMIT 0',
  `INSERT INTO visit_days_merged
    SELECT d.* EXCLUDE (visit_ms, visit_runs, visit_actor, entry_id, exit_id, entry_ids, page_ids, actor), s.visit, s.runs, d.actor,
      CASE WHEN d.entry IS NOT NULL THEN ${number('d.entry.path')} END, CASE WHEN d.exit IS NOT NULL THEN ${number('d.exit.path')} END,
      list_transform(string_split(d.entry.dims, ${DIMS_SEP}), x -> ${number('x')}), list_transform(map_entries(d.pages), p -> {'id': ${number('p.key')}, 'n': p.value})
    FROM (${WITH_ACTORS}) d JOIN (
      SELECT *, CAST(sum(n) OVER (PARTITION BY project_id, actor, visit) AS INTEGER) AS runs
      FROM (SELECT project_id, actor, first_ms, n, max(start) OVER (${BY_ACTOR} UNBOUNDED PRECEDING) AS visit
        FROM (SELECT project_id, actor, first_ms, n,
            CASE WHEN first_ms - max(last_ms) OVER (${BY_ACTOR} BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) <= ${VISIT_GAP_MS} THEN NULL ELSE first_ms END AS start
          FROM (SELECT project_id, actor, first_ms, max(last_ms) AS last_ms, count(*) AS n FROM (${WITH_ACTORS}) GROUP BY project_id, actor, first_ms)))
    ) s ON s.project_id = d.project_id AND s.actor = d.actor AND s.first_ms = d.first_ms
    ORDER BY d.project_id, d.day, d.distinct_key, d.first_ms`,
  'DROP TABLE visit_days',
  'ALTER TABLE visit_days_merged RENAME TO visit_days',
  // Entry and exit paths are paths of the run's page views, so the pages' paths hold them.
  'DELETE FROM visit_texts',
  `INSERT INTO visit_texts SELECT ${number('text')}, text
    FROM (SELECT unnest(map_keys(pages)) AS text FROM visit_days UNION SELECT unnest(string_split(entry.dims, ${DIMS_SEP})) FROM visit_days)`,
  'UPDATE visit_days SET entry_id = NULL, exit_id = NULL, entry_ids = NULL, page_ids = NULL WHERE (SELECT count(DISTINCT id) < count(*) FROM visit_texts)',
];

/** After some of a project's days were folded again: its runs' visits are unknown until the next compaction. */
export const FORGET_VISITS = 'UPDATE visit_days SET visit_ms = NULL, visit_runs = NULL, visit_actor = NULL WHERE project_id = $project';

/**
 * `SELECT actor, key, visit_ms, visit_runs, visit_actor, day, first_ms, last_ms, events, page_views, entry, exit, pages, entry_id,
 * exit_id, entry_ids, page_ids`: runs of the project's events (see above) on local days in range, from visit_days where it is
 * folded in this zone, plus each raw event past the folded rowid as a run of its own, in one snapshot. `key` is the run's
 * distinct id, `actor` its actor now; `visit_ms`, `visit_runs` and `visit_actor` the visit compaction gave it, with how many
 * runs that visit has and the actor it was joined under, and the `_id(s)` columns its texts as numbers (all NULL when not
 * known, and for raw events). For the Web page without filters (a filter asks of every event, which the rows do not hold).
 */
export function scanVisitDays(b: Binder, o: Omit<DayScanOptions, 'event' | 'actors'>): string {
  const point = foldedPoint(b, { ...o, event: 'any' });
  const where = [`d.project_id = ${point.project}`, ...point.rollupWhere];
  const folded = `SELECT ${actorOf('key', 'd')} AS actor, d.distinct_key AS key, d.visit_ms, d.visit_runs, d.visit_actor, d.day, d.first_ms, d.last_ms, d.events, d.page_views,
    d.entry, d.exit, d.pages, d.entry_id, d.exit_id, d.entry_ids, d.page_ids
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
  SELECT actor, key, CAST(NULL AS BIGINT), CAST(NULL AS INTEGER), CAST(NULL AS UBIGINT), day, ms, ms, 1, CASE WHEN pv THEN 1 ELSE 0 END,
    CASE WHEN pv THEN {'ms': ms, 'path': path, 'dims': dims} END, CASE WHEN pv THEN {'ms': ms, 'path': path} END,
    CASE WHEN pv THEN MAP([path], [CAST(1 AS UBIGINT)]) END, CAST(NULL AS UBIGINT), CAST(NULL AS UBIGINT), CAST(NULL AS UBIGINT[]), CAST(NULL AS STRUCT(id UBIGINT, n UBIGINT)[])
  FROM (${raw})`;
}
