// /v1/replay: session-recording chunks, stored gzip-compressed per (project, session, seq). A
// chunk re-sent with the same seq is stored once. Chunks for a project whose recordings are off
// are refused, whatever the page sends. Reading them back is readReplayChunks.

import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { statementsOf } from '../engine/statements.js';
import { chunkBytes } from '../engine/sql.js';
import type { Services } from '../http/services.js';
import { AppError, ValidationError } from '../ground/errors.js';
import { getBehaviorSettings } from './behaviorSettings.js';
import type { IngestCredential } from './ingestCredential.js';
import { ingestWriter } from './groupWriter.js';
import { refuseRequest } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import { idText } from './eventSchema.js';
import type { IngestResult } from './track.js';
import { erasedRefusals } from './erasedPersons.js';

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

export async function storeReplayChunk(services: Services, body: ReplayBody, ctx: ReplayContext): Promise<IngestResult> {
  const { key } = ctx.credential;
  const receivedAt = services.clock.now();
  const refusing = { ...ctx, operation: 'replay' as const, receivedAt };
  if (!getBehaviorSettings(services.meta, key.project_id).replay_enabled) {
    return refuseRequest(services, refusing, { code: 'replay_disabled', message: 'session recordings are disabled for this project' });
  }
  const erased = erasedRefusals(services, ctx.credential, [{ index: 0, ids: [idText(body.anonymous_id)] }]).get(0);
  if (erased) return refuseRequest(services, refusing, erased);
  const raw = serialize(body.events);
  const rawBytes = Buffer.byteLength(raw);
  if (rawBytes > REPLAY_CHUNK_MAX_BYTES) {
    throw new AppError(413, 'payload_too_large', `a replay chunk holds at most ${REPLAY_CHUNK_MAX_BYTES} bytes of events`, { limit_bytes: REPLAY_CHUNK_MAX_BYTES });
  }
  const data = await gzipAsync(raw);
  const { first, last } = timeRange(body.events);
  const chunk = {
    projectId: key.project_id,
    sessionId: idText(body.session_id),
    seq: body.seq,
    anonymousId: idText(body.anonymous_id),
    receivedAt,
    first,
    last,
    eventCount: body.events.length,
    rawBytes,
    keyId: key.public_id,
    sdkName: ctx.sdk?.name ?? null,
    sdkVersion: ctx.sdk?.version ?? null,
    data: new Uint8Array(data),
  };
  await ingestWriter(services).exclusive(
    (conn) => statementsOf(services.events).ingest.storeReplayChunk(conn, chunk),
    // Cached answers stay: only paths actors' `recorded` reads this table, and it moves on with
    // the events the recorded session sends (they change the project's data version).
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
  const q = statementsOf(services.events).ingest.replayChunksSql(projectId, sessionId);
  const rows = await services.events.read(q.sql, q.params);
  return Promise.all(
    rows.map(async (r) => ({
      seq: Number(r.seq),
      anonymous_id: String(r.anonymous_id),
      received_at: String(r.received_at),
      events: JSON.parse((await gunzipAsync(chunkBytes(r.data))).toString('utf8')) as unknown[],
    })),
  );
}
