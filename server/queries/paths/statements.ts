// Paths: the DuckDB statements, built from the parameters and the query context. Pure: nothing
// here touches the store.

import { fieldText, filtersCondition } from '../../engine/conditions.js';
import { actorOf } from '../../engine/identity.js';
import { addDays } from '../../engine/dates.js';
import { dayStartMs } from '../../engine/localTime.js';
import { Binder, type BuiltSql } from '../../engine/sql.js';
import type { QueryContext } from '../context.js';
import { cleanedPagesSql } from '../../engine/duckdb/pathCleaningSql.js';
import { MAX_CLEANED_PATH } from '../pathCleaning.js';
import type { DateRange } from '../ranges.js';
import { PAGE_VIEW, SESSION_GAP_MS, type PathsParams } from './types.js';
import type { DuckDBMaterializedResult } from '@duckdb/node-api';
import type { ByEngine, ChunkedResult } from '../../engine/engine.js';
import { routesOf } from './routes.js';
import type { PathsRun } from './run.js';
import { pathsClickHouse, routesOfRows } from './clickhouseStatements.js';

/**
 * The rows the routes are made of: per unit (an actor, or one of its sessions), its events on the
 * anchor's side with their items. An item is the event name, or for a page view its cleaned path;
 * a name matches an item when it is the item or when it is `pp.page_view` and the item is a page
 * view's. Excluded items are left out here; ordering, collapsing repeats and cutting the route
 * are routesOf's.
 *
 * Anchors are found first, from the selected events alone; only the anchored actors' events on the
 * anchor's side are then read and given their items. Items travel as small integers (`dict`,
 * numbered in the items' text order); one extra row carries their names.
 */
