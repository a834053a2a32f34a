// The ClickHouse statements of the events domain (the shapes of engine/duckdb/eventsSql.ts, rows
// the same). Values are written as literals (literal.ts). An instant is the DateTime column and
// its microseconds (`ts`/`ts_us`, `received_at`/`received_us`): an order or a position compares
// the whole microsecond count, and a bound on the DateTime alone lets ClickHouse skip parts.
// uuids are ordered as their text, as DuckDB orders them (ClickHouse's own UUID order differs).
// An event's actor is its link's actor when its distinct id is linked, else the distinct id (links.ts).
// Built so far: the events list (property filters included) and the identity lookups behind its
// actor filter and the live stream. The others answer 501 engine_unsupported (statements.ts).

import type { Statement } from '../engine.js';
import type { EventSelection, ListOrder, ListPosition } from '../duckdb/eventsSql.js';
import { filtersCondition } from './conditions.js';
import { distinctKeyOf, linksSql } from './links.js';
import { literal, splitMicros } from './literal.js';

const INSTANTS = { received: { seconds: 'received_at', micros: 'received_us' }, event_time: { seconds: 'ts', micros: 'ts_us' } } as const;
type Instant = (typeof INSTANTS)[ListOrder];

/** The instant in microseconds since the epoch, as a UInt64 expression. */
const microsOf = (i: Instant) => `(toUInt64(e.${i.seconds}) * 1000000 + e.${i.micros})`;

/** Conditions on `e` keeping instants at or after (`>=`) or before (`<`) `us`. */
function instantBound(i: Instant, op: '>=' | '<' | '<=', us: bigint): string[] {
  const { seconds } = splitMicros(Number(us));
  // The DateTime bound is implied by the exact one; it is there for the parts ClickHouse can skip.
  const coarse = op === '>=' ? `e.${i.seconds} >= toDateTime(${seconds}, 'UTC')` : `e.${i.seconds} <= toDateTime(${seconds}, 'UTC')`;
  return [coarse, `${microsOf(i)} ${op} ${literal(us)}`];
}

const dateMicros = (d: Date) => BigInt(d.getTime()) * 1000n;

/** The filter conditions of the events domain on `e` (the events table). */
export function selectionClauses(projectId: number, f: EventSelection, distinctIds?: string[]): string[] {
  const where = [`e.project_id = ${literal(projectId)}`];
  if (f.props) where.push(filtersCondition(f.props, new Map()));
  if (f.events) where.push(`e.event IN (${f.events.map(literal).join(', ')})`);
  if (f.userId !== undefined) where.push(`e.user_id = ${literal(f.userId)}`);
  if (f.anonymousId !== undefined) where.push(`e.anonymous_id = ${literal(f.anonymousId)}`);
  if (distinctIds) where.push(distinctIds.length === 0 ? '0' : `e.distinct_id IN (${distinctIds.map(literal).join(', ')})`);
  if (f.sdkName !== undefined) where.push(`e.sdk_name = ${literal(f.sdkName)}`);
  if (f.release !== undefined) where.push(`e.release = ${literal(f.release)}`);
  if (f.invalidOnly) where.push('e.invalid = 1');
  if (f.source !== undefined) where.push(`e.source = ${literal(f.source)}`);
  if (f.from) where.push(...instantBound(INSTANTS.received, '>=', dateMicros(f.from)));
  if (f.to) where.push(...instantBound(INSTANTS.received, '<', dateMicros(f.to)));
  return where;
}

/**
 * The oldest second of the order's instant a page of `limit` rows can reach (a DateTime), from the
 * newest rows matching `where`: the `limit` newest events all fall at or after the second where
 * the rows sorted newest first, counted without their copies, first number `limit` distinct uuids
 * (each of those is newer than any event of an earlier second). Only the instant and the uuid
 * of the newest `4 × limit` rows are read, copies not yet merged included; when those hold fewer
 * than `limit` distinct events (few events, or many copies), the bound is the epoch and the page
 * is read from every row.
 */
function pageBound(instant: Instant, where: string[], limit: number): string {
  const rows = `SELECT e.${instant.seconds} AS b_at, e.uuid AS b_uuid FROM events AS e WHERE ${where.join(' AND ')} ORDER BY b_at DESC LIMIT ${literal(limit * 4)}`;
  const firsts = 'arrayCumSum(arrayMap(o -> toUInt32(o = 1), arrayEnumerateUniq(arrayMap(x -> x.2, b_rows))))';
  return `(SELECT arrayElement(arrayFilter((t, n) -> n = ${literal(limit)}, arrayMap(x -> x.1, b_rows), ${firsts}), 1)
    FROM (SELECT arrayReverseSort(groupArray((b_at, b_uuid))) AS b_rows FROM (${rows})))`;
}

