// The ClickHouse statements of the Integration Doctor view and the catalogs (the shapes of
// engine/duckdb/eventsSql.ts and ingestSql.ts, rows the same): the accepted events and refused
// attempts, newest received first, and the event names and property kinds of a project. Values are
// literals (literal.ts); rows stored twice before their parts merged count once (FINAL). Times come
// as text of whole numbers (epoch ms or µs), as the events list gives them.

import type { Statement } from '../engine.js';
import type { EventSelection } from '../duckdb/eventsSql.js';
import type { RejectionSelection } from '../duckdb/ingestSql.js';
import { selectionClauses } from './eventsSql.js';
import { literal } from './literal.js';
import { PROPERTY_KINDS } from './properties.js';

const RECEIVED_US = '(toUInt64(e.received_at) * 1000000 + e.received_us)';

/** A DateTime bound implied by an exact one in µs, there for the parts ClickHouse can skip. */
const receivedSecond = (op: '>=' | '<=', us: bigint) => `e.received_at ${op} toDateTime(${literal(us / 1_000_000n)}, 'UTC')`;

/**
 * The doctor view's accepted events (derived ones left out), newest received first: after an
 * accepted position, or at or before the time of a rejected one. uuids order as their text, as on
 * DuckDB. `warnings` is the JSON text of the invalid reasons (pp's own codes).
 */
export function doctorAcceptedSql(projectId: number, f: EventSelection, limit: number, after?: { kind: 'accepted'; at: string; uuid: string } | { kind: 'rejected'; at: string }): Statement {
  const where = [...selectionClauses(projectId, f), 'isNull(e.rule_id)'];
  if (after) {
    const at = BigInt(after.at);
    where.push(receivedSecond('<=', at), `${RECEIVED_US} <= ${literal(at)}`);
    if (after.kind === 'accepted') where.push(`(${RECEIVED_US} < ${literal(at)} OR toString(e.uuid) < ${literal(after.uuid)})`);
  }
  const warning = `concat('"', replaceAll(replaceAll(x, '\\\\', '\\\\\\\\'), '"', '\\\\"'), '"')`;
  return {
    sql: `SELECT toString(e.uuid) AS uuid, e.event AS event, toString(intDiv(toUInt64(e.ts) * 1000000 + e.ts_us, 1000)) AS ts_ms,
  toString(intDiv(${RECEIVED_US}, 1000)) AS received_ms, toString(${RECEIVED_US}) AS position_at, e.source AS source, e.sdk_name AS sdk_name,
  e.sdk_version AS sdk_version, e.key_id AS key_id, e.invalid = 1 AS invalid,
  concat('[', arrayStringConcat(arrayMap(x -> ${warning}, e.invalid_reasons), ','), ']') AS warnings
FROM events AS e FINAL
WHERE ${where.join(' AND ')}
ORDER BY ${RECEIVED_US} DESC, toString(e.uuid) DESC
LIMIT ${literal(limit)}`,
    params: [],
  };
}

