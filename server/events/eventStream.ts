// GET /projects/{id}/events/stream: server-sent events of one project's events as they commit:
// every event answered after the `connected` comment, none answered before the request.
// Messages: `event` (the event as the list shows it), `dropped` ({count} of events left out by
// sampling or a slow reader), and comment lines as heartbeats. Sampling and heartbeats run on
// real time, not the injectable clock: they pace bytes on a socket, not data. The stream ends when
// the client leaves, the viewer loses access (checked before every write and every second), or
// the server stops. A user holds at most STREAMS_PER_USER streams at once.

import { performance } from 'node:perf_hooks';
import type { Server } from 'node:net';
import type { Request, Response } from 'express';
import type { Services } from '../http/services.js';
import { AppError } from '../ground/errors.js';
import { eventBus, type CommittedEvent } from '../ingest/eventBus.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { actorsOf } from './actors.js';
import { itemFromCommitted } from './eventItem.js';
import { StreamSampler } from './streamSampler.js';
import { streamAccess } from './streamAccess.js';

export const STREAM_MAX_PER_SECOND = 20;
/** A reader this far behind loses events (counted as dropped) instead of growing our buffer. */
const MAX_BUFFERED_BYTES = 1 << 20;
const MIN_HEARTBEAT_MS = 100;
/** At most one `dropped` message per this interval, so notices never crowd out events. */
const NOTICE_INTERVAL_MS = 1000;

/** Each stream holds a subscription, a timer and a socket: a user's tabs fit, a loop of reconnects does not. */
export const STREAMS_PER_USER = 5;

/** Counts a stream against its user, or refuses it with 429 when the user has the most already. */
function holdStreamSlot(services: Services, userId: number): () => void {
  const counts = services.streams;
  const open = counts.get(userId) ?? 0;
  if (open >= STREAMS_PER_USER) {
    throw new AppError(429, 'rate_limited', `at most ${STREAMS_PER_USER} live streams may be open at once per user; close one first`, { limit: STREAMS_PER_USER }, { 'Retry-After': '5' });
  }
  counts.set(userId, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (counts.get(userId) ?? 1) - 1;
    if (left > 0) counts.set(userId, left);
    else counts.delete(userId);
  };
}

type Outgoing = { kind: 'event'; event: CommittedEvent } | { kind: 'dropped'; count: number };

export async function openEventStream(services: Services, req: Request, res: Response, projectId: number): Promise<void> {
  const release = holdStreamSlot(services, req.auth!.userId);
  res.on('close', release);
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    // The connection ends with the stream: a socket kept alive after a shutdown ended the stream
    // would hold the stopping server until the keep-alive timeout.
    Connection: 'close',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  let left = false;
  res.on('close', () => (left = true));
  // Events answered before the request may still be loading (and so not published yet): they
  // are not part of the stream, so it subscribes once they are loaded, waiting as a read does.
  await ingestWriter(services).readBarrier();
  if (left) return;
  res.write(': connected\n\n');
  // node:net sets `server` on the sockets a server accepts; the stream watches it to end with it.
  const server = (req.socket as { server?: Server }).server;
  const stream = new LiveStream(services, res, projectId, streamAccess(services, req.auth!, projectId), server);
  res.on('close', () => stream.close());
}

class LiveStream {
  private readonly sampler = new StreamSampler(STREAM_MAX_PER_SECOND, 1000);
  private readonly unsubscribe: () => void;
  private readonly ticker: NodeJS.Timeout;
  private noticeTimer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private lastNoticeAt = -Infinity;
  private ticks = 0;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly services: Services,
    private readonly res: Response,
    private readonly projectId: number,
    private readonly allowed: () => boolean,
    private readonly server: Server | undefined,
  ) {
    // A backlog of two full commit groups: receive() drains it on every delivery, so the bus never
    // drops for this subscriber and every event is either sent or counted as dropped.
    this.unsubscribe = eventBus(services).subscribe((batch) => this.receive(batch), { projectId, maxPending: 2 * ingestWriter(services).groupRows });
    const heartbeatMs = Math.max(MIN_HEARTBEAT_MS, services.config.events.stream_heartbeat_ms);
    const period = Math.min(heartbeatMs, 1000);
    this.ticker = setInterval(() => this.tick(Math.round(heartbeatMs / period)), period);
    this.ticker.unref();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    clearInterval(this.ticker);
    clearTimeout(this.noticeTimer);
    if (!this.res.writableEnded) this.res.end();
  }

  private receive(batch: readonly CommittedEvent[]): void {
    const now = performance.now();
    const out: Outgoing[] = [];
    for (const event of batch) {
      const notice = this.takeNotice(now);
      if (notice) out.push(notice);
      if (this.res.writableLength < MAX_BUFFERED_BYTES && this.sampler.take(now)) out.push({ kind: 'event', event });
      else this.dropped += 1;
    }
    this.send(out);
    this.scheduleNotice();
  }

  /** The pending `dropped` message, if one is due and fits the budget now. */
  private takeNotice(now: number): Outgoing | undefined {
    if (this.dropped === 0 || now - this.lastNoticeAt < NOTICE_INTERVAL_MS || !this.sampler.take(now)) return undefined;
    const notice: Outgoing = { kind: 'dropped', count: this.dropped };
    this.dropped = 0;
    this.lastNoticeAt = now;
    return notice;
  }

  /** Events dropped in a burst are reported once the budget allows, even if nothing else arrives. */
  private scheduleNotice(): void {
    if (this.dropped === 0 || this.noticeTimer || this.closed) return;
    const now = performance.now();
    const due = Math.max(this.sampler.nextFreeAt(now), this.lastNoticeAt + NOTICE_INTERVAL_MS);
    this.noticeTimer = setTimeout(
      () => {
        this.noticeTimer = undefined;
        const notice = this.takeNotice(performance.now());
        if (notice) this.send([notice]);
        this.scheduleNotice();
      },
      Math.max(1, Math.ceil(due - now)),
    );
    this.noticeTimer.unref();
  }

  /** Writes in arrival order; resolving actors is a read, so writes queue behind each other. */
  private send(out: Outgoing[]): void {
    if (out.length === 0) return;
    this.writing = this.writing.then(() => this.write(out));
  }

  private async write(out: Outgoing[]): Promise<void> {
    if (this.closed) return;
    const events = out.flatMap((o) => (o.kind === 'event' ? [o.event] : []));
    let actors: Map<string, string>;
    try {
      actors = await actorsOf(
        this.services,
        this.projectId,
        events.map((e) => e.distinct_id),
      );
    } catch (err) {
      this.services.log.warn({ err, project_id: this.projectId }, 'live stream closed: actors could not be resolved');
      this.close();
      return;
    }
    // Rights are re-read before anything is written: a removed member gets no further event.
    if (this.closed || !this.allowed()) {
      this.close();
      return;
    }
    for (const o of out) {
      if (o.kind === 'dropped') this.res.write(`event: dropped\ndata: ${JSON.stringify({ count: o.count })}\n\n`);
      else this.res.write(`event: event\ndata: ${JSON.stringify(itemFromCommitted(o.event, actors.get(o.event.distinct_id)!))}\n\n`);
      this.sampler.wrote(performance.now());
    }
  }

  private tick(ticksPerHeartbeat: number): void {
    // A stopping server waits for open connections; a stream would hold it for the whole drain time.
    if ((this.server && !this.server.listening) || !this.allowed()) {
      this.close();
      return;
    }
    this.ticks += 1;
    if (this.ticks % ticksPerHeartbeat === 0) this.res.write(': heartbeat\n\n');
  }
}
