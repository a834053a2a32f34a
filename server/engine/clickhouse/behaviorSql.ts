// The ClickHouse statements of the behavior reports (docs/behavior.md), with the shapes and the
// meaning of ../duckdb/behaviorSql.ts: pages ranked by events with their click, rage/dead-click and
// scroll figures, one page's figures with its heatmap cells and clicked element chains, the
// clickers per selector, and the forms reports. DuckDB reads its per-day rollups (page_days,
// click_cells, click_elements, form_days) and the raw events past them; ClickHouse keeps no such
// rollups and reads the raw events (`events` FINAL) of the range each time, grouped by stored URL
// first and by normalized page after (pageUrl below, once per stored URL, never per event), the
// way the rollups group them. Values are literals (literal.ts).
//
// What DuckDB reads from `props` with json_extract_string comes from the property columns
// (properties.ts); a JSON number from its exact order key, never from float text. The arrays of a
// form attempt (`fields`, `blank_fields`) are read from the array's JSON text as the appender
// writes it (no spaces, strings escaped): the objects of `fields` as flat objects, their keys with
// visitParam* (18.16 has no JSON functions). The tracker's objects are flat; a nested value inside
// one is not read as DuckDB's from_json would read it.

import type { Statement } from '../engine.js';
import type { BehaviorRange, BehaviorScope } from '../duckdb/behaviorSql.js';
import { HEATMAP_BANDS, X_STEP_PERCENT, Y_STEP_PX, ELEMENT_STEP_PERCENT } from '../rollups/clickDays.js';
import { filtersCondition, propertyText } from './conditions.js';
import { ACTOR } from './identity.js';
import { literal } from './literal.js';
import { scanEvents, type ScanColumns } from './scan.js';

export type { BehaviorRange, BehaviorScope } from '../duckdb/behaviorSql.js';

/** Where the top-level key `key` sits among `e.prop_keys` (0 where absent). */
const keyIndex = (key: string) => `indexOf(e.prop_keys, ${literal(key)})`;

/**
 * DuckDB's TRY_CAST(json_extract_string(e.props, '$.key') AS DOUBLE): a JSON number exactly (its
 * order key turned back into its bits), a string read as a number, NULL otherwise.
 */
function propertyNumber(key: string): string {
  const order = `ifNull(e.prop_numbers[${keyIndex(key)}], 0)`;
  const exact = `if(${order} >= 0, reinterpretAsFloat64(reinterpretAsString(${order})), -reinterpretAsFloat64(reinterpretAsString(-${order})))`;
  return `if(isNotNull(e.prop_numbers[${keyIndex(key)}]), ${exact}, toFloat64OrNull(${propertyText(key)}))`;
}

/** DuckDB's coalesce(TRY_CAST(json_extract_string(e.props, '$.key') AS BOOLEAN), false). */
const propertyTrue = (key: string) => `(lower(ifNull(${propertyText(key)}, '')) IN ('true', 't', '1', 'yes', 'y'))`;

/** The JSON text of an array at the top-level key `key` ('' for anything else). */
const propertyArray = (key: string) => `if(e.prop_kinds[${keyIndex(key)}] = 5, ifNull(${propertyText(key)}, ''), '')`;

/**
 * `SELECT *, page` of `rows` (with a text column `url`): the page of each stored URL, the rule of
 * behavior/pageUrl.ts's normalizePageUrl (and of ../duckdb/pageUrlSql.ts), NULL for an empty one.
 * RE2 throughout (linear in the URL); positions and lengths in bytes, as the patterns match ASCII.
 */
function withPage(rows: string): string {
  const url = 'assumeNotNull(url)';
  const origin = `if(pu_o = '', '', replaceRegexpOne(replaceRegexpOne(lowerUTF8(pu_o), '(?s)^(http://.*):80$', '\\\\1'), '(?s)^(https://.*):443$', '\\\\1'))`;
  const path = `replaceRegexpOne(if(pu_o = '', pu_base, if(pu_rest = '', '/', pu_rest)), '(?s)(.)/+$', '\\\\1')`;
  const fragment = `if(match(pu_frag, '^#[/!]'), pu_frag, '')`;
  return `SELECT *, extract(${url}, '^([^#?]*)') AS pu_base, if(position(${url}, '#') > 0, substring(${url}, position(${url}, '#')), '') AS pu_frag,
      extract(pu_base, '^([A-Za-z][A-Za-z0-9+.-]*://[^/]*)') AS pu_o, substring(pu_base, length(pu_o) + 1) AS pu_rest,
      nullIf(concat(${origin}, ${path}, ${fragment}), '') AS page
    FROM (${rows})`;
}

