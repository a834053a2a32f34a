// Time as a dependency: every domain reads `now` from the clock it is given, so tests can move it.
// The wall clock may step (NTP, a resumed VM); `elapsedMs` never goes back, for in-process durations.

export interface Clock {
  now(): Date;
  /** Milliseconds on a clock that only moves forward, from an arbitrary origin; for durations inside one process. */
  elapsedMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), elapsedMs: () => performance.now() };

/** How far ahead of its lifetime a stored expiry may lie: a clock stepped back by up to this much ends nothing early. */
export const STEP_TOLERANCE_MS = 60_000;

/**
 * Whether something that lives `lifetimeMs` and expires at `expiresAtMs` is alive at `nowMs`. An
 * expiry further ahead than the lifetime was set before the clock stepped back: honouring it would
 * let the thing live for the step plus its lifetime, so it is over instead.
 */
export function aliveAt(expiresAtMs: number, nowMs: number, lifetimeMs: number): boolean {
  return nowMs < expiresAtMs && expiresAtMs - nowMs <= lifetimeMs + STEP_TOLERANCE_MS;
}

/** The latest expiry still alive at `now` for a lifetime, as an ISO string for SQL bounds (`expires_at <= ?`). */
export function latestLiveExpiry(now: Date, lifetimeMs: number): string {
  return new Date(now.getTime() + lifetimeMs + STEP_TOLERANCE_MS).toISOString();
}
