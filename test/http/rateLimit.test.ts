// Sliding windows: at most the budget in any 60 seconds, admissions coming back as they age out,
// the 429 envelope with Retry-After, and windows that a wall clock stepping back or forward leaves alone.

import t from 'tap';
import fc from 'fast-check';
import { RateLimiter } from '../../server/http/rateLimit.js';
import { RateLimitedError } from '../../server/ground/errors.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestServer } from '../support/testServer.js';

/** Whether `take` admitted the request. */
function admitted(limiter: RateLimiter, key: string, perMinute: number): boolean {
  try {
    limiter.take('login', key, { perMinute });
    return true;
  } catch (err) {
    if (err instanceof RateLimitedError) return false;
    throw err;
  }
}

t.test('a window admits its budget, refuses, and admits again as admissions age out', async (t) => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const limiter = new RateLimiter(clock);
  for (let i = 0; i < 3; i++) {
    limiter.take('login', 'a@x', { perMinute: 3 });
    clock.advance(10_000);
  }
  const err = t.throws(() => limiter.take('login', 'a@x', { perMinute: 3 })) as unknown as RateLimitedError;
  t.ok(err instanceof RateLimitedError);
  t.equal(err.headers['Retry-After'], '30', 'the first admission leaves the window 60 s after it was made');
  limiter.take('login', 'b@x', { perMinute: 3 });
  t.pass('another key has its own window');
  clock.advance(29_999);
  t.notOk(admitted(limiter, 'a@x', 3), 'still full a millisecond early');
  clock.advance(1);
  t.ok(admitted(limiter, 'a@x', 3));
  t.notOk(admitted(limiter, 'a@x', 3), 'one came back, one was spent');
});

t.test('one attempt every 3 seconds for a minute gets exactly the budget through', async (t) => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const limiter = new RateLimiter(clock);
  let through = 0;
  for (let i = 0; i < 20; i++) {
    if (admitted(limiter, 'ip', 10)) through++;
    clock.advance(3_000);
  }
  t.equal(through, 10);
});

t.test('never more than the budget inside any 60 seconds, whatever the arrival times', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 12 }), (gaps, perMinute) => {
      const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
      const limiter = new RateLimiter(clock);
      const admittedAt: number[] = [];
      for (const gap of gaps) {
        clock.advance(gap);
        const now = clock.now().getTime();
        const inWindow = admittedAt.filter((a) => a > now - 60_000).length;
        const ok = admitted(limiter, 'k', perMinute);
        if (ok !== inWindow < perMinute) return false;
        if (ok) admittedAt.push(now);
      }
      return true;
    }),
  );
  t.pass('admitted exactly when the last 60 seconds held fewer than the budget');
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** Fills `key`'s window of 3 at one moment and returns the limiter. */
function fullWindow(clock: ManualClock): RateLimiter {
  const limiter = new RateLimiter(clock);
  for (let i = 0; i < 3; i++) limiter.take('login', 'a@x', { perMinute: 3 });
  return limiter;
}

for (const [direction, stepMs] of [
  ['back', -DAY_MS],
  ['forward', DAY_MS],
] as const) {
  t.test(`a wall clock stepped ${direction} by a day keeps the window a minute long`, async (t) => {
    const clock = new ManualClock(new Date('2026-04-10T12:00:00Z'));
    const limiter = fullWindow(clock);
    clock.step(stepMs);
    const err = t.throws(() => limiter.take('login', 'a@x', { perMinute: 3 })) as unknown as RateLimitedError;
    t.equal(err.headers['Retry-After'], '60', 'still the admissions of the last minute, and at most a minute to wait');
    clock.advance(59_999);
    t.notOk(admitted(limiter, 'a@x', 3));
    clock.advance(1);
    t.ok(admitted(limiter, 'a@x', 3), 'a minute after the admissions the window is open again');
  });
}

t.test('Retry-After never exceeds the window, whatever the steps between admissions', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: -DAY_MS, max: DAY_MS })), { minLength: 1, maxLength: 100 }), (moves) => {
      const clock = new ManualClock(new Date('2026-04-10T12:00:00Z'));
      const limiter = new RateLimiter(clock);
      for (const [gap, step] of moves) {
        clock.advance(gap);
        clock.step(step);
        try {
          limiter.take('login', 'k', { perMinute: 2 });
        } catch (err) {
          if (!(err instanceof RateLimitedError) || Number(err.headers['Retry-After']) > 60) return false;
        }
      }
      return true;
    }),
  );
  t.pass('every 429 asks for at most 60 seconds');
});

t.test('the main API answers 429 rate_limited with Retry-After in whole seconds', async (t) => {
  const server = await startTestServer(t, { settings: { 'rate_limit.ip_per_minute': 5 } });
  for (let i = 0; i < 5; i++) t.equal((await server.request('GET', '/api/v1/health')).status, 200);
  const limited = await server.request('GET', '/api/v1/health');
  t.equal(limited.status, 429);
  t.equal(limited.body.error.code, 'rate_limited');
  t.match(limited.headers.get('retry-after'), /^\d+$/);
  t.equal(limited.headers.get('retry-after'), '60');
  t.equal((await server.request('GET', '/v1/health')).status, 200, 'the ingestion surface has its own budgets');
  server.clock.advance(60_000);
  t.equal((await server.request('GET', '/api/v1/health')).status, 200);
});

t.test('moving a test server clock back and forth holds no address out', async (t) => {
  const server = await startTestServer(t, { now: new Date('2026-11-20T08:30:00Z'), settings: { 'rate_limit.ip_per_minute': 5 } });
  for (let i = 0; i < 5; i++) t.equal((await server.request('GET', '/api/v1/health')).status, 200);
  server.clock.set('2026-04-10T12:00:00Z');
  const limited = await server.request('GET', '/api/v1/health');
  t.equal(limited.status, 429, 'the five admissions of the last minute still count');
  t.equal(limited.headers.get('retry-after'), '60', 'not the 224 days to the moment the clock left');
  t.equal(limited.body.error.details.retry_after, 60);
  server.clock.set('2026-11-20T08:30:00Z');
  t.equal((await server.request('GET', '/api/v1/health')).status, 200, 'moving forward by more than a minute is time passing');
});