/** The range's events (`e`) with these columns, matching the report's filters and `where`. */
function scan(p: BehaviorRange, ctx: BehaviorScope, columns: ScanColumns, where: string[]): string {
  return scanEvents(columns, {
    projectId: ctx.projectId,
    timezone: ctx.timezone,
    from: p.date_from,
    to: p.date_to,
    where: [...where, filtersCondition(p.filters, new Map())],
  });
}

/** `e.url IN (urls)` (nothing for no URL). */
const inUrls = (urls: readonly string[]) => (urls.length === 0 ? '0' : `e.url IN (${urls.map(literal).join(', ')})`);

/** What page_days counts: events with a URL that are not labeled events. */
const PAGE_EVENTS = ['isNotNull(e.url)', 'isNull(e.rule_id)'];

/** A scroll depth's percent (NULL for other events), as page_days folds it. */
const SCROLL_PERCENT = `if(e.event = 'pp.scroll_depth', ${propertyNumber('percent')}, NULL)`;

/** The page figures of rows with `event` and `pct`, per stored URL of page_days, and the clickers' state. */
const URL_FIGURES = `count() AS u_events, countIf(event = 'pp.page_view') AS u_page_views, countIf(event = 'pp.click') AS u_clicks,
  countIf(event = 'pp.rage_click') AS u_rage_clicks, countIf(event = 'pp.dead_click') AS u_dead_clicks, countIf(isNotNull(pct)) AS u_measured,
  countIf(ifNull(pct >= 25, 0)) AS u_r25, countIf(ifNull(pct >= 50, 0)) AS u_r50, countIf(ifNull(pct >= 75, 0)) AS u_r75, countIf(ifNull(pct >= 100, 0)) AS u_r100,
  sum(pct) AS u_depth_sum, uniqExactIfState(actor, event = 'pp.click') AS u_clickers`;

/** The headline figures summed over rows of URL_FIGURES, with `unique_clickers`. */
const FIGURES = `sum(u_events) AS events, sum(u_page_views) AS page_views, sum(u_clicks) AS clicks, sum(u_rage_clicks) AS rage_clicks,
  sum(u_dead_clicks) AS dead_clicks, sum(u_measured) AS measured, sum(u_r25) AS r25, sum(u_r50) AS r50, sum(u_r75) AS r75, sum(u_r100) AS r100,
  sum(u_depth_sum) AS depth_sum, uniqExactIfMerge(u_clickers) AS unique_clickers`;

/** The page figures per stored URL of the range's events matching `where`. */
function byUrl(p: BehaviorRange, ctx: BehaviorScope, where: string[]): string {
  const rows = scan(p, ctx, { url: 'e.url', event: 'e.event', actor: ACTOR, pct: SCROLL_PERCENT }, [...PAGE_EVENTS, ...where]);
  return `SELECT url, ${URL_FIGURES} FROM (${rows}) GROUP BY url`;
}

/** The stored URLs of the range: `url`; `part`, when given, a text each contains. */
export function storedUrlsSql(p: BehaviorRange, ctx: BehaviorScope, part?: string): Statement {
  const within = part === undefined ? [] : [`position(e.url, ${literal(part)}) > 0`];
  return { sql: `SELECT DISTINCT url FROM (${scan(p, ctx, { url: 'e.url' }, [...PAGE_EVENTS, ...within])})`, params: [] };
}

/**
 * Pages by event count (most first, then page), `limit` rows after the keyset position `after`
 * (events, page): the figures and `unique_clickers`.
 */
