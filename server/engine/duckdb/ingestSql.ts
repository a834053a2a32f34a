// The DuckDB statements of what ingestion stores besides events: element captures of the picker,
// recording chunks, identity links and user traits (written on the connection of the ingest
// writer's exclusive turn), and the reads of captures, chunks, links and rejected attempts. Every
// value is bound. The ingest writer (ingest/groupWriter.ts) appends events with tableAppender.ts
// and reads its journal position and recent keys with the statements at the end.

import { BIGINT, BLOB, INTEGER, LIST, TIMESTAMPTZ, VARCHAR, blobValue, listValue, timestampTZValue, type DuckDBConnection, type DuckDBResult, type DuckDBValue } from '@duckdb/node-api';
import type { Statement } from '../engine.js';

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
export async function storeCapture(conn: DuckDBConnection, c: CaptureRow): Promise<void> {
  await conn.run(
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
export async function storeReplayChunk(conn: DuckDBConnection, c: ChunkRow): Promise<void> {
  await conn.run(
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
export async function linkedActor(conn: DuckDBConnection, projectId: number, distinctId: string): Promise<string | undefined> {
  const reader = await conn.runAndReadAll('SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', [projectId, distinctId], [INTEGER, VARCHAR]);
  const row = reader.getRowObjects()[0];
  return row ? String(row.actor_id) : undefined;
}

/**
 * Links `fromId`, and every id linked to it, to `actorId`, in one statement, so a crash cannot leave
 * `fromId` linked while ids that pointed at it are not.
 */
export async function storeLink(conn: DuckDBConnection, projectId: number, fromId: string, actorId: string, at: Date): Promise<void> {
  await conn.run(
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
export async function storeTraits(conn: DuckDBConnection, projectId: number, userId: string, traits: string, once: boolean, at: Date): Promise<void> {
  const merged = once ? 'json_merge_patch($3::JSON, actor_traits.traits)' : 'json_merge_patch(actor_traits.traits, $3::JSON)';
  await conn.run(
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

/** How far the ingest journal is loaded (the position committed with the events). */
export async function journalPosition(conn: DuckDBConnection): Promise<number> {
  const reader = await conn.runAndReadAll('SELECT position FROM ingest_journal');
  return Number(reader.getRowObjects()[0]?.position ?? 0);
}

/** Records the journal position in the writer's transaction. */
export async function storeJournalPosition(conn: DuckDBConnection, seq: number): Promise<void> {
  await conn.run('UPDATE ingest_journal SET position = $1', [BigInt(seq)], [BIGINT]);
}

/** Stored (project, uuid) pairs among these uuids with received_at (µs) in [fromUs, beforeUs), as `project/uuid`. */
export async function storedPairs(conn: DuckDBConnection, uuids: string[], fromUs: number, beforeUs: number): Promise<string[]> {
  const bounded = Number.isFinite(beforeUs);
  const reader = await conn.runAndReadAll(
    `SELECT project_id, uuid::VARCHAR AS uuid FROM events
        WHERE received_at >= $1 ${bounded ? 'AND received_at < $3' : ''} AND uuid IN (SELECT unnest($2::VARCHAR[])::UUID)`,
    [timestampTZValue(BigInt(fromUs)), listValue(uuids), ...(bounded ? [timestampTZValue(BigInt(beforeUs))] : [])],
    [TIMESTAMPTZ, LIST(VARCHAR), ...(bounded ? [TIMESTAMPTZ] : [])],
  );
  return reader.getRowObjects().map((r) => `${Number(r.project_id)}/${String(r.uuid)}`);
}

/**
 * The newest `limit` pairs received since `sinceUs`, oldest first, streamed: project_id, the uuid
 * as four UINTEGER words (no strings), and received_at in µs.
 */
export function recentKeys(conn: DuckDBConnection, sinceUs: number, limit: number): Promise<DuckDBResult> {
  const word = (from: number, to: number) => `('0x' || u[${from}:${to}])::UINTEGER`;
  return conn.stream(
    `WITH recent AS (
         SELECT project_id, replace(uuid::VARCHAR, '-', '') AS u, epoch_us(received_at) AS us FROM events
          WHERE received_at >= $1 ORDER BY received_at DESC LIMIT $2)
       SELECT project_id, ${word(1, 8)}, ${word(9, 16)}, ${word(17, 24)}, ${word(25, 32)}, us FROM recent ORDER BY us`,
    [timestampTZValue(BigInt(sinceUs)), limit],
    [TIMESTAMPTZ, INTEGER],
  );
}

/** Every identity link of a project: `distinct_id`, `actor_id` (an import's batch decides its links from them). */
export async function projectLinks(conn: DuckDBConnection, projectId: number): Promise<Array<{ distinct_id: string; actor_id: string }>> {
  const reader = await conn.runAndReadAll('SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1', [projectId], [INTEGER]);
  return reader.getRowObjects().map((r) => ({ distinct_id: String(r.distinct_id), actor_id: String(r.actor_id) }));
}

/** Stores many links at once, `ids[i]` to `actors[i]`, replacing what each id pointed at. */
export async function storeLinks(conn: DuckDBConnection, projectId: number, ids: string[], actors: string[], at: Date): Promise<void> {
  await conn.run(
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
export async function storeManyTraits(conn: DuckDBConnection, projectId: number, users: string[], traits: string[], once: boolean, at: Date): Promise<void> {
  const merged = once ? 'json_merge_patch(excluded.traits, actor_traits.traits)' : 'json_merge_patch(actor_traits.traits, excluded.traits)';
  await conn.run(
    `INSERT INTO actor_traits (project_id, user_id, traits, updated_at)
       SELECT $1, u, json_merge_patch('{}', t::JSON), $4 FROM (SELECT unnest(from_json($2, '["VARCHAR"]')) AS u, unnest(from_json($3, '["VARCHAR"]')) AS t)
     ON CONFLICT (project_id, user_id) DO UPDATE SET traits = ${merged}, updated_at = excluded.updated_at`,
    [projectId, JSON.stringify(users), JSON.stringify(traits), timestampTZValue(BigInt(at.getTime()) * 1000n)],
    [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
  );
}

/** Runs `work` as one transaction on `conn`. */
export async function inTransaction<T>(conn: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await conn.run('BEGIN TRANSACTION');
  try {
    const out = await work();
    await conn.run('COMMIT');
    return out;
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Which of `uuids` the project holds already (an import's batch leaves them out). */
export async function heldUuids(conn: DuckDBConnection, projectId: number, uuids: readonly string[]): Promise<Set<string>> {
  // The batch's uuids go as one text, split in SQL.
  const reader = await conn.runAndReadAll(
    `SELECT uuid::VARCHAR AS uuid FROM events WHERE project_id = $1 AND uuid IN (SELECT unnest(string_split($2, ','))::UUID)`,
    [projectId, uuids.join(',')],
    [INTEGER, VARCHAR],
  );
  return new Set(reader.getRowObjects().map((r) => String(r.uuid)));
}
