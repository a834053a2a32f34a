// A clock tests set and advance; the server reads it wherever it needs `now`.

import type { Clock } from '../../server/clock.js';

export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date | string): void {
    this.current = new Date(date).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
