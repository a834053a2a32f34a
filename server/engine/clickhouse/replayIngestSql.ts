// The ClickHouse statements of what ingestion stores of a recording (the shapes of
// engine/duckdb/ingestSql.ts's storeReplayChunk and replayChunksSql): chunks in replay_chunks
// (migration 0009), written on the connection of the ingest writer's turn.
//
// A chunk sent twice is stored once, as DuckDB's INSERT OR IGNORE stores it: the writer's turns run
// one at a time, so a chunk already held is found and left out before the INSERT; a copy that
// slipped in anyway (an INSERT that timed out and landed after all) collapses into the first when
// parts merge, and reads ask for FINAL. The chunk's gzip bytes are written as a string literal
// (literal.ts `bytesLiteral`) and read back as hex (`hex(data)`, see `chunkBytes`).

import type { EngineConnection, Statement } from '../engine.js';
import type { ChunkRow } from '../duckdb/ingestSql.js';
import type { ClickHouseConnection } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { literal, sql, tuple } from './literal.js';
import { isoText } from './replaySql.js';
import { quorumSettings } from './versionClock.js';

/** The largest UInt64: `keep` is it minus the µs of receipt, so the earliest copy is kept. */
const KEEP_MAX = 2n ** 64n - 1n;

/**
 * Synchronous through the Distributed table on a cluster, and with a quorum where shards have
 * replicas, as events are written: an answer means two replicas of the session's shard hold the
 * chunk. (18.16 mutates no partition's latest quorum-written part until another quorum write
 * reaches it: the retention and person deletions write markers for that, mutations.ts.)
 */
async function settingsOf(ch: ClickHouseConnection): Promise<Record<string, number>> {
  return ch.cluster === undefined ? {} : { insert_distributed_sync: 1, ...(await quorumSettings(ch)) };
}

const micros = (d: Date | null): bigint | null => (d === null ? null : BigInt(d.getTime()) * 1000n);

/** The columns of replay_chunks a chunk is written in, in `chunkValues`' order. */
export const CHUNK_COLUMNS = 'project_id, session_id, seq, anonymous_id, received_at, received_us, first_us, last_us, event_count, raw_bytes, key_id, sdk_name, sdk_version, data, keep';

/** A chunk's values in CHUNK_COLUMNS' order: its receipt as whole seconds and their µs, `keep` from it. */
export function chunkValues(c: ChunkRow): unknown[] {
  const receivedMs = c.receivedAt.getTime();
  const subsecondMs = ((receivedMs % 1000) + 1000) % 1000;
  return [
    c.projectId,
    c.sessionId,
    BigInt(c.seq),
    c.anonymousId,
    new Date(receivedMs - subsecondMs),
    subsecondMs * 1000,
    micros(c.first),
    micros(c.last),
    c.eventCount,
    c.rawBytes,
    c.keyId,
    c.sdkName,
    c.sdkVersion,
    c.data,
    KEEP_MAX - BigInt(receivedMs) * 1000n,
  ];
}

/** Stores a recording chunk unless one of that seq is stored already. */
export async function storeReplayChunk(conn: EngineConnection, c: ChunkRow): Promise<void> {
  const ch = clickHouse(conn);
  const held = await ch.query(sql`SELECT 1 FROM replay_chunks WHERE project_id = ${c.projectId} AND session_id = ${c.sessionId} AND seq = ${BigInt(c.seq)} LIMIT 1`);
  if (held.length > 0) return;
  await ch.command(`INSERT INTO replay_chunks (${CHUNK_COLUMNS}) VALUES ${tuple(chunkValues(c))}`, { settings: await settingsOf(ch) });
}

/** A session's chunks in seq order: `seq`, `anonymous_id`, `received_at` (RFC 3339 text), `data` (the gzip bytes as hex: `chunkBytes`). */
export function replayChunksSql(projectId: number, sessionId: string): Statement {
  return {
    sql: `SELECT seq, c_anonymous_id AS anonymous_id, ${isoText('c_received_at', 'c_received_us')} AS received_at, c_data AS data
       FROM (SELECT seq, anonymous_id AS c_anonymous_id, received_at AS c_received_at, received_us AS c_received_us, hex(data) AS c_data
               FROM replay_chunks FINAL WHERE project_id = ${literal(projectId)} AND session_id = ${literal(sessionId)})
      ORDER BY seq`,
    params: [],
  };
}