/**
 * One page of the events list (`limit` rows; ask one more to know whether another follows),
 * newest first by the order's instant, then by uuid, strictly after `after`. A row stored twice
 * before its parts merged counts once: the copies are the same row (the same batch loaded again),
 * and the rows read keep one per uuid (`LIMIT 1 BY`). FINAL over a project's every column cost
 * more than the rest together: instead the page is read only from the oldest second it can reach
 * (pageBound, a narrow read of the newest rows), which on the event time also lets ClickHouse skip
 * the older parts and granules. The rows read are then joined to their links, on the node
 * the statement is sent to (on a cluster the page comes from every shard through the Distributed
 * table, a uuid's copies from one shard; the links are on every node). `distinctIds` is what an
 * actor filter resolved to.
 */
export function listEventsSql(projectId: number, f: EventSelection, order: ListOrder, limit: number, after?: ListPosition, distinctIds?: string[]): Statement {
  const instant = INSTANTS[order];
  const where = selectionClauses(projectId, f, distinctIds);
  // The bound is taken from the rows strictly before the cursor (fewer rows, each in the page's
  // set, so still a bound), without the uuid's text compared on every row.
  const boundWhere = [...where];
  if (after) {
    const at = BigInt(after.at);
    where.push(...instantBound(instant, '<=', at), `(${microsOf(instant)} < ${literal(at)} OR toString(e.uuid) < ${literal(after.uuid)})`);
    boundWhere.push(...instantBound(instant, '<', at));
  }
  // The bound comes first: ClickHouse moves it to PREWHERE, reading the other columns only of the
  // granules holding rows at or after it (a condition before it, true of nearly every row, would be
  // moved instead). The copies are dropped in a query of their own, the LIMIT applied where the
  // shards' rows meet: on a cluster 18.16 cuts each shard's rows to the LIMIT before LIMIT BY, which a
  // copy would then crowd out. One level of subquery only: 18.16 runs a scalar subquery (the bound)
  // once more for every level that holds it.
  return {
    sql: `SELECT page.uuid AS uuid, page.event AS event, page.ts_ms AS ts_ms, page.received_ms AS received_ms,
  if(l.linked = 1, l.actor_id, page.distinct_id) AS actor_id, page.distinct_id AS distinct_id,
  page.anonymous_id AS anonymous_id, page.user_id AS user_id, page.session_id AS session_id, page.source AS source, page.sdk_name AS sdk_name,
  page.sdk_version AS sdk_version, page.release AS release, page.url AS url, page.path AS path, page.referrer AS referrer, page.props AS props,
  page.revenue AS revenue, page.invalid AS invalid, page.invalid_reasons AS invalid_reasons, page.position_at AS position_at
FROM (
  SELECT toString(e.uuid) AS uuid, e.event AS event, toString(intDiv(toUInt64(e.ts) * 1000000 + e.ts_us, 1000)) AS ts_ms,
    toString(intDiv(toUInt64(e.received_at) * 1000000 + e.received_us, 1000)) AS received_ms, e.distinct_id AS distinct_id, e.distinct_key AS distinct_key,
    e.anonymous_id AS anonymous_id, e.user_id AS user_id, e.session_id AS session_id, e.source AS source, e.sdk_name AS sdk_name,
    e.sdk_version AS sdk_version, e.release AS release, e.url AS url, e.path AS path, e.referrer AS referrer, e.props AS props,
    e.revenue AS revenue, e.invalid = 1 AS invalid, e.invalid_reasons AS invalid_reasons, ${microsOf(instant)} AS position_us, toString(position_us) AS position_at
  FROM events AS e
  WHERE e.${instant.seconds} >= ${pageBound(instant, boundWhere, limit)} AND ${where.join(' AND ')}
  LIMIT 1 BY uuid
) AS page
ANY LEFT JOIN (SELECT distinct_key, actor_id, 1 AS linked FROM (${linksSql(projectId)})) AS l USING distinct_key
ORDER BY page.position_us DESC, page.uuid DESC
LIMIT ${literal(limit)}`,
    params: [],
  };
}

/** The distinct ids whose events resolve to `actorId`: those linked to it, and itself unless linked elsewhere. */
export function distinctIdsOfActorSql(projectId: number, actorId: string): Statement {
  const id = literal(actorId);
  return {
    sql: `SELECT distinct_id FROM (${linksSql(projectId)}) WHERE actor_id = ${id}
UNION ALL
SELECT ${id} AS distinct_id
 WHERE (SELECT count() FROM identity_links WHERE project_id = ${literal(projectId)} AND distinct_key = ${literal(distinctKeyOf(actorId))} AND distinct_id = ${id}) = 0`,
    params: [],
  };
}

/** The linked actor of each of these distinct ids (a row only for those linked): `distinct_id`, `actor_id`. */
export function actorsOfSql(projectId: number, distinctIds: readonly string[]): Statement {
  return { sql: `SELECT distinct_id, actor_id FROM (${linksSql(projectId, distinctIds)})`, params: [] };
}
