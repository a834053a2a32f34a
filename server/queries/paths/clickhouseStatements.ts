// Paths: the ClickHouse statement, the rows of the DuckDB one (statements.ts) read from the raw
// events, and the reader that hands them to routesOf. Pure but for the reader's arrays.
//
// 18.16 has no window functions: anchored actors are numbered by enumerating one array of them,
// session-less events split into sessions by a running sum over each actor's sorted times, and
// sessions are numbered by enumerating the array of them. Each row carries its item's text; the
// reader numbers the items in their text order (bytes, then page view last), as DuckDB's `dict`.

import { fieldText, filtersCondition } from '../../engine/clickhouse/conditions.js';
import { ACTOR, actorOf } from '../../engine/clickhouse/identity.js';
import { literal } from '../../engine/clickhouse/literal.js';
import { cleanedPagesSql } from '../../engine/clickhouse/pathCleaningSql.js';
import { EVENT_MS, scanEvents } from '../../engine/clickhouse/scan.js';
import type { ChunkedResult, Row } from '../../engine/engine.js';
import { compareText, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import { MAX_CLEANED_PATH } from '../pathCleaning.js';
import type { DateRange } from '../ranges.js';
import { routesOf, type RouteResult } from './routes.js';
import type { PathsRun } from './run.js';
import { PAGE_VIEW, SESSION_GAP_MS, type PathsParams } from './types.js';

export function pathsClickHouse(p: PathsParams, range: DateRange, ctx: QueryContext, listing = false): BuiltSql {
  const after = p.direction === 'after';
  const session = p.mode === 'session';
  const exclude = p.exclude_events ?? [];
  const pageView = literal(PAGE_VIEW);
  const scan = (columns: Record<string, string>, where: string[] = []) =>
    scanEvents(columns, { projectId: ctx.projectId, timezone: ctx.timezone, from: range.date_from, to: range.date_to, where: [filtersCondition(p.filters, ctx.segments), ...where] });

  // Each distinct page path of the range cleaned once (rules are regular expressions).
  const pages = cleanedPagesSql(
    ctx.pathCleaning.rules,
    `SELECT DISTINCT assumeNotNull(pth) AS page FROM (${scan({ pth: 'e.path' }, [`e.event = ${pageView}`, 'isNotNull(e.path)'])})`,
    MAX_CLEANED_PATH,
  );
  // The range's events with their items: a page view's item is its cleaned path, another's its name.
  const items = (columns: Record<string, string>) =>
    `SELECT *, if(ev = ${pageView} AND isNotNull(pth), cleaned, ev) AS item, toUInt8(ev = ${pageView}) AS pv
FROM (${scan({ actor: ACTOR, t: EVENT_MS, ev: 'e.event', pth: 'e.path', page: "ifNull(e.path, '')", ...columns })}) ANY LEFT JOIN (${pages}) USING page`;
  // What a name matches: the item, or for pp.page_view every page view's.
  const matches = (name: string) => `(item = ${literal(name)}${name === PAGE_VIEW ? ' OR pv = 1' : ''})`;
  const gone = exclude.length > 0 ? `(${exclude.map(matches).join(' OR ')})` : '0';
  const sel = matches(p.selected_event);

  // Anchored actors: the instant that bounds their events read (the anchor itself, or with
  // sessions the first selected event after, the last one before), numbered from 1.
  const bound = after || !session ? 'min' : 'max';
  const hits = `SELECT actor, ${bound}(t) AS edge, any(aid) AS actor_id FROM (${items({ aid: listing ? actorOf('id') : "''" })}) WHERE ${sel} AND NOT ${gone} GROUP BY actor`;
  const anc = `SELECT x.1 AS actor, x.2 AS edge, x.3 AS actor_id, n AS a FROM (SELECT groupArray((actor, edge, actor_id)) AS xs FROM (${hits})) ARRAY JOIN xs AS x, arrayEnumerate(xs) AS n`;
  const bval = p.breakdown ? fieldText(p.breakdown.property) : 'CAST(NULL AS Nullable(String))';
  const sid: Record<string, string> = session ? { sid: 'e.session_id' } : {};
  const ev = `SELECT a, t, item, pv, bval${session ? ', sid' : ''}, ${gone} AS gone, ${sel} AS sel
FROM (${items({ bval, ...sid })}) ANY INNER JOIN (${anc}) USING actor WHERE t ${after ? '>=' : '<='} edge`;

  let near = `SELECT a, t, item, pv, bval FROM (${ev}) WHERE gone = 0`;
  if (session) {
    // Session-less events split where 30 minutes pass without one (per actor): a row's gap number
    // counts the fresh starts at or before its time. Others are their session id's.
    const gaps = `SELECT a, x.1 AS t, x.2 AS g FROM (
  SELECT a, arraySort(groupUniqArray(t)) AS ts, arrayCumSum(arrayMap(i -> toUInt32(i = 1 OR ts[i] - ts[i - 1] > ${SESSION_GAP_MS}), arrayEnumerate(ts))) AS gs
  FROM (${ev}) WHERE isNull(sid) GROUP BY a) ARRAY JOIN arrayMap((x, y) -> (x, y), ts, gs) AS x`;
    const keyed = `SELECT *, if(isNull(sid), concat('g', toString(g)), concat('s', assumeNotNull(sid))) AS skey FROM (${ev}) ANY LEFT JOIN (${gaps}) USING a, t`;
    // Each session anchored on its first selected item; its rows on the anchor's side kept.
    const sanc = `SELECT a, skey, min(t) AS at FROM (${keyed}) WHERE sel = 1 AND gone = 0 GROUP BY a, skey`;
    const kept = `SELECT a AS actor_a, skey, t, item, pv, bval FROM (${keyed}) ANY INNER JOIN (${sanc}) USING a, skey WHERE gone = 0 AND t ${after ? '>=' : '<='} at`;
    const units = `SELECT x.1 AS actor_a, x.2 AS skey, n AS a FROM (SELECT groupUniqArray((actor_a, skey)) AS xs FROM (${kept})) ARRAY JOIN xs AS x, arrayEnumerate(xs) AS n`;
    near = `SELECT a, actor_a, t, item, pv, bval FROM (${kept}) ANY INNER JOIN (${units}) USING actor_a, skey`;
    if (listing) {
      const actors = `SELECT -toInt32(a) AS a, toFloat64(0) AS t, '' AS item, toUInt8(0) AS pv, CAST(actor_id AS Nullable(String)) AS bval FROM (SELECT a, actor_a FROM (${units})) ANY INNER JOIN (SELECT a AS actor_a, actor_id FROM (${anc})) USING actor_a`;
      return { sql: `SELECT toInt32(a) AS a, toFloat64(t) AS t, item, pv, CAST(bval AS Nullable(String)) AS bval FROM (${near})\nUNION ALL ${actors}`, params: [] };
    }
  }
  const rows = `SELECT toInt32(a) AS a, toFloat64(t) AS t, item, pv, CAST(${p.breakdown ? 'bval' : 'NULL'} AS Nullable(String)) AS bval FROM (${near})`;
  if (!listing) return { sql: rows, params: [] };
  return { sql: `${rows}\nUNION ALL SELECT -toInt32(a) AS a, toFloat64(0) AS t, '' AS item, toUInt8(0) AS pv, CAST(actor_id AS Nullable(String)) AS bval FROM (${anc})`, params: [] };
}

/**
 * The statement's rows as routesOf reads DuckDB's: one chunk of (unit, time, item number, value),
 * with the rows of unit 0 naming the items, numbered in (text, page view) order.
 */
export function routesOfRows(result: ChunkedResult, p: PathsParams, listing = false): Pick<PathsRun, 'rows' | 'names' | 'units'> {
  const rows = result as Row[];
  const keys = new Map<string, { item: string; pv: boolean; code: number }>();
  for (const r of rows) {
    if ((r.a as number) <= 0) continue;
    const key = `${r.pv ? 1 : 0}${r.item as string}`;
    if (!keys.has(key)) keys.set(key, { item: r.item as string, pv: Boolean(r.pv), code: 0 });
  }
  const dict = [...keys.values()].sort((x, y) => compareText(x.item, y.item) || Number(x.pv) - Number(y.pv));
  dict.forEach((d, i) => (d.code = i + 1));
  const columns: unknown[][] = [[], [], [], []];
  const push = (a: number, t: number, code: number, bval: unknown) => {
    columns[0]!.push(a);
    columns[1]!.push(t);
    columns[2]!.push(code);
    columns[3]!.push(bval);
  };
  for (const d of dict) push(0, d.pv ? 1 : 0, d.code, d.item);
  for (const r of rows) {
    const a = r.a as number;
    if (a > 0) push(a, r.t as number, keys.get(`${r.pv ? 1 : 0}${r.item as string}`)!.code, r.bval ?? null);
    else push(a, 0, 0, r.bval);
  }
  const chunk = { rowCount: columns[0]!.length, getColumnVector: (c: number) => ({ getItem: (r: number) => columns[c]![r] }) };
  const result1: RouteResult = { chunkCount: 1, getChunk: () => chunk };
  return routesOf(result1, p, listing);
}
