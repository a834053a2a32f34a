// The DuckDB statements of the behavior reports (docs/behavior.md): pages ranked by events with their
// click, rage/dead-click and scroll figures, one page's figures with its heatmap cells and clicked
// element chains, the clickers per selector, and the forms reports. Pages are grouped by their
// normalized URL in SQL (pageUrlSql.ts), read once per distinct stored URL. Every value is bound.

import { listValue } from '@duckdb/node-api';
import type { Statement } from '../engine.js';
import { filtersCondition } from '../conditions.js';
import { scanEvents } from '../eventScan.js';
import type { Filter } from '../filters.js';
import { scanClicks, type ClickRollup } from '../rollups/clickDays.js';
import { scanFormDays } from '../rollups/formDays.js';
import { scanPageDays } from '../rollups/pageDays.js';
import { Binder } from '../sql.js';
import { pageUrlsSql } from './pageUrlSql.js';

/** A report's range, filters and page size, as the behavior domain parsed them. */
export interface BehaviorRange {
  date_from: string;
  date_to: string;
  filters: Filter[];
  limit: number;
}

export interface BehaviorScope {
  projectId: number;
  timezone: string;
}

/** The range's figures per stored URL (see scanPageDays), with the report's filters. */
function byUrl(b: Binder, p: BehaviorRange, ctx: BehaviorScope, where: string[] = [], urls?: string[]): string {
  return scanPageDays(b, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    // The rollup holds every event; filters on event fields need the raw events.
    rollup: p.filters.length === 0,
    where: [filtersCondition(b, p.filters, new Map()), ...where],
    urls,
  });
}

/** The stored URLs of the range (the page rollup's, and the raw events' past it): `url`; `part`, when given, a text each contains. */
export function storedUrlsSql(p: BehaviorRange, ctx: BehaviorScope, part?: string): Statement {
  const b = new Binder();
  const within = part === undefined ? undefined : b.bind(part);
  const sql = `SELECT DISTINCT url FROM (${byUrl(b, p, ctx, within ? [`contains(e.url, ${within})`] : [])})${within ? ` WHERE contains(url, ${within})` : ''}`;
  return { sql, params: b.values };
}

/** The headline figures summed over rows of PAGE_DAY_COLUMNS. */
const FIGURES = `sum(events) AS events, sum(page_views) AS page_views, sum(clicks) AS clicks, sum(rage_clicks) AS rage_clicks,
  sum(dead_clicks) AS dead_clicks, sum(measured) AS measured, sum(r25) AS r25, sum(r50) AS r50, sum(r75) AS r75, sum(r100) AS r100,
  sum(depth_sum) AS depth_sum`;

/** Distinct clicking actors of the `clickers` key lists of `rows`, grouped by `group` (or overall). */
const clickersSql = (rows: string, project: string, group?: string) => `SELECT ${group ? `${group}, ` : ''}count(DISTINCT coalesce(l.actor_key, ck.k)) AS n
  FROM (SELECT DISTINCT ${group ? `${group}, ` : ''}unnest(clickers) AS k FROM ${rows}) ck
  LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_key = ck.k${group ? ` GROUP BY ${group}` : ''}`;

/**
 * Pages by event count (most first, then page), `limit` rows after the keyset position `after`
 * (events, page): the figures of FIGURES and `unique_clickers`.
 */
export function behaviorUrlsSql(p: BehaviorRange, ctx: BehaviorScope, limit: number, after?: readonly [number, string]): Statement {
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const rows = byUrl(b, p, ctx);
  const keyset = after ? `WHERE a.events < ${b.bind(after[0])} OR (a.events = ${b.bind(after[0])} AND a.page > ${b.bind(after[1])})` : '';
  const sql = `WITH byurl AS (${rows}),
    pages AS (${pageUrlsSql('SELECT DISTINCT url FROM byurl')}),
    pu AS (SELECT p.page, u.* FROM byurl u JOIN pages p USING (url) WHERE p.page IS NOT NULL),
    agg AS (SELECT page, ${FIGURES} FROM pu GROUP BY page),
    ranked AS (SELECT a.* FROM agg a ${keyset} ORDER BY a.events DESC, a.page LIMIT ${b.bind(limit)}),
    clickers AS (${clickersSql('pu WHERE page IN (SELECT page FROM ranked)', project, 'page')})
    SELECT r.*, coalesce(c.n, 0) AS unique_clickers FROM ranked r LEFT JOIN clickers c USING (page)
    ORDER BY r.events DESC, r.page`;
  return { sql, params: b.values };
}

