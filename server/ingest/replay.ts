// /v1/replay: session-recording chunks, stored gzip-compressed per (project, session, seq). A
// chunk re-sent with the same seq is stored once. Chunks for a project whose recordings are off
// are refused, whatever the page sends. Reading them back is readReplayChunks.

import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { BIGINT, BLOB, INTEGER, TIMESTAMPTZ, VARCHAR, blobValue, timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import type { Services } from '../http/services.js';
import { AppError, ValidationError } from '../ground/errors.js';
import { getBehaviorSettings } from '../behavior/behaviorSettings.js';
import type { IngestCredential } from './ingestCredential.js';
import { ingestWriter } from './groupWriter.js';
import { rejectionRows } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import { idText } from './eventSchema.js';
import type { IngestResult } from './track.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const REPLAY_CHUNK_MAX_BYTES = 512 * 1024;

export interface ReplayBody {
  session_id: string | number;
  anonymous_id: string | number;
  seq: number;
  events: Array<Record<string, unknown>>;
}

export interface ReplayContext {
  credential: IngestCredential;
  sdk: SdkInfo | null;
  requestId: string;
}

/** Earliest and latest rrweb `timestamp` (epoch ms) in the chunk, when present and plausible. */
function timeRange(events: ReplayBody['events']): { first: Date | null; last: Date | null } {
  const times = events.map((e) => e.timestamp).filter((t): t is number => typeof t === 'number' && Number.isFinite(t) && t > 0 && t < 8.64e15);
  if (times.length === 0) return { first: null, last: null };
  return { first: new Date(Math.min(...times)), last: new Date(Math.max(...times)) };
}

function serialize(events: ReplayBody['events']): string {
  try {
    return JSON.stringify(events);
  } catch {
    throw new ValidationError('events is nested too deeply', 'events');
  }
}

const micros = (d: Date | null): DuckDBValue => (d ? timestampTZValue(BigInt(d.getTime()) * 1000n) : null);

export async function storeReplayChunk(services: Services, body: ReplayBody, ctx: ReplayContext): Promise<IngestResult> {
  const { key } = ctx.credential;
  const receivedAt = services.clock.now();
  if (!getBehaviorSettings(services.meta, key.project_id).replay_enabled) {
    const refusal = { index: 0, code: 'replay_disabled', message: 'session recordings are disabled for this project' };
    const rejections = rejectionRows(services, { ...ctx, operation: 'replay', receivedAt }, [{ ...refusal, event: null }]);
    if (rejections.length > 0) await ingestWriter(services).submit({ events: [], rejections });
    return { accepted: 0, rejected: [refusal] };
  }
  const raw = serialize(body.events);
  const rawBytes = Buffer.byteLength(raw);
  if (rawBytes > REPLAY_CHUNK_MAX_BYTES) {
    throw new AppError(413, 'payload_too_large', `a replay chunk holds at most ${REPLAY_CHUNK_MAX_BYTES} bytes of events`, { limit_bytes: REPLAY_CHUNK_MAX_BYTES });
  }
  const data = await gzipAsync(raw);
  const { first, last } = timeRange(body.events);
  await ingestWriter(services).exclusive((conn) =>
    conn.run(
      `INSERT OR IGNORE INTO replay_chunks (project_id, session_id, seq, anonymous_id, received_at, first_ts, last_ts, event_count, raw_bytes, key_id, sdk_name, sdk_version, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [key.project_id, idText(body.session_id), BigInt(body.seq), idText(body.anonymous_id), micros(receivedAt), micros(first), micros(last), body.events.length, rawBytes,
        key.public_id, ctx.sdk?.name ?? null, ctx.sdk?.version ?? null, blobValue(new Uint8Array(data))],
      [INTEGER, VARCHAR, BIGINT, VARCHAR, TIMESTAMPTZ, TIMESTAMPTZ, TIMESTAMPTZ, INTEGER, INTEGER, VARCHAR, VARCHAR, VARCHAR, BLOB],
    ),
    // No analytical query reads this table: cached answers stay.
    { changes: 'reported' },
  );
  return { accepted: body.events.length, rejected: [] };
}

export interface ReplayChunk {
  seq: number;
  anonymous_id: string;
  received_at: string;
  events: unknown[];
}

/** A session's chunks in seq order, decompressed. */
export async function readReplayChunks(services: Services, projectId: number, sessionId: string): Promise<ReplayChunk[]> {
  const rows = await services.events.read(
    `SELECT seq, anonymous_id, strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at, data FROM replay_chunks
      WHERE project_id = $1 AND session_id = $2 ORDER BY seq`,
    [projectId, sessionId],
  );
  return Promise.all(
    rows.map(async (r) => ({
      seq: Number(r.seq),
      anonymous_id: String(r.anonymous_id),
      received_at: String(r.received_at),
      events: JSON.parse((await gunzipAsync((r.data as { bytes: Uint8Array }).bytes)).toString('utf8')) as unknown[],
    })),
  );
}