export function behaviorUrlsSql(p: BehaviorRange, ctx: BehaviorScope, limit: number, after?: readonly [number, string]): Statement {
  const keyset = after ? `HAVING events < ${literal(after[0])} OR (events = ${literal(after[0])} AND page > ${literal(after[1])})` : '';
  const sql = `SELECT page, ${FIGURES} FROM (${withPage(byUrl(p, ctx, []))}) WHERE isNotNull(page)
    GROUP BY page ${keyset} ORDER BY events DESC, page LIMIT ${literal(limit)}`;
  return { sql, params: [] };
}

/** Text as a JSON string (the values here hold no control character: bands, event names, chains' JSON text). */
const jsonString = (s: string) => `if(isNull(${s}), 'null', concat('"', replaceAll(replaceAll(assumeNotNull(${s}), '\\\\', '\\\\\\\\'), '"', '\\\\"'), '"'))`;
/** A number as JSON. */
const jsonNumber = (n: string) => `if(isNull(${n}), 'null', toString(assumeNotNull(${n})))`;

const CLICKISH = "('pp.click', 'pp.rage_click', 'pp.dead_click')";

/** A click's heatmap cell (band, cx, cy), as click_cells folds it. */
function cellColumns(): Record<string, string> {
  const [x, y, vw] = [propertyNumber('x'), propertyNumber('y'), propertyNumber('vw')];
  const placed = `(isNotNull(${vw}) AND ifNull(${vw} > 0, 0) AND isNotNull(${x}) AND isNotNull(${y}))`;
  const band = `multiIf(${HEATMAP_BANDS.slice(1)
    .reverse()
    .map((b) => `${vw} >= ${b.min_width}, '${b.band}'`)
    .join(', ')}, '${HEATMAP_BANDS[0].band}')`;
  const free = `${placed} AND NOT ${propertyTrue('fixed')}`;
  return {
    band: `if(${placed}, ${band}, NULL)`,
    cx: `if(${free}, least(${100 - X_STEP_PERCENT}, greatest(0, floor(100 * ${x} / ${vw} / ${X_STEP_PERCENT}) * ${X_STEP_PERCENT})), NULL)`,
    cy: `if(${free}, greatest(0, floor(${y} / ${Y_STEP_PX}) * ${Y_STEP_PX}), NULL)`,
  };
}

/** A clickish event's element chain and the 10 % cell inside it, as click_elements folds it. */
function elementColumns(): Record<string, string> {
  const [ox, oy] = [propertyNumber('ox'), propertyNumber('oy')];
  const cell = (n: string) =>
    `if(e.event = 'pp.click' AND isNotNull(${ox}) AND isNotNull(${oy}), least(${100 - ELEMENT_STEP_PERCENT}, greatest(0, floor(${n} / ${ELEMENT_STEP_PERCENT}) * ${ELEMENT_STEP_PERCENT})), NULL)`;
  return { event: 'e.event', chain: 'e.elements', ex: cell(ox), ey: cell(oy) };
}

/**
 * One page's figures over its stored URLs `urls`: one row of the figures, the unique clickers `n`,
 * and `parts`, JSON text of the heatmap cells (`part` cell or unplaced: band, x, y, clicks) and the
 * clicked elements (`part` element: event, x, y, chain, clicks) as k1..k4 and n.
 */