/**
 * One page's figures over its stored URLs `urls`: one row of FIGURES, the unique clickers `n`, and
 * `parts`, JSON text of the heatmap cells (`part` cell or unplaced: band, x, y, clicks) and the
 * clicked elements (`part` element: event, x, y, chain, clicks) as k1..k4 and n.
 */
export function pageSummarySql(p: BehaviorRange, ctx: BehaviorScope, urls: string[]): Statement {
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const clicks = (table: ClickRollup) =>
    scanClicks(b, table, {
      projectId: ctx.projectId,
      timezone: ctx.timezone,
      from: p.date_from,
      to: p.date_to,
      rollup: p.filters.length === 0,
      where: [filtersCondition(b, p.filters, new Map())],
      urls,
    });
  const sql = `WITH pd AS (${byUrl(b, p, ctx, [], urls)}),
    cells AS (SELECT band, cx, cy, sum(clicks) AS n FROM (${clicks('click_cells')}) GROUP BY band, cx, cy),
    elements AS (SELECT event, chain, ex, ey, sum(clicks) AS n FROM (${clicks('click_elements')}) GROUP BY event, chain, ex, ey),
    parts AS (SELECT CASE WHEN band IS NULL THEN 'unplaced' ELSE 'cell' END AS part, band AS k1, cx AS k2, cy AS k3, NULL::VARCHAR AS k4, n FROM cells
      UNION ALL
      SELECT 'element', event, ex, ey, chain, n FROM elements)
    -- The cells and elements come as one JSON text: thousands of rows convert far faster that way.
    SELECT ${FIGURES.replaceAll('\n', ' ')}, (${clickersSql('pd', project)}) AS n,
      (SELECT CAST(to_json(coalesce(list({'part': part, 'k1': k1, 'k2': k2, 'k3': k3, 'k4': k4, 'n': n}), [])) AS VARCHAR) FROM parts) AS parts
      FROM pd`;
  return { sql, params: b.values };
}

/**
 * Distinct clicking actors per selector (`selector`, `n`), over the pp.click rows of the stored
 * URLs `urls` whose chain (JSON text) is one of the selector's in `pairs` (chain, selector): the
 * clickers click_elements keeps per row, with the raw events past its folded point (all raw with
 * filters), resolved to actors through identity_links.
 */
export function elementClickersSql(p: BehaviorRange, ctx: BehaviorScope, urls: string[], pairs: ReadonlyArray<readonly [string, string]>): Statement {
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const selectors = `(SELECT unnest(${b.bind(listValue(pairs.map(([chain]) => chain)))}::VARCHAR[]) AS chain, unnest(${b.bind(listValue(pairs.map(([, selector]) => selector)))}::VARCHAR[]) AS selector) s`;
  const rows = scanClicks(b, 'click_elements', {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    rollup: p.filters.length === 0,
    where: [filtersCondition(b, p.filters, new Map())],
    urls,
    clickers: true,
    elements: { event: 'pp.click', chains: [...new Set(pairs.map(([chain]) => chain))] },
  });
  return { sql: clickersSql(`(SELECT s.selector, c.clickers FROM (${rows}) c JOIN ${selectors} USING (chain))`, project, 'selector'), params: b.values };
}

/**
 * Forms (selector and page) by starts deduplicated per visit unit and local day (most first, then
 * form, page), `limit` rows after the keyset position `after` (starts, form, page).
 */
