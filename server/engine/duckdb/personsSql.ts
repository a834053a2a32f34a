// The DuckDB statements of requests about one person (server/persons/): who the person is from any
// of their ids, their figures, and the pages of what the download of their data holds. A person's
// rows anywhere are the rows that name one of their ids; every id is bound.

import type { Statement } from '../engine.js';
import { Binder } from '../sql.js';

/** Events read per page of a person's download. */
export const EVENTS_PER_READ = 1000;
/** Recording chunks read per page (each at most 512 KiB of events as sent). */
export const CHUNKS_PER_READ = 16;

/** `column IN (ids)` with the ids bound; `false` for none. */
function inIds(b: Binder, column: string, ids: readonly string[]): string {
  return ids.length === 0 ? 'false' : `${column} IN (${ids.map((id) => b.bind(id)).join(', ')})`;
}

/** The condition on events `e` naming one of the person's ids. */
function personEvents(b: Binder, projectId: number, ids: readonly string[], row = 'e'): string {
  return `${row}.project_id = ${b.bind(projectId)} AND (${inIds(b, `${row}.distinct_id`, ids)} OR ${inIds(b, `${row}.anonymous_id`, ids)} OR ${inIds(b, `${row}.user_id`, ids)})`;
}

/**
 * The actor `key` resolves to (`is_actor` row, `linked_to`: whether any id links to it) and the
 * ids linked to that actor (`id`).
 */
export function linkedIdsSql(projectId: number, key: string): Statement {
  const b = new Binder();
  const p = b.bind(projectId);
  const k = b.bind(key);
  const sql = `WITH a AS (SELECT COALESCE((SELECT actor_id FROM identity_links WHERE project_id = ${p} AND distinct_id = ${k}), ${k}) AS actor)
     SELECT a.actor AS id, true AS is_actor, EXISTS (SELECT 1 FROM identity_links WHERE project_id = ${p} AND actor_id = a.actor) AS linked_to FROM a
     UNION ALL
     SELECT l.distinct_id, false, false FROM identity_links l, a WHERE l.project_id = ${p} AND l.actor_id = a.actor`;
  return { sql, params: b.values };
}

/** The anonymous and user ids sent on events of the distinct ids `ids`: `anonymous_id`, `user_id`. */
export function idsSeenWithSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const sql = `SELECT DISTINCT anonymous_id, user_id FROM events WHERE project_id = ${b.bind(projectId)} AND ${inIds(b, 'distinct_id', ids)}`;
  return { sql, params: b.values };
}

/** Whether any stored row names one of `ids`: `found`. */
export function anyTraceSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const p = b.bind(projectId);
  const sql = `SELECT EXISTS (SELECT 1 FROM identity_links WHERE project_id = ${p} AND (${inIds(b, 'distinct_id', ids)} OR ${inIds(b, 'actor_id', ids)}))
         OR EXISTS (SELECT 1 FROM events WHERE project_id = ${p} AND (${inIds(b, 'distinct_id', ids)} OR ${inIds(b, 'anonymous_id', ids)} OR ${inIds(b, 'user_id', ids)}))
         OR EXISTS (SELECT 1 FROM replay_chunks WHERE project_id = ${p} AND ${inIds(b, 'anonymous_id', ids)})
         OR EXISTS (SELECT 1 FROM actor_traits WHERE project_id = ${p} AND ${inIds(b, 'user_id', ids)}) AS found`;
  return { sql, params: b.values };
}

/** The person's totals: `events`, `labeled`, `first_ms`, `last_ms`, `sessions`. */
export function personTotalsSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const sql = `SELECT count(*) FILTER (WHERE e.rule_id IS NULL) AS events, count(*) FILTER (WHERE e.rule_id IS NOT NULL) AS labeled,
            epoch_ms(min(e.ts) FILTER (WHERE e.rule_id IS NULL)) AS first_ms, epoch_ms(max(e.ts) FILTER (WHERE e.rule_id IS NULL)) AS last_ms,
            count(DISTINCT e.session_id) AS sessions
       FROM events e WHERE ${personEvents(b, projectId, ids)}`;
  return { sql, params: b.values };
}

