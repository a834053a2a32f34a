// Token buckets keyed by whatever a route chooses (address, email, user, key). A bucket holds
// `perMinute` tokens and refills continuously; an empty bucket answers 429 with Retry-After.

import type { Request, RequestHandler } from 'express';
import type { Clock } from '../clock.js';
import { RateLimitedError } from './errors.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export interface Budget {
  perMinute: number;
}

const PRUNE_EVERY = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private calls = 0;

  constructor(private readonly clock: Clock) {}

  /** Takes one token from the bucket `name:key`; throws RateLimitedError when it is empty. */
  take(name: string, key: string, budget: Budget): void {
    const nowMs = this.clock.now().getTime();
    const id = `${name}\u0000${key}`;
    const rate = budget.perMinute / 60_000;
    const bucket = this.buckets.get(id) ?? { tokens: budget.perMinute, updatedMs: nowMs };
    bucket.tokens = Math.min(budget.perMinute, bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * rate);
    bucket.updatedMs = nowMs;
    if (bucket.tokens < 1) {
      this.buckets.set(id, bucket);
      throw new RateLimitedError((1 - bucket.tokens) / rate / 1000);
    }
    bucket.tokens -= 1;
    this.buckets.set(id, bucket);
    if (++this.calls % PRUNE_EVERY === 0) this.prune(nowMs, rate);
  }

  /** Forgets buckets that have been idle long enough to be full again, keeping memory bounded. */
  private prune(nowMs: number, slowestRate: number): void {
    const idleMs = 60_000 + 1 / Math.max(slowestRate, 1e-9);
    for (const [id, b] of this.buckets) if (nowMs - b.updatedMs > Math.min(idleMs, 3_600_000)) this.buckets.delete(id);
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
