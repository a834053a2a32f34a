// click_cells and click_elements (migrations/duckdb/0027, 0032): per project, local day and stored
// URL, the clicks of the heatmap by placement and by element, and who clicked each element. How the
// folder writes and merges their rows, and how the heatmap reads them together with the raw events
// not yet folded.

import { listValue } from '@duckdb/node-api';
import { scanEvents } from '../eventScan.js';
import type { Binder } from '../sql.js';
import { compactByMonth } from './compactByMonth.js';
import { foldedPoint, type DayScanOptions } from './foldedPoint.js';

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
  const band = `CASE ${HEATMAP_BANDS.slice(1)
    .reverse()
    .map((b) => `WHEN ${vw} >= ${b.min_width} THEN '${b.band}'`)
    .join(' ')} ELSE '${HEATMAP_BANDS[0].band}' END`;
  return {
    band: `CASE WHEN ${placed} THEN ${band} END`,
    cx: `CASE WHEN ${placed} AND NOT ${fixed} THEN least(${100 - X_STEP_PERCENT}, greatest(0, floor(100 * ${x} / ${vw} / ${X_STEP_PERCENT}) * ${X_STEP_PERCENT})) END`,
    cy: `CASE WHEN ${placed} AND NOT ${fixed} THEN greatest(0, floor(${y} / ${Y_STEP_PX}) * ${Y_STEP_PX}) END`,
  };
}

/** A clickish event's element chain and the 10 % cell inside it, from `event`, `elements` and `j` (see 0027). */
function clickElementColumns(): Record<string, string> {
  const n = (i: number) => `TRY_CAST(json_extract_string(j[${i}], '$') AS DOUBLE)`;
  const cell = (i: number) =>
    `CASE WHEN event = 'pp.click' AND ${n(1)} IS NOT NULL AND ${n(2)} IS NOT NULL THEN least(${100 - ELEMENT_STEP_PERCENT}, greatest(0, floor(${n(i)} / ${ELEMENT_STEP_PERCENT}) * ${ELEMENT_STEP_PERCENT})) END`;
  return { event: 'event', chain: 'CAST(elements AS VARCHAR)', ex: cell(1), ey: cell(2) };
}

/**
 * The click rollups: their keys past (project, day, url), how they are computed, from which events,
 * and whether a row also holds `clickers`, the distinct keys of the ids whose clicks it counts.
 */
export const CLICK_ROLLUPS = {
  click_cells: { keys: ['band', 'cx', 'cy'], columns: clickCellColumns, paths: ['$.x', '$.y', '$.vw', '$.fixed'], where: "e.event = 'pp.click'", clickers: false },
  click_elements: { keys: ['event', 'chain', 'ex', 'ey'], columns: clickElementColumns, paths: ['$.ox', '$.oy'], where: `e.event IN ${CLICKISH} AND e.elements IS NOT NULL`, clickers: true },
} as const;
export type ClickRollup = keyof typeof CLICK_ROLLUPS;

/**
 * The columns of `e` a click rollup is computed from (`event`, `elements`, `j`, and `distinct_key`
 * with `clickers`), besides the lead ones.
 */
export function clickSourceColumns(table: ClickRollup, clickers: boolean): Record<string, string> {
  return {
    event: 'e.event',
    elements: 'e.elements',
    j: `json_extract(e.props, [${CLICK_ROLLUPS[table].paths.map((p) => `'${p}'`).join(', ')}])`,
    ...(clickers ? { distinct_key: 'e.distinct_key' } : {}),
  };
}

/**
 * A click rollup's rows from `inner` (with the `lead` columns and clickSourceColumns), counted, with
 * their `clickers` when asked: counted per key and id first, then listed, so that the aggregate
 * holding lists (which cannot spill to disk) has one small state per row and no distinct set.
 */
export function clickRollupRows(table: ClickRollup, inner: string, lead: string[], clickers: boolean): string {
  const r = CLICK_ROLLUPS[table];
  const columns = r.columns();
  const keys = [...lead, ...r.keys].join(', ');
  const rows = `SELECT ${lead.join(', ')}, ${r.keys.map((k) => `${columns[k]} AS ${k}`).join(', ')}${clickers ? ', distinct_key' : ''} FROM (${inner})`;
  if (!clickers) return `SELECT ${keys}, count(*) AS clicks FROM (${rows}) GROUP BY ${keys}`;
  return `SELECT ${keys}, sum(n)::BIGINT AS clicks, coalesce(list(distinct_key) FILTER (WHERE distinct_key IS NOT NULL), CAST([] AS UBIGINT[])) AS clickers FROM (
    SELECT ${keys}, distinct_key, count(*) AS n FROM (${rows}) GROUP BY ${keys}, distinct_key)
    GROUP BY ${keys}`;
}