/** The person's `limit` most sent events: `event`, `n`. */
export function topEventsSql(projectId: number, ids: readonly string[], limit: number): Statement {
  const b = new Binder();
  const sql = `SELECT e.event, count(*) AS n FROM events e WHERE ${personEvents(b, projectId, ids)} GROUP BY e.event ORDER BY n DESC, e.event LIMIT ${b.bind(limit)}`;
  return { sql, params: b.values };
}

/** How many sessions of the person were recorded: `n`. */
export function recordingsCountSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const sql = `SELECT count(DISTINCT session_id) AS n FROM replay_chunks WHERE project_id = ${b.bind(projectId)} AND ${inIds(b, 'anonymous_id', ids)}`;
  return { sql, params: b.values };
}

/**
 * A page of the person's events oldest first, after the position (`ts_us`, `uuid`) of the last row
 * of the previous page: the events list's columns plus `rule_id`, `elements`, `ts_us`.
 */
export function personEventsPageSql(projectId: number, ids: readonly string[], after?: { us: bigint; uuid: string }): Statement {
  const b = new Binder();
  const where = personEvents(b, projectId, ids);
  let from = '';
  if (after) {
    const at = `make_timestamptz(${b.bind(after.us)}::BIGINT)`;
    from = ` AND (e.ts > ${at} OR (e.ts = ${at} AND e.uuid > ${b.bind(after.uuid)}::UUID))`;
  }
  const sql = `SELECT page.uuid::VARCHAR AS uuid, page.event, epoch_ms(page.ts) AS ts_ms, epoch_ms(page.received_at) AS received_ms,
         COALESCE(l.actor_id, page.distinct_id) AS actor_id, page.distinct_id, page.anonymous_id, page.user_id, page.session_id,
         page.source, page.sdk_name, page.sdk_version, page.release, page.url, page.path, page.referrer, page.props::VARCHAR AS props,
         page.revenue, page.invalid, to_json(COALESCE(page.invalid_reasons, []::VARCHAR[]))::VARCHAR AS invalid_reasons,
         page.rule_id, page.elements::VARCHAR AS elements, epoch_us(page.ts) AS ts_us
       FROM (SELECT * FROM events e WHERE ${where}${from} ORDER BY e.ts, e.uuid LIMIT ${EVENTS_PER_READ}) page
       LEFT JOIN identity_links l ON l.project_id = page.project_id AND l.distinct_id = page.distinct_id
      ORDER BY page.ts, page.uuid`;
  return { sql, params: b.values };
}

/** The identity links from or to the person's ids: `distinct_id`, `actor_id`, `at` (epoch ms). */
export function personLinksSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const sql = `SELECT distinct_id, actor_id, epoch_ms(linked_at) AS at FROM identity_links
      WHERE project_id = ${b.bind(projectId)} AND (${inIds(b, 'distinct_id', ids)} OR ${inIds(b, 'actor_id', ids)}) ORDER BY distinct_id`;
  return { sql, params: b.values };
}

/** The traits stored for the person's ids: `user_id`, `traits` (JSON text), `at` (epoch ms). */
export function personTraitsSql(projectId: number, ids: readonly string[]): Statement {
  const b = new Binder();
  const sql = `SELECT user_id, traits::VARCHAR AS traits, epoch_ms(updated_at) AS at FROM actor_traits
      WHERE project_id = ${b.bind(projectId)} AND ${inIds(b, 'user_id', ids)} ORDER BY user_id`;
  return { sql, params: b.values };
}

/** A page of the chunks of the person's recordings by session and sequence number, after the previous page's last. */
export function personChunksPageSql(projectId: number, ids: readonly string[], after?: { session: string; seq: bigint }): Statement {
  const b = new Binder();
  const p = b.bind(projectId);
  const from = after ? ` AND (session_id > ${b.bind(after.session)} OR (session_id = ${b.bind(after.session)} AND seq > ${b.bind(after.seq)}))` : '';
  const sql = `SELECT session_id, seq, anonymous_id, epoch_ms(received_at) AS at, data FROM replay_chunks
        WHERE project_id = ${p} AND session_id IN (SELECT session_id FROM replay_chunks WHERE project_id = ${p} AND ${inIds(b, 'anonymous_id', ids)})${from}
        ORDER BY session_id, seq LIMIT ${CHUNKS_PER_READ}`;
  return { sql, params: b.values };
}
