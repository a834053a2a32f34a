// Token buckets: spending, refill with the clock, and the 429 envelope with Retry-After.

import t from 'tap';
import { RateLimiter } from '../../server/http/rateLimit.js';
import { RateLimitedError } from '../../server/http/errors.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestServer } from '../support/testServer.js';

t.test('a bucket spends, refuses, and refills with time', async (t) => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const limiter = new RateLimiter(clock);
  for (let i = 0; i < 3; i++) limiter.take('login', 'a@x', { perMinute: 3 });
  const err = t.throws(() => limiter.take('login', 'a@x', { perMinute: 3 })) as unknown as RateLimitedError;
  t.ok(err instanceof RateLimitedError);
  t.equal(err.headers['Retry-After'], '20', 'one token comes back after 20 s at 3 per minute');
  limiter.take('login', 'b@x', { perMinute: 3 });
  t.pass('another key has its own bucket');
  clock.advance(20_000);
  limiter.take('login', 'a@x', { perMinute: 3 });
  t.throws(() => limiter.take('login', 'a@x', { perMinute: 3 }));
});

t.test('the main API answers 429 rate_limited with Retry-After in whole seconds', async (t) => {
  const server = await startTestServer(t, { settings: { 'rate_limit.ip_per_minute': 5 } });
  for (let i = 0; i < 5; i++) t.equal((await server.request('GET', '/api/v1/health')).status, 200);
  const limited = await server.request('GET', '/api/v1/health');
  t.equal(limited.status, 429);
  t.equal(limited.body.error.code, 'rate_limited');
  t.match(limited.headers.get('retry-after'), /^\d+$/);
  t.equal(limited.headers.get('retry-after'), '12');
  t.equal((await server.request('GET', '/v1/health')).status, 200, 'the ingestion surface has its own budgets');
  server.clock.advance(12_000);
  t.equal((await server.request('GET', '/api/v1/health')).status, 200);
});
