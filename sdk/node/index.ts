// pp's server-side client for Node: track, identify and alias with a pp_sk_ server key. Events
// are batched and sent to /v1/track; failed sends (network, 5xx, 408, 429) are retried with
// exponential backoff and full jitter. Every event gets a uuid when it is tracked, so a retry of
// a batch the server already stored is not stored twice.

import { randomUUID } from 'node:crypto';

export const SDK_NAME = 'pp-node';
export const SDK_VERSION = '0.1.0';
const TRACKER = `${SDK_NAME}/${SDK_VERSION}`;
const MAX_BATCH = 500;

export interface PpClientOptions {
  /** Base URL of the pp server, e.g. https://pp.internal.example */
  host: string;
  /** A pp_sk_ server key (never put it in a browser). */
  key: string;
  /** Events per request; a batch is sent as soon as this many are queued (default 50, at most 500). */
  flushAt?: number;
  /** Queued events are sent at least this often (default 5000 ms). */
  flushIntervalMs?: number;
  /** Retries of one request after its first attempt (default 5). */
  maxRetries?: number;
  /** First backoff step; doubles per retry up to 30 s, with full jitter (default 500 ms). */
  retryBaseMs?: number;
  /** Time limit of one attempt (default 10000 ms). */
  timeoutMs?: number;
  /** Events held while the server is unreachable; beyond it the oldest are dropped (default 10000). */
  maxQueueSize?: number;
  /** Told about requests given up on and events the server refused. Default: console.warn. */
  onError?: (error: PpError) => void;
}

export interface TrackInput {
  event: string;
  /** At least one of userId and anonymousId. */
  userId?: string;
  anonymousId?: string;
  sessionId?: string;
  props?: Record<string, unknown>;
  url?: string;
  referrer?: string;
  release?: string;
  /** When it happened (default: now). */
  timestamp?: Date | string;
  /** Your own id for the event; by default a random UUID. */
  uuid?: string;
}

export interface Refusal {
  index: number;
  code: string;
  message: string;
}

export class PpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** Events of a batch the server refused (with their codes). */
    readonly rejected: Refusal[] = [],
  ) {
    super(message);
    this.name = 'PpError';
  }
}

interface WireEvent {
  event: string;
  uuid: string;
  ts: string;
  user_id?: string;
  anonymous_id?: string;
  session_id?: string;
  props?: Record<string, unknown>;
  url?: string;
  referrer?: string;
  release?: string;
}

const RETRY_CAP_MS = 30_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PpClient {
  private readonly host: string;
  private readonly key: string;
  private readonly flushAt: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly timeoutMs: number;
  private readonly maxQueueSize: number;
  private readonly onError: (error: PpError) => void;
  private queue: WireEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(options: PpClientOptions) {
    if (!options.host || !options.key) throw new TypeError('PpClient needs a host and a key');
    this.host = options.host.replace(/\/+$/, '');
    this.key = options.key;
    this.flushAt = Math.min(MAX_BATCH, Math.max(1, options.flushAt ?? 50));
    this.maxRetries = Math.max(0, options.maxRetries ?? 5);
    this.retryBaseMs = Math.max(1, options.retryBaseMs ?? 500);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxQueueSize = options.maxQueueSize ?? 10_000;
    this.onError = options.onError ?? ((e) => console.warn(`[pp] ${e.message}`));
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 5000);
    // A pending interval must not keep a finished script alive; close() sends what is left.
    this.timer.unref();
  }

  /** Queues an event and returns its uuid. */
  track(input: TrackInput): string {
    if (this.closed) throw new Error('PpClient is closed');
    if (typeof input?.event !== 'string' || input.event === '') throw new TypeError('track needs an event name');
    if (!input.userId && !input.anonymousId) throw new TypeError('track needs a userId or an anonymousId');
    const uuid = input.uuid ?? randomUUID();
    const ts = input.timestamp === undefined ? new Date() : new Date(input.timestamp);
    const event: WireEvent = { event: input.event, uuid, ts: ts.toISOString() };
    if (input.userId) event.user_id = input.userId;
    if (input.anonymousId) event.anonymous_id = input.anonymousId;
    if (input.sessionId) event.session_id = input.sessionId;
    if (input.props) event.props = input.props;
    if (input.url) event.url = input.url;
    if (input.referrer) event.referrer = input.referrer;
    if (input.release) event.release = input.release;
    this.queue.push(event);
    if (this.queue.length > this.maxQueueSize) {
      const dropped = this.queue.splice(0, this.queue.length - this.maxQueueSize);
      this.onError(new PpError(`queue full: dropped ${dropped.length} oldest events`));
    }
    if (this.queue.length >= this.flushAt) void this.flush();
    return uuid;
  }

  /** Links an anonymous id to a user id. Resolves once the server has stored the link. */
  identify(input: { userId: string; anonymousId: string; traits?: Record<string, unknown> }): Promise<void> {
    const body: Record<string, unknown> = { anonymous_id: input.anonymousId, user_id: input.userId };
    if (input.traits) body.traits = input.traits;
    return this.tracked(this.deliver('/v1/identify', body));
  }

  /** Links a previous id (and everything linked to it) to a user id. */
  alias(input: { previousId: string; userId: string }): Promise<void> {
    return this.tracked(this.deliver('/v1/alias', { previous_id: input.previousId, user_id: input.userId }));
  }

  /** Sends everything queued so far; resolves when those requests are done (or given up). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.flushAt);
        await this.deliver('/v1/track', { events: batch });
      }
    });
    return this.flushing;
  }

  /** Stops the timer, sends what is queued and waits for identify/alias calls in flight. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
    await Promise.all([...this.pending]);
  }

  private tracked(p: Promise<void>): Promise<void> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  /** One request with retries; reports (never throws) what it finally could not deliver. */
  private async deliver(path: string, body: Record<string, unknown>): Promise<void> {
    let lastError = new PpError('not sent');
    let retryAfter: number | undefined;
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      if (attempt > 0) await sleep(this.backoff(attempt, retryAfter));
      retryAfter = undefined;
      let res: Response;
      try {
        res = await fetch(this.host + path, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json', 'x-pp-tracker': TRACKER },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        lastError = new PpError(`${path}: ${(err as Error).message}`);
        continue;
      }
      const answer = (await res.json().catch(() => ({}))) as { rejected?: Refusal[]; error?: { code?: string; message?: string } };
      if (res.ok) {
        if (answer.rejected && answer.rejected.length > 0) {
          this.onError(new PpError(`${path}: the server refused ${answer.rejected.length} item(s)`, res.status, 'rejected', answer.rejected));
        }
        return;
      }
      lastError = new PpError(`${path}: ${res.status} ${answer.error?.message ?? res.statusText}`, res.status, answer.error?.code);
      retryAfter = retryAfterMs(res.headers.get('retry-after'));
      if (!retryable(res.status)) break;
    }
    this.onError(lastError);
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const ceiling = Math.min(RETRY_CAP_MS, this.retryBaseMs * 2 ** (attempt - 1));
    // Full jitter, so many processes that failed together do not retry together.
    return Math.max(Math.min(retryAfter ?? 0, RETRY_CAP_MS), Math.random() * ceiling);
  }
}

function retryable(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
