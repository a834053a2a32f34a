// In-process fan-out of committed events: after each group commit the writer publishes what it
// stored, and subscribers (the live stream) receive it on a later turn of the event loop. A
// subscriber that falls behind loses its oldest events; ingest never waits for anyone.

import type { Services } from '../http/services.js';
import type { Logger } from '../ground/logger.js';

/** An event as stored, in the shape an events list shows it. */
export interface CommittedEvent {
  project_id: number;
  uuid: string;
  event: string;
  ts: string;
  received_at: string;
  distinct_id: string;
  anonymous_id: string | null;
  user_id: string | null;
  session_id: string | null;
  source: 'browser' | 'server' | 'unknown' | 'system';
  sdk_name: string | null;
  sdk_version: string | null;
  release: string | null;
  url: string | null;
  path: string | null;
  referrer: string | null;
  props: Record<string, unknown> | null;
  revenue: number | null;
  invalid: boolean;
  invalid_reasons: string[];
}

export type Subscriber = (events: readonly CommittedEvent[]) => void;

export interface SubscribeOptions {
  /** Only this project's events. */
  projectId?: number;
  /** Events held for a subscriber that has not been called yet; beyond it the oldest are dropped. */
  maxPending?: number;
}

interface Subscription {
  fn: Subscriber;
  projectId?: number;
  maxPending: number;
  pending: CommittedEvent[];
  scheduled: boolean;
  dropped: number;
}

const DEFAULT_MAX_PENDING = 10_000;

export class EventBus {
  private readonly subs = new Set<Subscription>();

  constructor(private readonly log: Logger) {}

  /** Returns the function that ends the subscription. */
  subscribe(fn: Subscriber, options: SubscribeOptions = {}): () => void {
    const sub: Subscription = { fn, projectId: options.projectId, maxPending: options.maxPending ?? DEFAULT_MAX_PENDING, pending: [], scheduled: false, dropped: 0 };
    this.subs.add(sub);
    return () => {
      this.subs.delete(sub);
      sub.pending = [];
    };
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  /** Queues the events for every interested subscriber and returns at once. */
  publish(events: readonly CommittedEvent[]): void {
    if (events.length === 0) return;
    for (const sub of this.subs) {
      const mine = sub.projectId === undefined ? events : events.filter((e) => e.project_id === sub.projectId);
      if (mine.length === 0) continue;
      sub.pending.push(...mine);
      const excess = sub.pending.length - sub.maxPending;
      if (excess > 0) {
        sub.pending.splice(0, excess);
        sub.dropped += excess;
      }
      if (!sub.scheduled) {
        sub.scheduled = true;
        setImmediate(() => this.deliver(sub));
      }
    }
  }

  private deliver(sub: Subscription): void {
    sub.scheduled = false;
    if (!this.subs.has(sub) || sub.pending.length === 0) return;
    const batch = sub.pending;
    sub.pending = [];
    if (sub.dropped > 0) {
      this.log.warn({ dropped: sub.dropped, project_id: sub.projectId }, 'event bus subscriber fell behind; oldest events dropped');
      sub.dropped = 0;
    }
    try {
      sub.fn(batch);
    } catch (err) {
      this.log.error({ err }, 'event bus subscriber failed');
    }
  }
}

/** The bus of one running server (one per Services). */
export function eventBus(services: Services): EventBus {
  return services.bus;
}