export function pathsSql(p: PathsParams, range: DateRange, ctx: QueryContext, listing = false): BuiltSql {
  const b = new Binder();
  const after = p.direction === 'after';
  const session = p.mode === 'session';
  const rules = ctx.pathCleaning.rules;
  const exclude = p.exclude_events ?? [];
  const names = (list: string[]) => list.map((x) => b.bind(x)).join(', ');
  const pageView = b.bind(PAGE_VIEW);
  const projectId = b.bind(ctx.projectId);
  // The range's local days as instants, so the scans compare timestamps only.
  const instant = (ms: number) => `CAST(${b.bind(new Date(ms).toISOString())} AS TIMESTAMPTZ)`;
  const since = instant(dayStartMs(range.date_from, ctx.timezone));
  const until = instant(dayStartMs(addDays(range.date_to, 1), ctx.timezone));
  const inRange = `e.project_id = ${projectId} AND e.ts >= ${since} AND e.ts < ${until} AND ${filtersCondition(b, p.filters, ctx.segments)}`;
  const ctes: string[] = [];

  // Which page views a name can match before items exist. Every stored path starts with `/`, and
  // so does its cleaning when every alias does: then a name without one is an event name only.
  // Other names go through the cleaned paths of the range.
  const slashKept = rules.every((r) => r.alias.startsWith('/'));
  const paged = (list: string[]) => list.filter((n) => !slashKept || n.startsWith('/'));
  const rangePages = paged([p.selected_event, ...exclude]).length > 0;
  if (rangePages) {
    ctes.push(`pages AS (${cleanedPagesSql(b, rules, `SELECT DISTINCT e.path FROM events e WHERE ${inRange} AND e.event = ${pageView} AND e.path IS NOT NULL`, MAX_CLEANED_PATH)})`);
  }
  const rawIs = (list: string[]) => {
    const pages = paged(list);
    const viaPages = pages.length > 0 ? ` OR coalesce(e.event = ${pageView} AND e.path IN (SELECT path FROM pages WHERE cleaned IN (${names(pages)})), false)` : '';
    return `(e.event IN (${names(list)})${viaPages})`;
  };
  const notExcluded = exclude.length > 0 ? ` AND NOT ${rawIs(exclude)}` : '';
  ctes.push(`hits AS (SELECT e.distinct_key, ${listing ? 'e.distinct_id, ' : ''}epoch_ms(e.ts) AS t FROM events e WHERE ${inRange} AND ${rawIs([p.selected_event])}${notExcluded})`);
  // Per anchored actor, the instant that bounds the events read: the anchor itself, or with
  // sessions (each anchored on its own) the first selected event after, the last one before.
  const bound = after || !session ? 'min' : 'max';
  // A listing also reads each actor's id (its text), which counting has no need of.
  const actorId = listing ? `, any_value(${actorOf('id', 'h')}) AS actor_id` : '';
  ctes.push(
    `anc AS (SELECT *, row_number() OVER () AS a FROM (SELECT COALESCE(l.actor_key, h.distinct_key) AS actor, ${bound}(h.t) AS edge${actorId} FROM hits h LEFT JOIN identity_links l ON l.project_id = ${projectId} AND l.distinct_key = h.distinct_key GROUP BY 1))`,
  );
  // The keys whose events are an anchored actor's: those linked to it, and its own unless linked on.
  ctes.push(`keyed AS (SELECT l.distinct_key, anc.a, anc.edge FROM identity_links l JOIN anc ON l.actor_key = anc.actor WHERE l.project_id = ${projectId}
    UNION ALL SELECT anc.actor, anc.a, anc.edge FROM anc WHERE NOT EXISTS (SELECT 1 FROM identity_links l WHERE l.project_id = ${projectId} AND l.distinct_key = anc.actor))`);
  const columns = [
    'k.a',
    'epoch_ms(e.ts) AS t',
    'e.event',
    'e.path',
    ...(session ? ['e.session_id AS sid'] : []),
    p.breakdown ? `${fieldText(b, p.breakdown.property)} AS bval` : 'CAST(NULL AS VARCHAR) AS bval',
  ];
  // An excluded event still counts as activity between sessions; in actor mode, excluded event
  // names can leave right after the join. (`OR k.a IS NULL`, never true, keeps the test there: as
  // a scan filter it compared the name of every event in the range, several times the rows the
  // join keeps, and cost more than it saved.)
  const joinedExcludes = exclude.length > 0 && !session ? ` AND (e.event NOT IN (${names(exclude)}) OR k.a IS NULL)` : '';
  ctes.push(`ev AS (SELECT ${columns.join(', ')} FROM events e JOIN keyed k ON k.distinct_key = e.distinct_key WHERE ${inRange} AND epoch_ms(e.ts) ${after ? '>=' : '<='} k.edge${joinedExcludes})`);
  let rows = 'ev';
  if (session) {
    // Session-less events split where 30 minutes pass without one (per actor); others by their id.
    const gap = b.bind(SESSION_GAP_MS);
    ctes.push(`gaps AS (SELECT *, CASE WHEN sid IS NULL AND t - lag(t) OVER (PARTITION BY a, sid IS NULL ORDER BY t) <= ${gap} THEN 0 ELSE 1 END AS fresh FROM ev)`);
    ctes.push(
      `ss AS (SELECT *, CASE WHEN sid IS NULL THEN 'g' || CAST(sum(fresh) OVER (PARTITION BY a, sid IS NULL ORDER BY t ROWS UNBOUNDED PRECEDING) AS VARCHAR) ELSE 's' || sid END AS skey FROM gaps)`,
    );
    rows = 'ss';
  }
  // Each distinct page path is cleaned once (rules are regular expressions).
  if (!rangePages) {
    ctes.push(`pages AS (${cleanedPagesSql(b, rules, `SELECT DISTINCT path FROM ev WHERE event = ${pageView} AND path IS NOT NULL`, MAX_CLEANED_PATH)})`);
  }
  ctes.push(
    `its AS (SELECT r.*, CASE WHEN r.event = ${pageView} AND r.path IS NOT NULL THEN pages.cleaned ELSE r.event END AS item, r.event = ${pageView} AS pv FROM ${rows} r LEFT JOIN pages ON pages.path = r.path)`,
  );
  // What a name matches is a property of the item (a page view's event is pp.page_view, another's its item).
  const matches = (name: string) => `(item = ${b.bind(name)}${name === PAGE_VIEW ? ' OR pv' : ''})`;
  // The selected item anchors sessions here; start and end items are the server's (routesOf).
  const gone = exclude.length > 0 ? `(${exclude.map(matches).join(' OR ')})` : 'false';
  ctes.push(`dict AS (SELECT item, pv, CAST(row_number() OVER (ORDER BY item, pv) AS INTEGER) AS code, ${matches(p.selected_event)} AS sel, ${gone} AS gone FROM (SELECT DISTINCT item, pv FROM its))`);
  ctes.push(`coded AS (SELECT r.a${session ? ', r.skey' : ''}, r.t, r.bval, d.code, d.sel, d.gone FROM its r JOIN dict d USING (item, pv))`);
  let near = 'SELECT * FROM coded WHERE NOT gone';
  if (session) {
    ctes.push(`sanc AS (SELECT a, skey, min(t) AS at FROM coded WHERE sel AND NOT gone GROUP BY a, skey)`);
    near = `SELECT c.* FROM coded c JOIN sanc USING (a, skey) WHERE NOT c.gone AND c.t ${after ? '>=' : '<='} sanc.at`;
  }
  ctes.push(`near AS (${near})`);
  // Rows come unordered: a unit number (an actor, or in session mode one of its sessions), the time
  // and the item; the server orders each unit's few rows itself (routesOf), which costs less than
  // sorting them all here. Rows of unit 0 name the items: the item's number, its text (in bval)
  // and whether it is a page view's (t = 1). Every column but bval is never null, so the reader
  // needs no null checks, and no list travels with every row.
  let units = 'near';
  if (session) {
    ctes.push(`units AS (SELECT * EXCLUDE (a), ${listing ? 'a AS actor_a, ' : ''}dense_rank() OVER (ORDER BY a, skey) AS a FROM near)`);
    units = 'units';
  }
  const bval = p.breakdown ? 'bval' : 'CAST(NULL AS VARCHAR)';
  // A listing's rows of unit -u name unit u's actor (in bval).
  const actors = !listing
    ? ''
    : session
      ? `\nUNION ALL SELECT DISTINCT -CAST(u.a AS INTEGER), 0, 0, anc.actor_id FROM units u JOIN anc ON anc.a = u.actor_a`
      : `\nUNION ALL SELECT -CAST(a AS INTEGER), 0, 0, actor_id FROM anc`;
  return {
    sql: `WITH ${ctes.join(',\n')}
SELECT CAST(a AS INTEGER) AS a, CAST(t AS DOUBLE) AS t, code, ${bval} AS bval FROM ${units}
UNION ALL SELECT 0, CAST(pv AS DOUBLE), code, item FROM dict${actors}`,
    params: b.values,
  };
}

/** Each engine's statement and the reader of its chunked result into counted routes. */
export interface PathsBuilder {
  sql: typeof pathsSql;
  /** With `listing`, also each unit's actor and route (the statement was built with `listing`). */
  routes(result: ChunkedResult, p: PathsParams, listing?: boolean): Pick<PathsRun, 'rows' | 'names' | 'units'>;
}

export const pathsStatements: ByEngine<PathsBuilder> = {
  duckdb: { sql: pathsSql, routes: (result, p, listing) => routesOf(result as DuckDBMaterializedResult, p, listing) },
  clickhouse: { sql: pathsClickHouse, routes: routesOfRows },
};
