// Session recordings for the bench's main project: the latest RECORDED_SESSIONS browser sessions
// of the loaded events, each stored as the tracker sends it (a chunk every five seconds of the
// session, at most RECORDED_CHUNKS_MAX), so the recordings list is measured at that many sessions.
// Every chunk carries the same small compressed rrweb batch: the list never reads chunk data.

import { gzipSync } from 'node:zlib';
import { BLOB, INTEGER, VARCHAR, blobValue, type DuckDBConnection } from '@duckdb/node-api';

export const RECORDED_SESSIONS = 10_000;
const RECORDED_CHUNKS_MAX = 120;
const CHUNK_MS = 5_000;
/** Bumped when what is loaded changes, so a kept installation without it is made again. */
export const STORE_LAYOUT = 2;

const SAMPLE = gzipSync(JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ type: 3, timestamp: i * 100, data: { source: 1, positions: [{ x: i, y: i, id: 5, timeOffset: 0 }] } }))));

export async function loadRecordings(conn: DuckDBConnection, projectId: number, browserKey: string): Promise<{ sessions: number; chunks: number }> {
  await conn.run(
    `INSERT INTO replay_chunks (project_id, session_id, seq, anonymous_id, received_at, first_ts, last_ts, event_count, raw_bytes, key_id, sdk_name, sdk_version, data)
     WITH s AS (
       SELECT session_id, arg_min(anonymous_id, ts) AS anonymous_id, min(ts) AS t0, max(ts) AS t1
         FROM events WHERE project_id = $1 AND source = 'browser' AND session_id IS NOT NULL AND anonymous_id IS NOT NULL
        GROUP BY session_id ORDER BY t0 DESC, session_id LIMIT ${RECORDED_SESSIONS}
     ), c AS (
       SELECT s.*, unnest(range(0, least(${RECORDED_CHUNKS_MAX}, (epoch_ms(t1) - epoch_ms(t0)) // ${CHUNK_MS} + 1))) AS seq FROM s
     )
     SELECT $1, session_id, seq, anonymous_id, t0 + to_milliseconds(seq * ${CHUNK_MS} + ${CHUNK_MS}), t0 + to_milliseconds(seq * ${CHUNK_MS}),
            least(t1, t0 + to_milliseconds(seq * ${CHUNK_MS} + ${CHUNK_MS - 1})), 40, 6000, $2, 'pp-browser', '1.4.2', $3
       FROM c ORDER BY t0, seq`,
    [projectId, browserKey, blobValue(new Uint8Array(SAMPLE))],
    [INTEGER, VARCHAR, BLOB],
  );
  const [row] = (await conn.runAndReadAll('SELECT count(DISTINCT session_id) AS s, count(*) AS c FROM replay_chunks WHERE project_id = $1', [projectId])).getRowObjects();
  return { sessions: Number(row!.s), chunks: Number(row!.c) };
}
