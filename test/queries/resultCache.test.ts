// The result cache of analytical queries: a repeated query is answered from memory with the same
// body; an acknowledged event or identify of the project, any other write to the events, the next
// local day or a changed saved segment make the next answer fresh; ingest into another project
// does not; and `Cache-Control: no-cache` always computes.

import t from 'tap';
import { queryHarness } from './harness.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { seedIdentity } from '../support/seedEvents.js';
import { grantEntitlements } from '../support/license.js';
import { createSegment, updateSegment } from '../../server/accounts/segments.js';
import { ResultCache, cacheKey } from '../../server/queries/resultCache.js';

const range = { date_from: '2025-12-30', date_to: '2025-12-31' };
const uniques = { metric: 'uniques', event: 'view', interval: 'day', ...range };
const total = (res: { body: any }) => (res.body.series as Array<{ points: Array<{ value: number | null }> }>).reduce((n, s) => n + s.points.reduce((a, x) => a + (x.value ?? 0), 0), 0);

t.test("answers come from the cache until the project's events change", async (t) => {
  const h = await queryHarness(t);
  const [a, b] = [h.project(), h.project()];
  const keys = { a: createIngestKey(h.server, { id: a }), b: createIngestKey(h.server, { id: b }) };
  const view = (user: string) => ({ event: 'view', user_id: user, ts: '2025-12-31T10:00:00Z' });
  t.equal((await ingestEvents(h.server, keys.a, [view('u1'), view('u2')])).status, 202);
  const ask = (project: number, body: object = uniques, headers: Record<string, string> = {}) =>
    h.server.request('POST', `/api/v1/projects/${project}/queries/segmentation`, { body, token: h.token, headers });

  const first = await ask(a);
  t.equal(first.status, 200);
  t.equal(first.headers.get('x-pp-cache'), 'miss');
  t.equal(total(first), 2);
  const again = await ask(a);
  t.equal(again.headers.get('x-pp-cache'), 'hit');
  t.equal(again.text, first.text, 'the same body');
  t.equal(again.headers.get('content-type'), first.headers.get('content-type'));
  const reordered = await ask(a, Object.fromEntries(Object.entries(uniques).reverse()));
  t.equal(reordered.headers.get('x-pp-cache'), 'hit', 'parameters in another order are the same query');
  const fresh = await ask(a, uniques, { 'cache-control': 'no-cache' });
  t.equal(fresh.headers.get('x-pp-cache'), 'bypass');
  t.equal(fresh.text, first.text);
  t.equal((await ask(a, { ...uniques, metric: 'events' })).headers.get('x-pp-cache'), 'miss', 'other parameters');

  t.equal((await ingestEvents(h.server, keys.b, [view('u9')])).status, 202);
  t.equal((await ask(a)).headers.get('x-pp-cache'), 'hit', 'events of another project leave the answer cached');
  t.equal((await ask(b)).headers.get('x-pp-cache'), 'miss');

  // Read-your-writes: an acknowledged event is in the next answer.
  t.equal((await ingestEvents(h.server, keys.a, [view('u3')])).status, 202);
  const afterIngest = await ask(a);
  t.equal(afterIngest.headers.get('x-pp-cache'), 'miss');
  t.equal(total(afterIngest), 3);
  t.equal((await ask(a)).headers.get('x-pp-cache'), 'hit');

  // An identify changes who is who in its own project only.
  t.equal((await ask(b)).headers.get('x-pp-cache'), 'hit');
  const identify = await h.server.request('POST', '/v1/identify', { token: keys.a.value, body: { anonymous_id: 'u3', user_id: 'u1' } });
  t.equal(identify.status, 202);
  const identified = await ask(a);
  t.equal(identified.headers.get('x-pp-cache'), 'miss', 'an identify in the project');
  t.equal(total(identified), 2, 'u3 is u1 now');
  t.equal((await ask(b)).headers.get('x-pp-cache'), 'hit', "another project's identify");

  // A write of no stated scope (here an identity link stored directly) may change every project's answers.
  await seedIdentity(h.server, a, 'u2', 'u1');
  const merged = await ask(a);
  t.equal(merged.headers.get('x-pp-cache'), 'miss');
  t.equal(total(merged), 1, 'u1, u2 and u3 are one actor now');
  t.equal((await ask(b)).headers.get('x-pp-cache'), 'miss');

  // The answer depends on the local date (open periods): the next day computes again.
  h.server.clock.advance(24 * 3_600_000);
  await h.renewToken();
  t.equal((await ask(a)).headers.get('x-pp-cache'), 'miss', 'a new local day');
});

t.test('a changed saved segment is a different query', async (t) => {
  const h = await queryHarness(t);
  await grantEntitlements(h.server, ['saved_segments']);
  const p = h.project();
  const key = createIngestKey(h.server, { id: p });
  const events = [
    { event: 'view', user_id: 'u1', ts: '2025-12-31T10:00:00Z', props: { plan: 'pro' } },
    { event: 'view', user_id: 'u2', ts: '2025-12-31T10:00:00Z', props: { plan: 'free' } },
    { event: 'view', user_id: 'u3', ts: '2025-12-31T11:00:00Z', props: { plan: 'free' } },
  ];
  t.equal((await ingestEvents(h.server, key, events)).status, 202);
  const { meta, clock } = h.server.running.services;
  const segment = createSegment(meta, p, { name: 'paying', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] }, h.tenant.owner.id, clock.now());
  const body = { ...uniques, filters: [`segment:${segment.id}`] };
  const ask = () => h.query(p, 'segmentation', body);
  t.equal(total(await ask()), 1);
  t.equal((await ask()).headers.get('x-pp-cache'), 'hit');
  updateSegment(meta, p, segment.id, { filters: [{ field: 'props.plan', op: 'eq', value: 'free' }] }, clock.now());
  const changed = await ask();
  t.equal(changed.headers.get('x-pp-cache'), 'miss');
  t.equal(total(changed), 2, 'the answer of the new definition');
});

t.test('the cache keeps the most recently used answers within its budget', async (t) => {
  const cache = new ResultCache(10_000);
  const body = (c: string) => c.repeat(400); // 864 bytes each
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']) cache.set(k, body(k));
  t.equal(cache.size.entries, 11);
  t.equal(cache.get('a'), body('a'), 'a is now the most recently used');
  cache.set('l', body('l'));
  t.equal(cache.get('b'), undefined, 'the least recently used left');
  t.equal(cache.get('a'), body('a'));
  t.ok(cache.size.bytes <= 10_000);
  cache.set('big', 'x'.repeat(1000));
  t.equal(cache.get('big'), undefined, 'an answer over an eighth of the budget is not kept');
  cache.set('a', 'short');
  t.equal(cache.get('a'), 'short', 'replaced');
  t.ok(cache.size.bytes <= 10_000);
  t.equal(new ResultCache(0).get('a'), undefined);
  t.equal(cacheKey([{ x: 1, y: [{ b: 2, a: 1 }] }]), cacheKey([{ y: [{ a: 1, b: 2 }], x: 1 }]), 'property order does not matter');
  t.not(cacheKey([{ x: 1 }]), cacheKey([{ x: 2 }]));
});
