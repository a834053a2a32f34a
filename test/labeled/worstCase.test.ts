// Rules built to make a backtracking matcher exponential, end to end: the url_pattern
// /*a*a*a*a*a*a*a*b on page views of 80 and 4,000 `a`s, and selectors of 12 descendant compounds on
// chains of 50 elements, matched as events arrive (the health check keeps answering), derived
// over history and previewed within the time limit. Past the limit a preview is 408 and a
// derivation job fails saying why.

import t, { type Test } from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { watchHealth } from '../support/inProcessHealth.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const HOST = 'https://example.com';
const server = await startTestServer(t, { now: NOW });
const tenant = await createTenant(server);
const token = await accessTokenFor(server, tenant.owner, tenant.org);
const p = tenant.project.id;
const base = `/api/v1/projects/${p}/labeled-events`;
const key = createIngestKey(server, { id: p }, { type: 'browser', domains: ['example.com'] });
const WILDCARD = { base_event: 'pp.page_view', url_pattern: '/*a*a*a*a*a*a*a*b' };
const divs = (n: number) => Array.from({ length: n }, () => ({ tag: 'div', nth_child: 1 }));
const NO_SECTION = { base_event: 'pp.click', selector: `section ${'div '.repeat(10)}div` };
const ALL_DIVS = { base_event: 'pp.click', selector: `${'div '.repeat(11)}div` };

/** Sends events with the browser token, the health check watched until they are stored. */
async function sendWatched(t: Test, events: Array<Record<string, unknown>>): Promise<void> {
  const watch = watchHealth(server);
  const res = await server.request('POST', '/v1/track', { token: key.value, headers: { origin: HOST, 'x-pp-tracker': 'pp-browser/0.6.5' }, body: { events } });
  await ingestWriter(server.running.services).loaded();
  const health = await watch.stop();
  t.equal(res.status, 202, res.text.slice(0, 200));
  t.equal(res.body.accepted, events.length);
  t.same(health.failures, []);
  t.ok(health.worstMs < 500, `every health check answered within 500 ms (worst ${health.worstMs.toFixed(0)} ms of ${health.polls})`);
}

const pageView = (path: string) => ({ event: 'pp.page_view', anonymous_id: 'a', url: `${HOST}${path}` });
const a = (n: number) => `/${'a'.repeat(n)}`;

// A first request of each kind warms the server up, so that only the matching is watched.
await server.request('GET', '/api/v1/health');
await server.request('POST', '/v1/track', { token: key.value, headers: { origin: HOST }, body: { events: [pageView('/warm')] } });
await ingestWriter(server.running.services).loaded();

async function createRule(body: Record<string, unknown>, name: string): Promise<number> {
  const res = await server.request('POST', base, { token, body: { ...body, event_name: name } });
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.text}`);
  return Number(res.body.id);
}

/** The rule once its job ended. */
async function settled(id: number): Promise<{ labeled_events: number; materialization: { state: string; derived_events: number | null; error: string | null } }> {
  const res = await eventually(
    `rule ${id} job finished`,
    () => server.request('GET', `${base}/${id}`, { token }),
    (r) => r.status !== 200 || ['succeeded', 'failed'].includes(r.body.materialization?.state),
    60_000,
  );
  return res.body;
}

const preview = (body: Record<string, unknown>) => server.request('POST', `${base}/preview`, { token, body });

t.test('a wildcard pattern that backtracks exponentially', async (t) => {
  // Before the rule: two paths without the final b, one with it.
  await sendWatched(t, [pageView(a(80)), pageView(a(4000)), pageView(`${a(4000)}b`)]);
  const id = await createRule(WILDCARD, 'many_as');
  const rule = await settled(id);
  t.equal(rule.materialization.state, 'succeeded', JSON.stringify(rule.materialization));
  t.equal(rule.materialization.derived_events, 1, 'derived over history: the path ending in b');
  // After it: matched as they are stored.
  await sendWatched(t, [pageView(a(80)), pageView(`${a(80)}b`), pageView(a(4000))]);
  t.equal((await server.request('GET', `${base}/${id}`, { token })).body.labeled_events, 2, 'and the one ending in b that arrived since');
  const res = await preview(WILDCARD);
  t.equal(res.status, 200, res.text);
  t.equal(res.body.count, 2, 'the preview counts both');
});

t.test('a chain of 50 elements and 12 descendant compounds', async (t) => {
  await sendWatched(t, [{ event: 'pp.click', anonymous_id: 'a', url: `${HOST}/x`, elements: divs(50) }]);
  const none = await createRule(NO_SECTION, 'no_section');
  const all = await createRule(ALL_DIVS, 'all_divs');
  for (const [id, want] of [
    [none, 0],
    [all, 1],
  ] as const) {
    const rule = await settled(id);
    t.equal(rule.materialization.state, 'succeeded', JSON.stringify(rule.materialization));
    t.equal(rule.materialization.derived_events, want);
  }
  await sendWatched(
    t,
    Array.from({ length: 20 }, () => ({ event: 'pp.click', anonymous_id: 'a', url: `${HOST}/x`, elements: divs(50) })),
  );
  t.equal((await server.request('GET', `${base}/${none}`, { token })).body.labeled_events, 0);
  t.equal((await server.request('GET', `${base}/${all}`, { token })).body.labeled_events, 21);
  t.equal((await preview(NO_SECTION)).body.count, 0);
  t.equal((await preview(ALL_DIVS)).body.count, 21);
});

t.test('past the time limit a preview is 408 and a derivation job fails saying why', async (t) => {
  const { config } = server.running.services;
  config.query_timeout_ms = 1;
  t.teardown(() => {
    config.query_timeout_ms = 30_000;
  });
  const res = await preview(WILDCARD);
  t.equal(res.status, 408, res.text);
  t.same(res.body.error, { code: 'query_timeout', message: 'query exceeded its 1 ms time limit', details: { timeout_ms: 1 } });
  const rule = await settled(await createRule(WILDCARD, 'too_slow'));
  t.equal(rule.materialization.state, 'failed');
  t.match(rule.materialization.error, /exceeded the 1 ms time limit of a statement \(query_timeout_ms\)/);
  config.query_timeout_ms = 30_000;
  t.equal((await preview(WILDCARD)).status, 200, 'answers again once the limit allows');
});