/** An RFC 3339 time in UTC with up to six fractional digits (as doctorRecords.ts writes positions) in µs since the epoch. */
export function isoToMicros(text: string): bigint {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text.replace('Z', '') : text.slice(0, dot);
  const ms = Date.parse(`${whole}Z`);
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${text}`);
  const fraction = dot < 0 ? '' : text.slice(dot + 1, text.length - 1);
  return BigInt(ms) * 1000n + BigInt(`${fraction}000000`.slice(0, 6));
}

/**
 * Refused attempts, newest first, ties broken by request id then event index (a missing index as
 * -1), strictly after the keyset position; the time as DuckDB's strftime writes it (milliseconds).
 */
export function rejectedAttemptsSql(q: RejectionSelection): Statement {
  const us = '(toUInt64(r.received_at) * 1000000 + r.received_us)';
  const index = 'ifNull(r.event_index, -1)';
  const fromUs = BigInt(q.from.getTime()) * 1000n;
  const toUs = BigInt(q.to.getTime()) * 1000n;
  const where = [
    `r.project_id = ${literal(q.projectId)}`,
    `r.received_at >= toDateTime(${literal(fromUs / 1_000_000n)}, 'UTC')`,
    `${us} >= ${literal(fromUs)}`,
    `r.received_at <= toDateTime(${literal(toUs / 1_000_000n)}, 'UTC')`,
    `${us} < ${literal(toUs)}`,
  ];
  if (q.event !== undefined) where.push(`r.event = ${literal(q.event)}`);
  if (q.sdkName !== undefined) where.push(`r.sdk_name = ${literal(q.sdkName)}`);
  if (q.source !== undefined) where.push(`r.source = ${literal(q.source)}`);
  if (q.after) {
    const at = literal(isoToMicros(q.after.received_at));
    const rid = literal(q.after.request_id);
    where.push(`(${us} < ${at} OR (${us} = ${at} AND (r.request_id < ${rid} OR (r.request_id = ${rid} AND ${index} < ${literal(q.after.event_index ?? -1)}))))`);
  }
  // The time's text is made outside: inside, `received_at` names the column, not the text.
  return {
    sql: `SELECT concat(replaceOne(toString(at_s), ' ', 'T'), '.', substring(toString(1000 + intDiv(at_us, 1000)), 2), 'Z') AS received_at,
  request_id, event_index, operation, key_id, source, sdk_name, sdk_version, event, code, message
FROM (SELECT r.received_at AS at_s, r.received_us AS at_us, ${us} AS position_us, ${index} AS position_index, r.request_id AS request_id,
    r.event_index AS event_index, r.operation AS operation, r.key_id AS key_id, r.source AS source, r.sdk_name AS sdk_name,
    r.sdk_version AS sdk_version, r.event AS event, r.code AS code, r.message AS message
  FROM ingest_rejections AS r FINAL
  WHERE ${where.join(' AND ')}
  ORDER BY position_us DESC, request_id DESC, position_index DESC
  LIMIT ${literal(q.limit)})
ORDER BY position_us DESC, request_id DESC, position_index DESC`,
    params: [],
  };
}

/** The project's event names, most frequent first (`limit` of them), with their first and last event and receipt times in epoch ms. */
export function eventCatalogSql(projectId: number, limit: number): Statement {
  const ts = 'intDiv(toUInt64(e.ts) * 1000000 + e.ts_us, 1000)';
  const received = `intDiv(${RECEIVED_US}, 1000)`;
  return {
    sql: `SELECT e.event AS event, count() AS n, toString(min(${ts})) AS first_ts_ms, toString(max(${ts})) AS last_ts_ms,
  toString(min(${received})) AS first_ms, toString(max(${received})) AS last_ms
FROM events AS e FINAL WHERE e.project_id = ${literal(projectId)}
GROUP BY e.event ORDER BY n DESC, event LIMIT ${literal(limit)}`,
    params: [],
  };
}

/** ISO 8601 dates and date-times, as a person would call a string a date (DuckDB's DATETIME_RE, matched whole). */
const DATETIME_RE = '^(?:\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?)?)$';

/** A value's kind from its code (PROPERTY_KINDS) and its text; JSON null has none. */
const KIND_SQL = `multiIf(c = ${PROPERTY_KINDS.string}, if(match(v, ${literal(DATETIME_RE)}), 'datetime', 'string'),
  c = ${PROPERTY_KINDS.number}, 'number', c = ${PROPERTY_KINDS.boolean}, 'boolean', c = ${PROPERTY_KINDS.object}, 'object',
  c = ${PROPERTY_KINDS.array}, 'array', NULL)`;

/**
 * The kinds of the top-level property values of the `sample` most recently received events carrying
 * properties (of one name when given): one row with a null key counting the events sampled, then
 * per key and kind how often (the rows of engine/duckdb/eventsSql.ts's propertyKindsSql).
 */
export function propertyKindsSql(projectId: number, sample: number, event?: string): Statement {
  const byEvent = event === undefined ? '' : ` AND e.event = ${literal(event)}`;
  const sampled = `SELECT e.prop_keys AS keys, e.prop_values AS values, e.prop_kinds AS kinds FROM events AS e FINAL
  WHERE e.project_id = ${literal(projectId)} AND isNotNull(e.props)${byEvent} ORDER BY ${RECEIVED_US} DESC LIMIT ${literal(sample)}`;
  return {
    sql: `SELECT CAST(NULL AS Nullable(String)) AS key, CAST(NULL AS Nullable(String)) AS kind, count() AS n FROM (${sampled})
UNION ALL
SELECT toNullable(pair.1) AS key, pair.2 AS kind, count() AS n
FROM (SELECT arrayJoin(arrayMap((k, v, c) -> (k, ${KIND_SQL}), keys, values, arrayResize(kinds, length(keys), ${PROPERTY_KINDS.null}))) AS pair FROM (${sampled}))
GROUP BY key, kind`,
    params: [],
  };
}
