// Time as a dependency: every domain reads `now` from the clock it is given, so tests can move it.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
