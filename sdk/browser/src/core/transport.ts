// Delivery of everything the tracker sends: events are buffered and batched into /v1/track
// requests; those and other requests (identify, alias, replay, capture) go out one at a
// time in order, retried with backoff. On page hide the rest leaves by sendBeacon.
import type { Props } from '../shared/types.js';
import { log } from './util.js';

export interface WireEvent {
  event: string;
  uuid: string;
  ts: string;
  anonymous_id: string;
  user_id?: string;
  session_id: string;
  url: string;
  referrer?: string;
  props?: Props;
  elements?: unknown[];
}

interface Request {
  path: string;
  body: string;
  bearer: boolean;
  sending?: boolean;
  keepalive?: boolean;
}

const MAX_EVENTS_BUFFERED = 1000;
const MAX_REQUESTS_QUEUED = 50;
const MAX_BATCH_EVENTS = 500;
const MAX_BATCH_BYTES = 1024 * 1024 - 1024;
// keepalive and sendBeacon bodies share a 64 KiB in-flight budget per page.
const SMALL_BODY = 60 * 1024;
const BATCH_DELAY_MS = 1000;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 60 * 1000;

const encoder = new TextEncoder();
const bytes = (s: string): number => encoder.encode(s).length;

export function retryAfterMs(header: string | null): number {
  if (!header) return 0;
  const secs = Number(header);
  if (!isNaN(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

export class Transport {
  private events: WireEvent[] = [];
  private requests: Request[] = [];
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waitUntil = 0;

  constructor(
    private readonly host: string,
    private readonly key: string,
    private readonly tracker: string,
  ) {
    addEventListener('online', () => {
      this.waitUntil = 0;
      this.kick(0);
    });
  }

  enqueue(ev: WireEvent): void {
    this.events.push(ev);
    if (this.events.length > MAX_EVENTS_BUFFERED) this.events.splice(0, this.events.length - MAX_EVENTS_BUFFERED);
    this.kick(this.events.length >= MAX_BATCH_EVENTS ? 0 : BATCH_DELAY_MS);
  }

  send(path: string, body: Props, bearer: boolean): void {
    this.push({ path, body: JSON.stringify(body), bearer });
    this.kick(0);
  }

  private push(r: Request): void {
    this.requests.push(r);
    // Beyond the bound the oldest waiting request goes, replay chunks before events.
    while (this.requests.length > MAX_REQUESTS_QUEUED) {
      let i = this.requests.findIndex((q) => !q.sending && q.path !== '/v1/track');
      if (i < 0) i = this.requests.findIndex((q) => !q.sending);
      if (i < 0) break;
      this.requests.splice(i, 1);
    }
  }

  private kick(delay: number): void {
    const at = Math.max(Date.now() + delay, this.waitUntil);
    if (this.timer !== undefined) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, at - Date.now());
  }

  // Drains the buffer into /v1/track bodies of at most 500 events and under `limit` bytes.
  private batches(limit: number): Request[] {
    const out: Request[] = [];
    const head = `{"credential":${JSON.stringify(this.key)},"tracker":${JSON.stringify(this.tracker)},"events":[`;
    let parts: string[] = [];
    let size = bytes(head) + 2;
    const close = (): void => {
      if (parts.length) out.push({ path: '/v1/track', body: head + parts.join(',') + ']}', bearer: false });
      parts = [];
      size = bytes(head) + 2;
    };
    for (const ev of this.events) {
      const s = JSON.stringify(ev);
      const n = bytes(s) + 1;
      if (n + bytes(head) + 2 > limit) {
        log('event too large, dropped', ev.event);
        continue;
      }
      if (parts.length >= MAX_BATCH_EVENTS || size + n > limit) close();
      parts.push(s);
      size += n;
    }
    close();
    this.events = [];
    return out;
  }

  private pump(): void {
    if (this.requests.some((r) => r.sending)) return;
    // Events go ahead of queued replay chunks; one batch set at a time keeps their order.
    if (this.events.length && !this.requests.some((r) => r.path === '/v1/track')) {
      this.requests.unshift(...this.batches(MAX_BATCH_BYTES));
    }
    const r = this.requests[0];
    if (r) void this.deliver(r);
  }

  private async deliver(r: Request): Promise<void> {
    r.sending = true;
    r.keepalive = bytes(r.body) < SMALL_BODY;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-PP-Tracker': this.tracker };
    if (r.bearer) headers.Authorization = `Bearer ${this.key}`;
    let retry = false;
    let wait = 0;
    try {
      const res = await fetch(this.host + r.path, {
        method: 'POST',
        headers,
        body: r.body,
        keepalive: r.keepalive,
        credentials: 'omit',
        mode: 'cors',
      });
      if (res.status >= 500 || res.status === 429 || res.status === 408) {
        retry = true;
        wait = retryAfterMs(res.headers.get('Retry-After'));
      } else if (res.status >= 400) {
        log(r.path, 'rejected with', res.status);
      } else if (res.status === 202) {
        const body = await res.json().catch(() => null);
        if (body && Array.isArray(body.rejected) && body.rejected.length) log(r.path, 'rejected events', body.rejected);
      }
    } catch (err) {
      retry = true;
      log(r.path, 'network error', err);
    }
    r.sending = false;
    if (retry) {
      this.attempt++;
      const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.attempt - 1));
      // Equal jitter: at least half the backoff, so a fleet of pages does not retry in step.
      this.waitUntil = Date.now() + Math.max(wait, base / 2 + Math.random() * (base / 2));
    } else {
      this.attempt = 0;
      this.waitUntil = 0;
      this.requests = this.requests.filter((q) => q !== r);
    }
    if (this.requests.length || this.events.length) this.kick(0);
  }

  // Page is going away (or may be frozen): hand everything to the browser's unload-safe
  // paths. Bodies that carry the key may use sendBeacon; bearer requests need fetch for the
  // header, so they go with keepalive. What could not be handed over stays queued, in case
  // the page comes back from the back/forward cache.
  flushOnHide(): void {
    for (const r of this.batches(SMALL_BODY)) this.push(r);
    // Events first: they are small and worth more than a replay chunk if the budget runs out.
    const order = this.requests.filter((r) => r.path === '/v1/track').concat(this.requests.filter((r) => r.path !== '/v1/track'));
    for (const r of order) {
      if (r.sending) continue;
      if (this.handOver(r)) this.requests = this.requests.filter((q) => q !== r);
    }
  }

  private handOver(r: Request): boolean {
    if (bytes(r.body) >= SMALL_BODY) return false;
    const url = this.host + r.path;
    // A refused beacon means the page's unload budget is spent; keepalive shares it.
    if (!r.bearer && typeof navigator.sendBeacon === 'function') {
      try {
        return navigator.sendBeacon(url, new Blob([r.body], { type: 'text/plain' }));
      } catch {
        return false;
      }
    }
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-PP-Tracker': this.tracker };
      if (r.bearer) headers.Authorization = `Bearer ${this.key}`;
      void fetch(url, { method: 'POST', headers, body: r.body, keepalive: true, credentials: 'omit', mode: 'cors' }).catch(() => undefined);
      return true;
    } catch {
      return false;
    }
  }
}