export function pageSummarySql(p: BehaviorRange, ctx: BehaviorScope, urls: string[]): Statement {
  const figures = `SELECT ${FIGURES.replace('AS unique_clickers', 'AS n')} FROM (${byUrl(p, ctx, [inUrls(urls)])})`;
  const cells = `SELECT band, cx, cy, count() AS n FROM (${scan(p, ctx, cellColumns(), ["e.event = 'pp.click'", 'isNotNull(e.url)', inUrls(urls)])}) GROUP BY band, cx, cy`;
  const elements = `SELECT event, chain, ex, ey, count() AS n FROM (${scan(p, ctx, elementColumns(), [`e.event IN ${CLICKISH}`, 'isNotNull(e.elements)', 'isNotNull(e.url)', inUrls(urls)])})
    GROUP BY event, chain, ex, ey`;
  const parts = `SELECT concat('[', arrayStringConcat(groupArray(j), ','), ']') AS parts FROM (
      SELECT concat('{"part":"', if(isNull(band), 'unplaced', 'cell'), '","k1":', ${jsonString('band')}, ',"k2":', ${jsonNumber('cx')}, ',"k3":', ${jsonNumber('cy')},
        ',"k4":null,"n":', toString(n), '}') AS j FROM (${cells})
      UNION ALL
      SELECT concat('{"part":"element","k1":', ${jsonString('event')}, ',"k2":', ${jsonNumber('ex')}, ',"k3":', ${jsonNumber('ey')}, ',"k4":', ${jsonString('chain')},
        ',"n":', toString(n), '}') AS j FROM (${elements}))`;
  return { sql: `SELECT * FROM (${figures}) CROSS JOIN (${parts})`, params: [] };
}

/**
 * Distinct clicking actors per selector (`selector`, `n`), over the pp.click events of the stored
 * URLs `urls` whose chain (JSON text) is one of the selector's in `pairs` (chain, selector).
 */
export function elementClickersSql(p: BehaviorRange, ctx: BehaviorScope, urls: string[], pairs: ReadonlyArray<readonly [string, string]>): Statement {
  const chains = [...new Set(pairs.map(([chain]) => chain))];
  const rows = scan(p, ctx, { chain: 'assumeNotNull(e.elements)', actor: ACTOR }, [
    "e.event = 'pp.click'",
    'isNotNull(e.url)',
    inUrls(urls),
    chains.length === 0 ? '0' : `isNotNull(e.elements) AND assumeNotNull(e.elements) IN (${chains.map(literal).join(', ')})`,
  ]);
  const selector = `transform(chain, ${literal(pairs.map(([chain]) => chain))}, ${literal(pairs.map(([, s]) => s))}, '')`;
  return {
    sql: `SELECT selector, uniqExactMerge(s) AS n FROM (SELECT ${selector} AS selector, s FROM (SELECT chain, uniqExactState(actor) AS s FROM (${rows}) GROUP BY chain)) GROUP BY selector`,
    params: [],
  };
}

/** The median of a sorted array of doubles (NULL for none), interpolated as DuckDB's median. */
function medianOf(sorted: string): string {
  const lo = `${sorted}[intDiv(length(${sorted}) - 1, 2) + 1]`;
  const hi = `${sorted}[intDiv(length(${sorted}), 2) + 1]`;
  return `if(length(${sorted}) = 0, NULL, ${lo} + (${hi} - ${lo}) / 2)`;
}

const FORM_EVENTS = "('pp.form_start', 'pp.form_submit', 'pp.form_abandon')";

/** A visit unit: the session, or the actor for session-less events. */
const UNIT = "if(isNull(session_id), concat('a:', toString(actor)), concat('s:', assumeNotNull(session_id)))";

/**
 * Forms (selector and page) by starts deduplicated per visit unit and local day (most first, then
 * form, page), `limit` rows after the keyset position `after` (starts, form, page).
 */
