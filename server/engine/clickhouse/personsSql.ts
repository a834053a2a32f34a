// The ClickHouse statements of requests about one person (the shapes of engine/duckdb/personsSql.ts,
// rows the same): who the person is from any of their ids, their figures, and the pages of what the
// download of their data holds. A person's rows anywhere are the rows that name one of their ids;
// every id is a literal. Events are read with FINAL (a row stored twice counts once); links as they
// stand (links.ts: the row of the largest version per distinct id) and traits likewise (argMax),
// so a condition on their values applies after that choice. Flags come as 1 and 0.
// This engine keeps no recordings yet (a recording chunk answers 501): a person has none here.

import type { Statement } from '../engine.js';
import { linksSql } from './links.js';
import { literal } from './literal.js';

export { CHUNKS_PER_READ, EVENTS_PER_READ } from '../duckdb/personsSql.js';
import { EVENTS_PER_READ } from '../duckdb/personsSql.js';

/** `column IN (ids)`; `0` for none. */
function inIds(column: string, ids: readonly string[]): string {
  return ids.length === 0 ? '0' : `${column} IN (${ids.map(literal).join(', ')})`;
}

/** The condition on events `e` naming one of the person's ids (a NULL id names none). */
function personEvents(projectId: number, ids: readonly string[], row = 'e'): string {
  return `${row}.project_id = ${literal(projectId)} AND (${inIds(`${row}.distinct_id`, ids)} OR ifNull(${inIds(`${row}.anonymous_id`, ids)}, 0) OR ifNull(${inIds(`${row}.user_id`, ids)}, 0))`;
}

/** The project's traits as they stand: `user_id`, `traits`, `updated_at`, `updated_us`. */
function traitsSql(projectId: number): string {
  return `SELECT user_id, argMax(traits, version) AS traits, argMax(updated_at, version) AS updated_at, argMax(updated_us, version) AS updated_us
  FROM actor_traits WHERE project_id = ${literal(projectId)} GROUP BY user_id`;
}

/**
 * The actor `key` resolves to (`is_actor` row, `linked_to`: whether any id links to it) and the
 * ids linked to that actor (`id`).
 */
export function linkedIdsSql(projectId: number, key: string): Statement {
  const k = literal(key);
  const linkedActor = `(SELECT any(actor_id) FROM (${linksSql(projectId, [key])}))`;
  const actor = `if(${linkedActor} = '', ${k}, ${linkedActor})`;
  const sql = `SELECT ${actor} AS id, toUInt8(1) AS is_actor, toUInt8((SELECT count() FROM (${linksSql(projectId)}) WHERE actor_id = ${actor}) > 0) AS linked_to
     UNION ALL
     SELECT distinct_id AS id, toUInt8(0) AS is_actor, toUInt8(0) AS linked_to FROM (${linksSql(projectId)}) WHERE actor_id = ${actor}`;
  return { sql, params: [] };
}

/** The anonymous and user ids sent on events of the distinct ids `ids`: `anonymous_id`, `user_id`. */
export function idsSeenWithSql(projectId: number, ids: readonly string[]): Statement {
  return { sql: `SELECT DISTINCT anonymous_id, user_id FROM events WHERE project_id = ${literal(projectId)} AND ${inIds('distinct_id', ids)}`, params: [] };
}

/** Whether any stored row names one of `ids`: `found`. */
export function anyTraceSql(projectId: number, ids: readonly string[]): Statement {
  const p = literal(projectId);
  const sql = `SELECT toUInt8((SELECT count() FROM (${linksSql(projectId)}) WHERE ${inIds('distinct_id', ids)} OR ${inIds('actor_id', ids)}) > 0
         OR (SELECT count() FROM events WHERE project_id = ${p} AND (${inIds('distinct_id', ids)} OR ifNull(${inIds('anonymous_id', ids)}, 0) OR ifNull(${inIds('user_id', ids)}, 0))) > 0
         OR (SELECT count() FROM actor_traits WHERE project_id = ${p} AND ${inIds('user_id', ids)}) > 0) AS found`;
  return { sql, params: [] };
}

const EVENT_MS = '(toUInt64(e.ts) * 1000 + intDiv(e.ts_us, 1000))';

/** The person's totals: `events`, `labeled`, `first_ms`, `last_ms`, `sessions`. */
export function personTotalsSql(projectId: number, ids: readonly string[]): Statement {
  const sql = `SELECT countIf(isNull(e.rule_id)) AS events, countIf(isNotNull(e.rule_id)) AS labeled,
            if(countIf(isNull(e.rule_id)) = 0, NULL, minIf(${EVENT_MS}, isNull(e.rule_id))) AS first_ms,
            if(countIf(isNull(e.rule_id)) = 0, NULL, maxIf(${EVENT_MS}, isNull(e.rule_id))) AS last_ms,
            uniqExact(e.session_id) AS sessions
       FROM events AS e FINAL WHERE ${personEvents(projectId, ids)}`;
  return { sql, params: [] };
}

