// A clock tests set and advance; the server reads it wherever it needs `now`. Moving it forward is
// time passing; moving it back, or `step`, is the wall clock stepping while no time passes.

import type { Clock } from '../../server/ground/clock.js';

export class ManualClock implements Clock {
  private current: number;
  private elapsed = 0;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  elapsedMs(): number {
    return this.elapsed;
  }

  set(date: Date | string): void {
    this.advance(new Date(date).getTime() - this.current);
  }

  advance(ms: number): void {
    this.current += ms;
    this.elapsed += Math.max(0, ms);
  }

  /** Steps the wall clock by `ms` (either way) as NTP or a resumed VM does: no time passes. */
  step(ms: number): void {
    this.current += ms;
  }
}
