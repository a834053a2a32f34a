// The DuckDB statements of the events domain: the events list and the doctor view over the events
// table (filters and the keyset after a position), the identity lookups behind actor filters and
// live-stream messages, and the event and property catalogs. Every value is bound; the SQL text
// holds only fixed column names and generated placeholder names.

import type { DuckDBValue } from '@duckdb/node-api';
import type { Statement } from '../engine.js';
import type { Filter } from '../filters.js';
import { filtersCondition } from '../conditions.js';

/** Which events a list reads, as the events domain parsed the request. */
export interface EventSelection {
  /** Any of these names. */
  events?: string[];
  userId?: string;
  anonymousId?: string;
  sdkName?: string;
  release?: string;
  invalidOnly: boolean;
  source?: string;
  /** Half-open [from, to) on the time of receipt. */
  from?: Date;
  to?: Date;
  /** Property and column filters as the queries take them (`props.$country` eq `DE`); absent when none. */
  props?: Filter[];
}

const NO_SEGMENTS = new Map();

export interface SqlWhere {
  sql: string;
  params: Record<string, DuckDBValue>;
}

/** A keyset position: the order's time in microseconds since the epoch (as text) and the uuid. */
export interface ListPosition {
  at: string;
  uuid: string;
}

export type ListOrder = 'received' | 'event_time';

/** The column each order sorts by (then by uuid): the only column names an order puts into SQL. */
export const ORDER_COLUMNS: Record<'received' | 'event_time', 'received_at' | 'ts'> = { received: 'received_at', event_time: 'ts' };

export class WhereBuilder {
  private readonly clauses: string[] = [];
  private readonly params: Record<string, DuckDBValue> = {};
  private n = 0;

  /** Binds `value` and returns its placeholder. */
  bind(value: DuckDBValue): string {
    const name = `v${this.n++}`;
    this.params[name] = value;
    return `$${name}`;
  }

