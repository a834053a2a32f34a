// form_days (migrations/duckdb/0026): per project, local day, stored URL, form, session and visitor,
// the form interaction. How the folder writes and merges its rows, and how the form report reads it
// together with the raw events not yet folded.

import { scanEvents } from '../eventScan.js';
import type { Binder } from '../sql.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

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

/** (project, local day, URL, form, session, distinct id) form interaction of the events joined to `z` and matching `where` (form_days). */
export const foldFormDays = (where: string) => `SELECT project_id, day, url, form, session_key, distinct_key, ${FORM_DAY_MEASURES}
  FROM (SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.url, e.event, e.distinct_key,
      ${Object.entries(FORM_DAY_SOURCE)
        .map(([k, v]) => `${v} AS ${k}`)
        .join(', ')}
    FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id
    WHERE e.event IN ('pp.form_start', 'pp.form_submit', 'pp.form_abandon') AND e.url IS NOT NULL AND ${where})
  WHERE form IS NOT NULL
  GROUP BY project_id, day, url, form, session_key, distinct_key`;

/** Merges the delta rows into one row per key (see actorDayFolder.ts's compaction). */
export const COMPACT_FORM_DAYS = [
  'CREATE TABLE form_days_merged AS FROM form_days LIMIT 0',
  `INSERT INTO form_days_merged
          SELECT project_id, day, url, form, session_key, distinct_key, sum(starts), sum(submits), sum(abandons), flatten(list(durations))
          FROM form_days GROUP BY project_id, day, url, form, session_key, distinct_key ORDER BY project_id, day, url, form`,
  'DROP TABLE form_days',
  'ALTER TABLE form_days_merged RENAME TO form_days',
];

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
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: rawWhere,
  });
  return `${folded}SELECT * FROM (SELECT url, day, form, session_key, distinct_key, ${FORM_DAY_MEASURES} FROM (${raw}) WHERE form IS NOT NULL
    GROUP BY url, day, form, session_key, distinct_key) r(url, day, form, session_key, distinct_key, ${FORM_DAY_COLUMNS})`;
}