export function formsSql(p: BehaviorRange, ctx: BehaviorScope, limit: number, after?: readonly [number, string, string]): Statement {
  const form = propertyText('form');
  const events = scan(
    p,
    ctx,
    (local) => ({
      url: 'e.url',
      day: local.day,
      event: 'e.event',
      actor: ACTOR,
      session_id: 'e.session_id',
      form: `assumeNotNull(${form})`,
      duration: `if(e.event = 'pp.form_submit', ${propertyNumber('duration_ms')}, NULL)`,
    }),
    [`e.event IN ${FORM_EVENTS}`, 'isNotNull(e.url)', `isNotNull(${form})`],
  );
  // Per stored URL, form, visit unit, day and actor (form_days' rows), then per page.
  const byUrl = `SELECT url, form, day, actor, ${UNIT} AS unit, countIf(event = 'pp.form_start') AS n_starts, countIf(event = 'pp.form_submit') AS n_submits,
      countIf(event = 'pp.form_abandon') AS n_abandons, groupArrayIf(assumeNotNull(duration), event = 'pp.form_submit' AND isNotNull(duration)) AS d1
    FROM (${events}) GROUP BY url, form, day, actor, unit`;
  const visits = `SELECT page, form, unit, day, sum(n_starts) > 0 AS started, sum(n_submits) > 0 AS submitted, sum(n_abandons) > 0 AS abandoned,
      sum(n_submits) AS submit_events, groupUniqArrayIf(actor, n_starts > 0) AS starting, groupUniqArrayIf(actor, n_submits > 0) AS submitting,
      groupArrayArray(d1) AS d2
    FROM (${withPage(byUrl)}) WHERE isNotNull(page) GROUP BY page, form, unit, day`;
  const keyset = after
    ? `HAVING starts < ${literal(after[0])} OR (starts = ${literal(after[0])} AND (form > ${literal(after[1])} OR (form = ${literal(after[1])} AND page > ${literal(after[2])})))`
    : '';
  const sql = `SELECT page, form, countIf(started) AS starts, countIf(submitted) AS submits, countIf(started AND submitted) AS converted,
      countIf(abandoned AND NOT submitted) AS abandons, sum(submit_events) - countIf(submitted) AS resubmissions,
      length(groupUniqArrayArray(starting)) AS starters, length(groupUniqArrayArray(submitting)) AS submitters,
      arraySort(groupArrayArray(d2)) AS durations, ${medianOf('durations')} AS median_time_to_submit_ms
    FROM (${visits}) GROUP BY page, form ${keyset} ORDER BY starts DESC, form, page LIMIT ${literal(limit)}`;
  return { sql, params: [] };
}

/**
 * Per page, its (visit unit, local day) pairs with a page view (`page`, `views`): the sessions,
 * and the actors of session-less views; `mapped` pairs each stored URL with its page.
 */
export function formViewsSql(p: BehaviorRange, ctx: BehaviorScope, mapped: ReadonlyArray<readonly [string, string]>): Statement {
  const rows = scan(p, ctx, (local) => ({ url: 'e.url', day: local.day, actor: ACTOR, session_id: 'e.session_id' }), ["e.event = 'pp.page_view'", ...PAGE_EVENTS, inUrls(mapped.map(([url]) => url))]);
  const page = `transform(assumeNotNull(url), ${literal(mapped.map(([url]) => url))}, ${literal(mapped.map(([, pg]) => pg))}, '')`;
  return { sql: `SELECT page, uniqExact(day, unit) AS views FROM (SELECT ${page} AS page, day, ${UNIT} AS unit FROM (${rows})) GROUP BY page`, params: [] };
}

/** A flat JSON object inside an array's text: strings skipped whole, so braces inside them do not count (RE2, linear). */
const FLAT_OBJECT = String.raw`\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*\}`;
/** A JSON string inside an array's text. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/** The text value of `key` in the flat object `o` (NULL where absent or null; a number's or boolean's text as it is). */
function objectText(o: string, key: string): string {
  const raw = `visitParamExtractRaw(${o}, ${literal(key)})`;
  return `multiIf(${raw} IN ('', 'null'), CAST(NULL AS Nullable(String)), startsWith(${raw}, '"'), toNullable(visitParamExtractString(${o}, ${literal(key)})), toNullable(${raw}))`;
}

/** The number value of `key` in the flat object `o` (NULL where absent, null or not a number). */
const objectNumber = (o: string, key: string) => `toFloat64OrNull(${objectText(o, key)})`;

/**
 * One form's attempts (submits and abandons, on page `page` when given): per field a `part` field
 * row with its figures, and one `part` form row with `attempts`, `submits` and `hesitation`.
 */
