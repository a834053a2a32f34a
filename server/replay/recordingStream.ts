// GET /projects/{id}/recordings/{session_id}/chunks: the stored rrweb events of a recording in seq
// order, streamed as NDJSON (one line per stored chunk, `{"seq", "events"}`) so that a player can
// start on the first full snapshot while the rest arrives. Events the tracker split into
// `pp.fragment` pieces leave whole; in strict privacy mode text is masked again (strictMask.ts).

import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { Response } from 'express';
import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';
import { chunkBytes } from '../engine/sql.js';
import { getBehaviorSettings } from '../ingest/behaviorSettings.js';
import { acceptedEncoding } from '../http/compression.js';
import { maskEvent } from './strictMask.js';

const gunzipAsync = promisify(gunzip);

/** Chunks read per statement: a few MB of compressed events at most. */
const CHUNKS_PER_READ = 64;
/** rrweb's custom-event type, which the tracker's fragments use. */
const CUSTOM_EVENT = 5;
/** Fragments of events whose pieces never all arrived are dropped past this many pending. */
const MAX_PENDING_FRAGMENTS = 64;

interface Fragment {
  id: string;
  index: number;
  count: number;
  data: string;
}

function fragmentOf(event: unknown): Fragment | undefined {
  const e = event as { type?: number; data?: { tag?: string; payload?: Fragment } };
  if (e?.type !== CUSTOM_EVENT || e.data?.tag !== 'pp.fragment') return undefined;
  const p = e.data.payload;
  const valid = p && typeof p.id === 'string' && Number.isInteger(p.index) && Number.isInteger(p.count) && p.count > 0 && p.count <= 10_000 && typeof p.data === 'string';
  return valid ? p : undefined;
}

/** Puts fragmented events back together, in the place of their last piece. */
export class FragmentJoiner {
  private readonly pending = new Map<string, string[]>();

  join(events: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const event of events) {
      const f = fragmentOf(event);
      if (!f) {
        out.push(event);
        continue;
      }
      let pieces = this.pending.get(f.id);
      if (!pieces) {
        if (this.pending.size >= MAX_PENDING_FRAGMENTS) this.pending.delete(this.pending.keys().next().value!);
        pieces = new Array<string>(f.count);
        this.pending.set(f.id, pieces);
      }
      if (f.index < 0 || f.index >= pieces.length) continue;
      pieces[f.index] = f.data;
      if (pieces.filter((p) => p !== undefined).length < pieces.length) continue;
      this.pending.delete(f.id);
      try {
        out.push(JSON.parse(pieces.join('')));
      } catch {
        // A corrupt event is left out; the rest of the recording still plays.
      }
    }
    return out;
  }
}

/** Whether the project holds a recording of this session. */
async function recordingExists(services: Services, projectId: number, sessionId: string): Promise<boolean> {
  const rows = await readEvents(services, statementsOf(services.events).replay.recordingExistsSql(projectId, sessionId));
  return rows.length > 0;
}

/** Streams the recording to `res`, gzip-compressed when `acceptEncoding` allows (a busy recording is megabytes of JSON). */
export async function streamRecording(services: Services, res: Response, acceptEncoding: string | undefined, projectId: number, sessionId: string): Promise<void> {
  if (!(await recordingExists(services, projectId, sessionId))) throw new NotFoundError('recording not found');
  const strict = getBehaviorSettings(services.meta, projectId).privacy_mode === 'strict';
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Accept-Encoding');
  let out: Writable = res;
  const gzip = acceptedEncoding(acceptEncoding) === null ? undefined : createGzip();
  if (gzip) {
    res.setHeader('Content-Encoding', 'gzip');
    gzip.pipe(res);
    out = gzip;
  }
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  const joiner = new FragmentJoiner();
  let after = -1n;
  for (;;) {
    const rows = await readEvents(services, statementsOf(services.events).replay.chunksSql(projectId, sessionId, after, CHUNKS_PER_READ));
    for (const row of rows) {
      const text = (await gunzipAsync(chunkBytes(row.data))).toString('utf8');
      const events = joiner.join(JSON.parse(text) as unknown[]);
      if (strict) for (const e of events) maskEvent(e);
      if (!out.write(`${JSON.stringify({ seq: Number(row.seq), events })}\n`)) await Promise.race([new Promise((resolve) => out.once('drain', resolve)), closed]);
      if (res.destroyed) {
        gzip?.destroy();
        return;
      }
    }
    // The first chunks leave at once: the player starts on them while the rest is read.
    gzip?.flush();
    if (rows.length < CHUNKS_PER_READ) break;
    after = BigInt(rows.at(-1)!.seq as bigint);
  }
  out.end();
}
