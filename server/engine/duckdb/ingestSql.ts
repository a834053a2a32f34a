// The DuckDB statements of what ingestion stores besides events: element captures of the picker,
// recording chunks, identity links and user traits (written on the connection of the ingest
// writer's exclusive turn), and the reads of captures, chunks, links and rejected attempts. Every
// value is bound. Events and refused attempts are appended by duckDbAppender.ts.

import { BIGINT, BLOB, INTEGER, TIMESTAMPTZ, VARCHAR, blobValue, timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import type { EngineConnection, Statement } from '../engine.js';
import { duckDb } from './connection.js';

const micros = (d: Date | null): DuckDBValue => (d ? timestampTZValue(BigInt(d.getTime()) * 1000n) : null);

export interface CaptureRow {
  tokenHash: string;
  projectId: number;
  keyId: string;
  nonce: string;
  url: string;
  selector: string;
  /** JSON text. */
  element: string;
  chain: string;
  receivedAt: Date;
}

/** Stores (or replaces) the capture under its picker token. */
export async function storeCapture(conn: EngineConnection, c: CaptureRow): Promise<void> {
  await duckDb(conn).run(
    `INSERT OR REPLACE INTO element_captures (token_hash, project_id, key_id, nonce, url, selector, element, chain, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [c.tokenHash, c.projectId, c.keyId, c.nonce, c.url, c.selector, c.element, c.chain, micros(c.receivedAt)],
    [VARCHAR, INTEGER, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/** The capture stored under a picker token for a project (`received_at` as RFC 3339 text). */
export function captureSql(projectId: number, tokenHash: string): Statement {
  return {
    sql: `SELECT project_id, nonce, url, selector, element, chain, strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at
       FROM element_captures WHERE token_hash = $1 AND project_id = $2`,
    params: [tokenHash, projectId],
  };
}

export interface ChunkRow {
  projectId: number;
  sessionId: string;
  seq: number;
  anonymousId: string;
  receivedAt: Date;
  first: Date | null;
  last: Date | null;
  eventCount: number;
  rawBytes: number;
  keyId: string;
  sdkName: string | null;
  sdkVersion: string | null;
  /** The gzip of the chunk's events as JSON. */
  data: Uint8Array;
}

/** Stores a recording chunk unless one of that seq is stored already. */
export async function storeReplayChunk(conn: EngineConnection, c: ChunkRow): Promise<void> {
  await duckDb(conn).run(
    `INSERT OR IGNORE INTO replay_chunks (project_id, session_id, seq, anonymous_id, received_at, first_ts, last_ts, event_count, raw_bytes, key_id, sdk_name, sdk_version, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [c.projectId, c.sessionId, BigInt(c.seq), c.anonymousId, micros(c.receivedAt), micros(c.first), micros(c.last), c.eventCount, c.rawBytes, c.keyId, c.sdkName, c.sdkVersion, blobValue(c.data)],
    [INTEGER, VARCHAR, BIGINT, VARCHAR, TIMESTAMPTZ, TIMESTAMPTZ, TIMESTAMPTZ, INTEGER, INTEGER, VARCHAR, VARCHAR, VARCHAR, BLOB],
  );
}

/** A session's chunks in seq order: `seq`, `anonymous_id`, `received_at` (RFC 3339 text), `data` (gzip bytes as a BLOB). */
export function replayChunksSql(projectId: number, sessionId: string): Statement {
  return {
    sql: `SELECT seq, anonymous_id, strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at, data FROM replay_chunks
      WHERE project_id = $1 AND session_id = $2 ORDER BY seq`,
    params: [projectId, sessionId],
  };
}

/** The actor a distinct id is linked to, if any, read on the writer's connection. */
export async function linkedActor(conn: EngineConnection, projectId: number, distinctId: string): Promise<string | undefined> {
  const reader = await duckDb(conn).runAndReadAll('SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', [projectId, distinctId], [INTEGER, VARCHAR]);
  const row = reader.getRowObjects()[0];
  return row ? String(row.actor_id) : undefined;
}

/**
 * Links `fromId`, and every id linked to it, to `actorId`, in one statement, so a crash cannot leave
 * `fromId` linked while ids that pointed at it are not.
 */
export async function storeLink(conn: EngineConnection, projectId: number, fromId: string, actorId: string, at: Date): Promise<void> {
  await duckDb(conn).run(
    `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
         SELECT $1, $2, $3, $4, md5_number_lower($2), md5_number_lower($3)
         UNION ALL
         SELECT project_id, distinct_id, $3, $4, distinct_key, md5_number_lower($3) FROM identity_links WHERE project_id = $1 AND actor_id = $2
       ON CONFLICT (project_id, distinct_id) DO UPDATE SET actor_id = excluded.actor_id, actor_key = excluded.actor_key, linked_at = excluded.linked_at`,
    [projectId, fromId, actorId, micros(at)],
    [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/**
 * Merges `traits` (JSON text) into the user's: later keys win, a null value removes a key; with
 * `once`, a key already stored keeps its value.
 */
export async function storeTraits(conn: EngineConnection, projectId: number, userId: string, traits: string, once: boolean, at: Date): Promise<void> {
  const merged = once ? 'json_merge_patch($3::JSON, actor_traits.traits)' : 'json_merge_patch(actor_traits.traits, $3::JSON)';
  await duckDb(conn).run(
    `INSERT INTO actor_traits (project_id, user_id, traits, updated_at) VALUES ($1, $2, json_merge_patch('{}', $3::JSON), $4)
       ON CONFLICT (project_id, user_id) DO UPDATE SET traits = ${merged}, updated_at = excluded.updated_at`,
    [projectId, userId, traits, micros(at)],
    [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/** The actor a distinct id is linked to (`actor_id`; no row when unlinked). */
export function actorSql(projectId: number, distinctId: string): Statement {
  return { sql: 'SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', params: [projectId, distinctId] };
}

export interface RejectionSelection {
  projectId: number;
  from: Date;
  to: Date;
  limit: number;
  event?: string;
  sdkName?: string;
  source?: string;
  /** The keyset position: rows strictly after it, newest first. */
  after?: { received_at: string; request_id: string; event_index: number | null };
}

/** Rejected attempts, newest first, ties broken by request id then event index (a stable order for cursors). */
export function rejectedAttemptsSql(q: RejectionSelection): Statement {
  const where = ['project_id = $project', 'received_at >= $from::TIMESTAMPTZ', 'received_at < $to::TIMESTAMPTZ'];
  const params: Record<string, string | number> = { project: q.projectId, from: q.from.toISOString(), to: q.to.toISOString(), limit: q.limit };
  if (q.event !== undefined) where.push('event = $event'), (params.event = q.event);
  if (q.sdkName !== undefined) where.push('sdk_name = $sdk'), (params.sdk = q.sdkName);
  if (q.source !== undefined) where.push('source = $source'), (params.source = q.source);
  if (q.after) {
    where.push('(received_at, request_id, COALESCE(event_index, -1)) < ($at::TIMESTAMPTZ, $rid, $idx)');
    Object.assign(params, { at: q.after.received_at, rid: q.after.request_id, idx: q.after.event_index ?? -1 });
  }
  return {
    sql: `SELECT strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at, request_id, event_index, operation, key_id, source, sdk_name, sdk_version, event, code, message
       FROM ingest_rejections WHERE ${where.join(' AND ')}
      ORDER BY received_at DESC, request_id DESC, COALESCE(event_index, -1) DESC LIMIT $limit`,
    params,
  };
}

/**
 * The identity links of a project, `distinct_id` and `actor_id`: every one, or with `ids` those of
 * these ids and those pointing at them (what deciding links between these ids reads).
 */
export async function projectLinks(conn: EngineConnection, projectId: number, ids?: readonly string[]): Promise<Array<{ distinct_id: string; actor_id: string }>> {
  const reader =
    ids === undefined
      ? await duckDb(conn).runAndReadAll('SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1', [projectId], [INTEGER])
      : await duckDb(conn).runAndReadAll(
          `SELECT distinct_id, actor_id FROM identity_links
            WHERE project_id = $1 AND (distinct_id IN (SELECT unnest(from_json($2, '["VARCHAR"]'))) OR actor_id IN (SELECT unnest(from_json($2, '["VARCHAR"]'))))`,
          [projectId, JSON.stringify(ids)],
          [INTEGER, VARCHAR],
        );
  return reader.getRowObjects().map((r) => ({ distinct_id: String(r.distinct_id), actor_id: String(r.actor_id) }));
}

/** Stores many links at once, `ids[i]` to `actors[i]`, replacing what each id pointed at. */
export async function storeLinks(conn: EngineConnection, projectId: number, ids: string[], actors: string[], at: Date): Promise<void> {
  await duckDb(conn).run(
    `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
       SELECT $1, d, a, $4, md5_number_lower(d), md5_number_lower(a)
         FROM (SELECT unnest(from_json($2, '["VARCHAR"]')) AS d, unnest(from_json($3, '["VARCHAR"]')) AS a)
     ON CONFLICT (project_id, distinct_id) DO UPDATE SET actor_id = excluded.actor_id, actor_key = excluded.actor_key, linked_at = excluded.linked_at`,
    [projectId, JSON.stringify(ids), JSON.stringify(actors), timestampTZValue(BigInt(at.getTime()) * 1000n)],
    [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/**
 * Merges many users' traits at once (`traits[i]`, JSON text, for `users[i]`): over what is stored, or
 * for `once` ($set_once) only into keys not stored yet.
 */
export async function storeManyTraits(conn: EngineConnection, projectId: number, users: string[], traits: string[], once: boolean, at: Date): Promise<void> {
  const merged = once ? 'json_merge_patch(excluded.traits, actor_traits.traits)' : 'json_merge_patch(actor_traits.traits, excluded.traits)';
  await duckDb(conn).run(
    `INSERT INTO actor_traits (project_id, user_id, traits, updated_at)
       SELECT $1, u, json_merge_patch('{}', t::JSON), $4 FROM (SELECT unnest(from_json($2, '["VARCHAR"]')) AS u, unnest(from_json($3, '["VARCHAR"]')) AS t)
     ON CONFLICT (project_id, user_id) DO UPDATE SET traits = ${merged}, updated_at = excluded.updated_at`,
    [projectId, JSON.stringify(users), JSON.stringify(traits), timestampTZValue(BigInt(at.getTime()) * 1000n)],
    [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/** Runs `work` as one transaction on `conn`. */
export async function inTransaction<T>(conn: EngineConnection, work: () => Promise<T>): Promise<T> {
  await duckDb(conn).run('BEGIN TRANSACTION');
  try {
    const out = await work();
    await duckDb(conn).run('COMMIT');
    return out;
  } catch (err) {
    await duckDb(conn)
      .run('ROLLBACK')
      .catch(() => undefined);
    throw err;
  }
}