  add(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  build(): SqlWhere {
    return { sql: this.clauses.join(' AND '), params: this.params };
  }
}

/**
 * The filter conditions on `e` (the events table). `distinctIds` is what `actorId` resolved to:
 * the distinct ids whose events belong to that actor.
 */
export function eventFilterClauses(w: WhereBuilder, projectId: number, f: EventSelection, distinctIds?: string[]): WhereBuilder {
  w.add(`e.project_id = ${w.bind(projectId)}`);
  if (f.events) w.add(`e.event IN (${f.events.map((name) => w.bind(name)).join(', ')})`);
  if (f.userId !== undefined) w.add(`e.user_id = ${w.bind(f.userId)}`);
  if (f.anonymousId !== undefined) w.add(`e.anonymous_id = ${w.bind(f.anonymousId)}`);
  if (distinctIds) w.add(distinctIds.length === 0 ? 'false' : `e.distinct_id IN (${distinctIds.map((id) => w.bind(id)).join(', ')})`);
  if (f.sdkName !== undefined) w.add(`e.sdk_name = ${w.bind(f.sdkName)}`);
  if (f.release !== undefined) w.add(`e.release = ${w.bind(f.release)}`);
  if (f.invalidOnly) w.add('e.invalid');
  if (f.source !== undefined) w.add(`e.source = ${w.bind(f.source)}`);
  if (f.from) w.add(`e.received_at >= ${w.bind(f.from.toISOString())}::TIMESTAMPTZ`);
  if (f.to) w.add(`e.received_at < ${w.bind(f.to.toISOString())}::TIMESTAMPTZ`);
  // The queries' filter conditions, their values bound through this builder.
  if (f.props) w.add(filtersCondition({ values: [], bind: (v: DuckDBValue) => w.bind(v) }, f.props, NO_SEGMENTS));
  return w;
}

/**
 * Rows strictly after `after` in the order `column` DESC, uuid DESC. Spelled as a plain bound on the
 * column plus a tie-break, not a row comparison, so DuckDB skips every row group newer than the
 * position by its min/max and a deep page does not read the pages before it.
 */
export function afterPosition(w: WhereBuilder, after: ListPosition, column: 'received_at' | 'ts' = 'received_at'): WhereBuilder {
  const at = `make_timestamptz(${w.bind(after.at)}::BIGINT)`;
  return w.add(`e.${column} <= ${at}`).add(`(e.${column} < ${at} OR e.uuid < ${w.bind(after.uuid)}::UUID)`);
}

/**
 * The select list for `page` (a subquery over events) joined to identity links as `l`. Times come
 * as epoch milliseconds so they print exactly as the stream prints them (toISOString).
 */
const ITEM_COLUMNS = `page.uuid::VARCHAR AS uuid, page.event, epoch_ms(page.ts) AS ts_ms, epoch_ms(page.received_at) AS received_ms,
  COALESCE(l.actor_id, page.distinct_id) AS actor_id, page.distinct_id, page.anonymous_id, page.user_id, page.session_id,
  page.source, page.sdk_name, page.sdk_version, page.release, page.url, page.path, page.referrer, page.props::VARCHAR AS props,
  page.revenue, page.invalid, to_json(COALESCE(page.invalid_reasons, []::VARCHAR[]))::VARCHAR AS invalid_reasons`;

/**
 * One page of the events list (`limit` rows; ask one more to know whether another follows). The
 * page is chosen from bare event rows first and only its rows are then joined to identity links
 * and formatted, so DuckDB's top-N reads the wide columns of `limit` rows, not of every candidate.
 * `distinctIds` is what an actor filter resolved to.
 */
export function listEventsSql(projectId: number, f: EventSelection, order: ListOrder, limit: number, after?: ListPosition, distinctIds?: string[]): Statement {
  const w = eventFilterClauses(new WhereBuilder(), projectId, f, distinctIds);
  const column = ORDER_COLUMNS[order];
  if (after) afterPosition(w, after, column);
  const limitPlaceholder = w.bind(limit);
  const where = w.build();
  return {
    sql: `WITH page AS (
      SELECT e.*, epoch_us(e.${column})::VARCHAR AS position_at FROM events e WHERE ${where.sql}
       ORDER BY e.${column} DESC, e.uuid DESC LIMIT ${limitPlaceholder})
    SELECT ${ITEM_COLUMNS}, page.position_at
      FROM page LEFT JOIN identity_links l ON l.project_id = page.project_id AND l.distinct_id = page.distinct_id
     ORDER BY page.${column} DESC, page.uuid DESC`,
    params: where.params,
  };
}

/**
 * The doctor view's accepted events (derived ones left out), newest received first: after an
 * accepted position, or at or before the time of a rejected one.
 */
export function doctorAcceptedSql(projectId: number, f: EventSelection, limit: number, after?: { kind: 'accepted'; at: string; uuid: string } | { kind: 'rejected'; at: string }): Statement {
  const w = eventFilterClauses(new WhereBuilder(), projectId, f).add('e.rule_id IS NULL');
  if (after?.kind === 'accepted') afterPosition(w, after);
  else if (after) w.add(`e.received_at <= make_timestamptz(${w.bind(after.at)}::BIGINT)`);
  const n = w.bind(limit);
  const where = w.build();
  return {
    sql: `SELECT e.uuid::VARCHAR AS uuid, e.event, epoch_ms(e.ts) AS ts_ms, epoch_ms(e.received_at) AS received_ms, epoch_us(e.received_at)::VARCHAR AS position_at,
            e.source, e.sdk_name, e.sdk_version, e.key_id, e.invalid, to_json(COALESCE(e.invalid_reasons, []::VARCHAR[]))::VARCHAR AS warnings
       FROM events e WHERE ${where.sql}
      ORDER BY e.received_at DESC, e.uuid DESC LIMIT ${n}`,
    params: where.params,
  };
}

/** The distinct ids whose events resolve to `actorId`: those linked to it, and itself unless linked elsewhere. */
export function distinctIdsOfActorSql(projectId: number, actorId: string): Statement {
  return {
    sql: `SELECT distinct_id FROM identity_links WHERE project_id = $1 AND actor_id = $2
     UNION ALL
     SELECT $2 WHERE NOT EXISTS (SELECT 1 FROM identity_links WHERE project_id = $1 AND distinct_id = $2)`,
    params: [projectId, actorId],
  };
}

/** The linked actor of each of these distinct ids (a row only for those linked): `distinct_id`, `actor_id`. */
export function actorsOfSql(projectId: number, distinctIds: readonly string[]): Statement {
  const w = new WhereBuilder();
  const where = `project_id = ${w.bind(projectId)} AND distinct_id IN (${distinctIds.map((id) => w.bind(id)).join(', ')})`;
  return { sql: `SELECT distinct_id, actor_id FROM identity_links WHERE ${where}`, params: w.build().params };
}

/** The project's event names, most frequent first (`limit` of them), with their first and last event and receipt times in epoch ms. */
export function eventCatalogSql(projectId: number, limit: number): Statement {
  return {
    sql: `SELECT event, count(*) AS n, epoch_ms(min(ts)) AS first_ts_ms, epoch_ms(max(ts)) AS last_ts_ms,
            epoch_ms(min(received_at)) AS first_ms, epoch_ms(max(received_at)) AS last_ms
       FROM events WHERE project_id = $project GROUP BY event ORDER BY n DESC, event LIMIT $limit`,
    params: { project: projectId, limit },
  };
}

/** ISO 8601 dates and date-times, as a person would call a string a date. */
const DATETIME_RE = '\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?)?';

/** Each sampled value's kind, from json_each's type; JSON null has no kind. */
const KIND_SQL = `CASE j.type
    WHEN 'VARCHAR' THEN CASE WHEN regexp_full_match(j.value ->> '$', $datetime) THEN 'datetime' ELSE 'string' END
    WHEN 'BIGINT' THEN 'number' WHEN 'UBIGINT' THEN 'number' WHEN 'HUGEINT' THEN 'number' WHEN 'DOUBLE' THEN 'number'
    WHEN 'BOOLEAN' THEN 'boolean' WHEN 'OBJECT' THEN 'object' WHEN 'ARRAY' THEN 'array' END`;

/**
 * The kinds of the top-level property values of the `sample` most recently received events carrying
 * properties (of one name when given): one row with a null key counting the events sampled, then
 * per key and kind (`string`, `datetime`, `number`, `boolean`, `object`, `array`, null for JSON null) how often.
 */
export function propertyKindsSql(projectId: number, sample: number, event?: string): Statement {
  const byEvent = event === undefined ? '' : 'AND event = $event';
  return {
    sql: `WITH sample AS MATERIALIZED (
        SELECT props FROM events WHERE project_id = $project AND props IS NOT NULL ${byEvent} ORDER BY received_at DESC LIMIT $sample),
      kinds AS (SELECT j.key AS key, ${KIND_SQL} AS kind FROM sample, json_each(sample.props) j)
     SELECT NULL AS key, NULL AS kind, count(*) AS n FROM sample
     UNION ALL
     SELECT key, kind, count(*) AS n FROM kinds GROUP BY key, kind`,
    params: { project: projectId, sample, datetime: DATETIME_RE, ...(event === undefined ? {} : { event }) },
  };
}