export function formsSql(p: BehaviorRange, ctx: BehaviorScope, limit: number, after?: readonly [number, string, string]): Statement {
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const fd = scanFormDays(b, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    rollup: p.filters.length === 0,
    where: [filtersCondition(b, p.filters, new Map())],
  });
  const keyset = after
    ? `WHERE a.starts < ${b.bind(after[0])} OR (a.starts = ${b.bind(after[0])} AND (a.form > ${b.bind(after[1])} OR (a.form = ${b.bind(after[1])} AND a.page > ${b.bind(after[2])})))`
    : '';
  const sql = `WITH fd AS (${fd}),
    pages AS (${pageUrlsSql('SELECT DISTINCT url FROM fd')}),
    fa AS (SELECT p.page, f.form, f.day, coalesce(l.actor_key, f.distinct_key) AS actor,
        coalesce('s:' || CAST(f.session_key AS VARCHAR), 'a:' || CAST(coalesce(l.actor_key, f.distinct_key) AS VARCHAR)) AS unit,
        f.starts, f.submits, f.abandons, f.durations
      FROM fd f JOIN pages p USING (url) LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_key = f.distinct_key
      WHERE p.page IS NOT NULL),
    visits AS (SELECT page, form, unit, day, sum(starts) > 0 AS started, sum(submits) > 0 AS submitted, sum(abandons) > 0 AS abandoned,
        sum(submits) AS submit_events
      FROM fa GROUP BY page, form, unit, day),
    per_visit AS (SELECT page, form, count(*) FILTER (WHERE started) AS starts, count(*) FILTER (WHERE submitted) AS submits,
        count(*) FILTER (WHERE started AND submitted) AS converted, count(*) FILTER (WHERE abandoned AND NOT submitted) AS abandons,
        sum(submit_events) - count(*) FILTER (WHERE submitted) AS resubmissions
      FROM visits GROUP BY page, form),
    per_actor AS (SELECT page, form, count(DISTINCT actor) FILTER (WHERE starts > 0) AS starters,
        count(DISTINCT actor) FILTER (WHERE submits > 0) AS submitters
      FROM fa GROUP BY page, form),
    durations AS (SELECT page, form, median(d) AS median_time_to_submit_ms FROM (SELECT page, form, unnest(durations) AS d FROM fa) GROUP BY page, form),
    a AS (SELECT v.*, pa.starters, pa.submitters, d.median_time_to_submit_ms
      FROM per_visit v JOIN per_actor pa USING (page, form) LEFT JOIN durations d USING (page, form))
    SELECT * FROM a ${keyset} ORDER BY a.starts DESC, a.form, a.page LIMIT ${b.bind(limit)}`;
  return { sql, params: b.values };
}

/**
 * Per page, its (visit unit, local day) pairs with a page view (`page`, `views`), from the sessions
 * and the session-less ids the page rollup keeps per stored URL and day (with the raw events past
 * it); `mapped` pairs each stored URL with its page.
 */
export function formViewsSql(p: BehaviorRange, ctx: BehaviorScope, mapped: ReadonlyArray<readonly [string, string]>): Statement {
  const b = new Binder();
  const project = b.bind(ctx.projectId);
  const urls = b.bind(listValue(mapped.map(([url]) => url)));
  const sql = `WITH m AS (SELECT unnest(${urls}::VARCHAR[]) AS url, unnest(${b.bind(listValue(mapped.map(([, page]) => page)))}::VARCHAR[]) AS page),
    pd AS (SELECT m.page, d.day, d.sessions, d.sessionless FROM (${byUrl(
      b,
      p,
      ctx,
      [],
      mapped.map(([url]) => url),
    )}) d JOIN m USING (url)),
    units AS (SELECT DISTINCT page, day, 's' AS kind, unnest(sessions) AS k FROM pd
      UNION
      SELECT DISTINCT a.page, a.day, 'a', coalesce(l.actor_key, a.k) FROM (SELECT page, day, unnest(sessionless) AS k FROM pd) a
        LEFT JOIN identity_links l ON l.project_id = ${project} AND l.distinct_key = a.k)
    SELECT page, count(*) AS views FROM units GROUP BY page`;
  return { sql, params: b.values };
}