/** (project, local day, URL, placement) counts of the clicks joined to `z` and matching `where`, for the heatmap (click_cells, click_elements). */
export const foldClicks = (table: ClickRollup, where: string) =>
  clickRollupRows(
    table,
    `SELECT e.project_id, CAST(timezone(z.timezone, e.ts) AS DATE) AS day, e.url,
      ${Object.entries(clickSourceColumns(table, CLICK_ROLLUPS[table].clickers))
        .map(([k, v]) => `${v} AS ${k}`)
        .join(', ')}
    FROM events e JOIN (SELECT unnest($ids) AS project_id, unnest($zones) AS timezone) z ON z.project_id = e.project_id
    WHERE ${CLICK_ROLLUPS[table].where} AND e.url IS NOT NULL AND ${where}`,
    ['project_id', 'day', 'url'],
    CLICK_ROLLUPS[table].clickers,
  );

/** The click rollup tables. */
export const CLICK_TABLES = Object.keys(CLICK_ROLLUPS) as ClickRollup[];

/**
 * Rows of a click rollup merged by one statement of its compaction: fewer than page_days', since
 * each holds a list (click_elements has about as many rows as clicks).
 */
const CLICK_ROWS_PER_MERGE = 200_000;

/**
 * Merges the delta rows of the click rollup `t` into one row per key (see actorDayFolder.ts's
 * compaction), whole project-months at a time as page_days is (its lists need as much memory).
 * `run` and `read` are the compaction's transaction's.
 */
export function compactClicks(t: ClickRollup, run: (sql: string) => Promise<void>, read: (sql: string) => Promise<Array<Record<string, unknown>>>, perMerge = CLICK_ROWS_PER_MERGE): Promise<void> {
  const merged = CLICK_ROLLUPS[t].clickers ? 'sum(clicks), list_distinct(flatten(list(clickers)))' : 'sum(clicks)';
  return compactByMonth(t, ['project_id', 'day', 'url', ...CLICK_ROLLUPS[t].keys], merged, run, read, perMerge);
}

/** Which rows of click_elements a scan keeps, in both its parts: those of one event name and of these chains (JSON text). */
export interface ElementRows {
  event: string;
  chains: string[];
}

/**
 * `SELECT url, day, <keys>, clicks` of a click rollup for the stored URLs `urls` (with `clickers`
 * when asked, of a rollup that holds them): the folded rows where the rollup is folded in this
 * zone, plus the raw events past the folded rowid, in one snapshot. `where` applies to the raw
 * part only; `elements` to both. Without `rollup` every raw event is read.
 */
export function scanClicks(
  b: Binder,
  table: ClickRollup,
  o: Omit<DayScanOptions, 'event' | 'actors'> & { rollup: boolean; where: string[]; urls: string[]; clickers?: boolean; elements?: ElementRows },
): string {
  const r = CLICK_ROLLUPS[table];
  const clickers = o.clickers === true;
  if (clickers && !r.clickers) throw new Error(`${table} holds no clickers`);
  const urlList = `(${o.urls.length > 0 ? o.urls.map((u) => b.bind(u)).join(', ') : 'NULL'})`;
  // The bounds are a filter the scan applies itself, before it reads the other columns; the list
  // alone becomes a join after the scan.
  const rawWhere = [r.where, 'e.url IS NOT NULL', `e.url IN ${urlList}`, ...o.where];
  if (o.urls.length > 0) rawWhere.push(`e.url BETWEEN ${b.bind(o.urls[0]!)} AND ${b.bind(o.urls[o.urls.length - 1]!)}`);
  const foldedWhere: string[] = [];
  if (o.elements) {
    if (table !== 'click_elements') throw new Error(`${table} has no elements`);
    const event = b.bind(o.elements.event);
    // One list bound: hundreds of chains bound one by one take longer to plan than the scan takes.
    const chains = `(SELECT unnest(${b.bind(listValue(o.elements.chains))}::VARCHAR[]))`;
    rawWhere.push(`e.event = ${event}`, `CAST(e.elements AS VARCHAR) IN ${chains}`);
    foldedWhere.push(`d.event = ${event}`, `d.chain IN ${chains}`);
  }
  let folded = '';
  if (o.rollup) {
    const point = foldedPoint(b, { ...o, event: 'any' });
    folded = `SELECT ${['url', 'day', ...r.keys].map((c) => `d.${c}`).join(', ')}, d.clicks${clickers ? ', d.clickers' : ''} FROM ${table} d
      WHERE ${[`d.project_id = ${point.project}`, ...point.rollupWhere, `d.url IN ${urlList}`, ...foldedWhere].join(' AND ')}
  UNION ALL
  `;
    rawWhere.push(point.rawWhere);
  }
  const raw = scanEvents(b, (local) => ({ url: 'e.url', day: local.day, ...clickSourceColumns(table, clickers) }), {
    projectId: o.projectId,
    timezone: o.timezone,
    from: o.from,
    to: o.to,
    where: rawWhere,
  });
  return `${folded}${clickRollupRows(table, raw, ['url', 'day'], clickers)}`;
}