export function formDetailSql(p: BehaviorRange, ctx: BehaviorScope, form: string, page: string | null): Statement {
  const events = scan(
    p,
    ctx,
    {
      url: 'e.url',
      uuid: 'e.uuid',
      submitted: "e.event = 'pp.form_submit'",
      fields_text: propertyArray('fields'),
      blanks_text: propertyArray('blank_fields'),
      last_field: propertyText('last_field'),
      since: propertyNumber('since_load_ms'),
    },
    ["e.event IN ('pp.form_submit', 'pp.form_abandon')", 'isNotNull(e.url)', `ifNull(${propertyText('form')} = ${literal(form)}, 0)`],
  );
  const att = `SELECT uuid, submitted, fields_text, blanks_text, last_field, since FROM (${withPage(events)})
    WHERE isNotNull(page)${page === null ? '' : ` AND page = ${literal(page)}`}`;
  const none = 'CAST(NULL AS Nullable(Float64))';
  const noText = 'CAST(NULL AS Nullable(String))';
  // One row per field mention: an interaction (f), an abandon's last field (d), a submit's blank field (b).
  const mentions = `SELECT 'f' AS kind, uuid, ${objectText('o', 'field')} AS field, ${objectText('o', 'tag')} AS m_tag, ${objectText('o', 'type')} AS m_type,
        ${objectNumber('o', 'time_ms')} AS m_time, ${objectNumber('o', 'to_change_ms')} AS m_change,
        ${objectNumber('o', 'focus_count')} AS m_focus, ${objectNumber('o', 'corrections')} AS m_corrections
      FROM (${att}) ARRAY JOIN extractAll(fields_text, ${literal(FLAT_OBJECT)}) AS o
    UNION ALL
    SELECT 'd', uuid, last_field, ${noText}, ${noText}, ${none}, ${none}, ${none}, ${none} FROM (${att}) WHERE NOT submitted
    UNION ALL
    SELECT 'b', uuid, toNullable(visitParamExtractString(concat('{"b":', s, '}'), 'b')), ${noText}, ${noText}, ${none}, ${none}, ${none}, ${none}
      FROM (${att}) ARRAY JOIN extractAll(blanks_text, ${literal(JSON_STRING)}) AS s WHERE submitted`;
  const isF = "kind = 'f'";
  const fields = `SELECT 'field' AS part, field, minIf(m_tag, ${isF}) AS tag, minIf(m_type, ${isF}) AS type, toNullable(countIf(kind = 'd')) AS drop_offs,
      toNullable(uniqExactIf(uuid, ${isF})) AS interactions,
      arraySort(groupArrayIf(assumeNotNull(m_time), ${isF} AND isNotNull(m_time))) AS times, toNullable(${medianOf('times')}) AS median_time_ms,
      arraySort(groupArrayIf(assumeNotNull(m_change), ${isF} AND isNotNull(m_change))) AS changes, toNullable(${medianOf('changes')}) AS median_to_change_ms,
      toNullable(toFloat64(sumIf(greatest(ifNull(m_focus, 1) - 1, 0), ${isF}))) AS refocuses, toNullable(toFloat64(sumIf(ifNull(m_corrections, 0), ${isF}))) AS corrections,
      toNullable(uniqExactIf(uuid, kind = 'b')) AS left_blank,
      CAST(NULL AS Nullable(UInt64)) AS attempts, CAST(NULL AS Nullable(UInt64)) AS submits, ${none} AS hesitation
    FROM (${mentions}) WHERE isNotNull(field) GROUP BY field`;
  const head = `SELECT 'form' AS part, ${noText} AS field, ${noText} AS tag, ${noText} AS type, CAST(NULL AS Nullable(UInt64)) AS drop_offs,
      CAST(NULL AS Nullable(UInt64)) AS interactions, ${none} AS median_time_ms, ${none} AS median_to_change_ms, ${none} AS refocuses, ${none} AS corrections,
      CAST(NULL AS Nullable(UInt64)) AS left_blank, toNullable(count()) AS attempts, toNullable(countIf(submitted)) AS submits,
      arraySort(groupArrayIf(assumeNotNull(since), isNotNull(since))) AS sinces, toNullable(${medianOf('sinces')}) AS hesitation
    FROM (${att})`;
  const columns = 'part, field, tag, type, drop_offs, interactions, median_time_ms, median_to_change_ms, refocuses, corrections, left_blank, attempts, submits, hesitation';
  return { sql: `SELECT ${columns} FROM (${fields}) UNION ALL SELECT ${columns} FROM (${head})`, params: [] };
}