/** The range's events of these names with a URL, each with its local day. */
function scan(b: Binder, p: BehaviorRange, ctx: BehaviorScope, columns: Record<string, string>, events: string): string {
  return scanEvents(b, (local) => ({ day: local.day, ...columns }), {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    where: [`e.event IN ${events}`, 'e.url IS NOT NULL', filtersCondition(b, p.filters, new Map())],
  });
}

const FIELD_TYPE = `'[{"field":"VARCHAR","tag":"VARCHAR","type":"VARCHAR","time_ms":"DOUBLE","focus_count":"DOUBLE","to_change_ms":"DOUBLE","corrections":"DOUBLE"}]'`;

/**
 * One form's attempts (submits and abandons, on page `page` when given): per field a `part` field
 * row with its figures, and one `part` form row with `attempts`, `submits` and `hesitation`.
 */
export function formDetailSql(p: BehaviorRange, ctx: BehaviorScope, form: string, page: string | null): Statement {
  const b = new Binder();
  const ev = scan(b, p, ctx, { url: 'e.url', event: 'e.event', uuid: 'e.uuid', props: 'e.props' }, "('pp.form_submit', 'pp.form_abandon')");
  const formValue = b.bind(form);
  const pageCondition = page === null ? 'TRUE' : `p.page = ${b.bind(page)}`;
  const sql = `WITH ev AS (${ev}),
    pages AS (${pageUrlsSql('SELECT DISTINCT url FROM ev')}),
    att AS (SELECT ev.uuid, ev.event = 'pp.form_submit' AS submitted, ev.props
      FROM ev JOIN pages p USING (url) WHERE p.page IS NOT NULL AND ${pageCondition} AND json_extract_string(ev.props, '$.form') = ${formValue}),
    f AS (SELECT uuid, unnest(coalesce(TRY(from_json(json_extract(props, '$.fields'), ${FIELD_TYPE})), [])) AS f FROM att),
    fields AS (SELECT f.field AS field, min(f.tag) AS tag, min(f.type) AS type, count(DISTINCT uuid) AS interactions,
        median(f.time_ms) AS median_time_ms, median(f.to_change_ms) AS median_to_change_ms,
        sum(greatest(coalesce(f.focus_count, 1) - 1, 0)) AS refocuses, sum(coalesce(f.corrections, 0)) AS corrections
      FROM f WHERE f.field IS NOT NULL GROUP BY f.field),
    drops AS (SELECT json_extract_string(props, '$.last_field') AS field, count(*) AS drop_offs FROM att WHERE NOT submitted GROUP BY 1),
    blanks AS (SELECT field, count(DISTINCT uuid) AS left_blank FROM (
        SELECT uuid, unnest(coalesce(TRY(from_json(json_extract(props, '$.blank_fields'), '["VARCHAR"]')), [])) AS field FROM att WHERE submitted) GROUP BY field),
    names AS (SELECT field FROM fields UNION SELECT field FROM drops UNION SELECT field FROM blanks)
    SELECT 'field' AS part, n.field, fl.tag, fl.type, coalesce(d.drop_offs, 0) AS drop_offs, coalesce(fl.interactions, 0) AS interactions,
        fl.median_time_ms, fl.median_to_change_ms, coalesce(fl.refocuses, 0) AS refocuses, coalesce(fl.corrections, 0) AS corrections,
        coalesce(bl.left_blank, 0) AS left_blank, NULL::BIGINT AS attempts, NULL::BIGINT AS submits, NULL::DOUBLE AS hesitation
      FROM names n LEFT JOIN fields fl USING (field) LEFT JOIN drops d USING (field) LEFT JOIN blanks bl USING (field) WHERE n.field IS NOT NULL
    UNION ALL
    SELECT 'form', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*), count(*) FILTER (WHERE submitted),
        median(TRY_CAST(json_extract_string(props, '$.since_load_ms') AS DOUBLE))
      FROM att`;
  return { sql, params: b.values };
}