/** The person's `limit` most sent events: `event`, `n`. */
export function topEventsSql(projectId: number, ids: readonly string[], limit: number): Statement {
  const sql = `SELECT e.event AS event, count() AS n FROM events AS e FINAL WHERE ${personEvents(projectId, ids)} GROUP BY e.event ORDER BY n DESC, event LIMIT ${literal(limit)}`;
  return { sql, params: [] };
}

/** How many sessions of the person were recorded: `n` (none: this engine keeps no recordings yet). */
export function recordingsCountSql(_projectId: number, _ids: readonly string[]): Statement {
  return { sql: 'SELECT toUInt64(0) AS n', params: [] };
}

/**
 * A page of the person's events oldest first, after the position (`ts_us`, `uuid`) of the last row
 * of the previous page: the events list's columns plus `rule_id`, `elements`, `ts_us`. uuids are
 * ordered as their text, as DuckDB orders them.
 */
export function personEventsPageSql(projectId: number, ids: readonly string[], after?: { us: bigint; uuid: string }): Statement {
  const us = '(toUInt64(e.ts) * 1000000 + e.ts_us)';
  let from = '';
  if (after) {
    const at = literal(after.us < 0n ? 0n : after.us);
    from = ` AND e.ts >= toDateTime(${Math.max(0, Math.floor(Number(after.us) / 1e6))}, 'UTC') AND (${us} > ${at} OR (${us} = ${at} AND toString(e.uuid) > ${literal(after.uuid)}))`;
  }
  const sql = `SELECT page.uuid AS uuid, page.event AS event, page.ts_ms AS ts_ms, page.received_ms AS received_ms,
         if(l.linked = 1, l.actor_id, page.distinct_id) AS actor_id, page.distinct_id AS distinct_id, page.anonymous_id AS anonymous_id,
         page.user_id AS user_id, page.session_id AS session_id, page.source AS source, page.sdk_name AS sdk_name, page.sdk_version AS sdk_version,
         page.release AS release, page.url AS url, page.path AS path, page.referrer AS referrer, page.props AS props, page.revenue AS revenue,
         page.invalid AS invalid, page.invalid_reasons AS invalid_reasons, page.rule_id AS rule_id, page.elements AS elements, toString(page.pos_us) AS ts_us
       FROM (
         SELECT toString(e.uuid) AS uuid, e.event AS event, toString(intDiv(${us}, 1000)) AS ts_ms,
           toString(intDiv(toUInt64(e.received_at) * 1000000 + e.received_us, 1000)) AS received_ms, e.distinct_id AS distinct_id, e.distinct_key AS distinct_key,
           e.anonymous_id AS anonymous_id, e.user_id AS user_id, e.session_id AS session_id, e.source AS source, e.sdk_name AS sdk_name,
           e.sdk_version AS sdk_version, e.release AS release, e.url AS url, e.path AS path, e.referrer AS referrer, e.props AS props,
           e.revenue AS revenue, e.invalid = 1 AS invalid, e.invalid_reasons AS invalid_reasons, e.rule_id AS rule_id, e.elements AS elements,
           ${us} AS pos_us
         FROM events AS e FINAL
         WHERE ${personEvents(projectId, ids)}${from}
         ORDER BY pos_us, uuid
         LIMIT ${EVENTS_PER_READ}
       ) AS page
       ANY LEFT JOIN (SELECT distinct_key, actor_id, 1 AS linked FROM (${linksSql(projectId)})) AS l USING distinct_key
      ORDER BY page.pos_us, page.uuid`;
  return { sql, params: [] };
}

/** The identity links from or to the person's ids: `distinct_id`, `actor_id`, `at` (epoch ms). */
export function personLinksSql(projectId: number, ids: readonly string[]): Statement {
  const sql = `SELECT distinct_id, actor_id, toUInt64(at_s) * 1000 + intDiv(at_us, 1000) AS at FROM (
      SELECT distinct_key, argMax(distinct_id, version) AS distinct_id, argMax(actor_id, version) AS actor_id,
             argMax(linked_at, version) AS at_s, argMax(linked_us, version) AS at_us
        FROM identity_links WHERE project_id = ${literal(projectId)} GROUP BY distinct_key)
      WHERE ${inIds('distinct_id', ids)} OR ${inIds('actor_id', ids)} ORDER BY distinct_id`;
  return { sql, params: [] };
}

/** The traits stored for the person's ids: `user_id`, `traits` (JSON text), `at` (epoch ms). */
export function personTraitsSql(projectId: number, ids: readonly string[]): Statement {
  const sql = `SELECT user_id, traits, toUInt64(updated_at) * 1000 + intDiv(updated_us, 1000) AS at FROM (${traitsSql(projectId)})
      WHERE ${inIds('user_id', ids)} ORDER BY user_id`;
  return { sql, params: [] };
}

/** A page of the chunks of the person's recordings: none (this engine keeps no recordings yet). */
export function personChunksPageSql(_projectId: number, _ids: readonly string[], _after?: { session: string; seq: bigint }): Statement {
  return { sql: "SELECT '' AS session_id, toUInt64(0) AS seq, '' AS anonymous_id, toUInt64(0) AS at, '' AS data FROM system.one WHERE 0", params: [] };
}
