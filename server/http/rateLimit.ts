// Sliding-window limits keyed by whatever a route chooses (address, email, user, key): at most
// `perMinute` admissions in any 60 seconds. A full window answers 429 with Retry-After, the time
// until its oldest admission leaves it. (A refilling bucket would let nearly twice the budget
// through in the first minute.) Windows run on the clock's elapsed time, not the wall clock, so a
// wall clock stepping back or forward neither holds a window full nor empties it.

import type { Request, RequestHandler } from 'express';
import type { Clock } from '../ground/clock.js';
import { RateLimitedError } from '../ground/errors.js';

const WINDOW_MS = 60_000;
const PRUNE_EVERY = 10_000;

/** Admission times (elapsed ms) of one key, oldest first; `times[head..]` are the ones still inside the window. */
interface Window {
  times: number[];
  head: number;
}

export interface Budget {
  perMinute: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;

  constructor(private readonly clock: Clock) {}

  /** Admits one request for `name:key`; throws RateLimitedError when the last minute is full. */
  take(name: string, key: string, budget: Budget): void {
    const nowMs = this.clock.elapsedMs();
    const id = `${name}\u0000${key}`;
    let w = this.windows.get(id);
    if (!w) this.windows.set(id, (w = { times: [], head: 0 }));
    forgetBefore(w, nowMs - WINDOW_MS);
    if (w.times.length - w.head >= budget.perMinute) {
      const oldest = w.times[w.times.length - budget.perMinute]!;
      throw new RateLimitedError((oldest + WINDOW_MS - nowMs) / 1000);
    }
    w.times.push(nowMs);
    if (++this.calls % PRUNE_EVERY === 0) this.prune(nowMs);
  }

  /** Forgets keys with nothing inside the window, keeping memory bounded. */
  private prune(nowMs: number): void {
    for (const [id, w] of this.windows) if ((w.times.at(-1) ?? -Infinity) <= nowMs - WINDOW_MS) this.windows.delete(id);
  }
}

/** Drops admissions at or before `cutoff`; compacts once the dropped part dominates. */
function forgetBefore(w: Window, cutoff: number): void {
  while (w.head < w.times.length && w.times[w.head]! <= cutoff) w.head++;
  if (w.head > 64 && w.head * 2 > w.times.length) {
    w.times = w.times.slice(w.head);
    w.head = 0;
  }
}

/** Middleware spending one token per request from the bucket that `key` selects (skipped when it returns undefined). */
export function rateLimit(limiter: RateLimiter, name: string, budget: () => Budget, key: (req: Request) => string | undefined): RequestHandler {
  return (req, _res, next) => {
    const k = key(req);
    if (k !== undefined) limiter.take(name, k, budget());
    next();
  };
}
