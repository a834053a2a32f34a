// The page-URL worst case: URLs of 4,000 slashes, which a trailing-slash rule that backtracks
// normalizes in quadratic time. Sent as a full batch of page views with distinct URLs (so no
// per-batch cache saves the work) into a project whose labeled rule normalizes every page view's URL.

import t from 'tap';
import { startLoadedServer, REQUEST_LIMIT_MS, SITE } from './loadedServer.js';
import { assertHealthy, watchHealth } from '../support/healthWatch.js';

const SLASHES = '/'.repeat(4000);

/** Within 1 MiB: ending in the slashes, or with one character after them (the slower case). */
function slashUrls(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? `${SITE}/${i}${SLASHES}` : `${SLASHES}${i}`));
}

t.test('a batch of page views whose URLs are 4,000 slashes', async (t) => {
  const server = await startLoadedServer(t, { seed: false });
  const rule = await server.send('POST', `/api/v1/projects/${server.projectId}/labeled-events`, {
    body: { base_event: 'pp.page_view', url_pattern: `${SITE}/pricing`, event_name: 'pricing_view' },
  });
  t.equal(rule.status, 201, `the rule is accepted (${rule.text.slice(0, 200)})`);

  const watch = await watchHealth({ url: server.url, pid: server.pid });
  const events = slashUrls(240).map((url, i) => ({ event: 'pp.page_view', anonymous_id: `a-${i}`, url }));
  const batch = await server.send('POST', '/v1/track', { token: server.serverKey.value, body: { events } });
  const detail = await server.send('GET', `/api/v1/projects/${server.projectId}/forms/detail?form=f&url=${encodeURIComponent(SLASHES + 'x')}`);
  const report = await watch.stop();

  t.equal(batch.status, 202, `the batch is stored within ${REQUEST_LIMIT_MS / 1000} s (${batch.status}, ${Math.round(batch.ms)} ms)`);
  t.equal(batch.body?.accepted, 240, 'every page view is accepted');
  t.ok(detail.status > 0 && detail.status < 500, `a forms detail for such a URL answers without a server error (${detail.status})`);
  assertHealthy(t, report, 'page views of 4,000 slashes');
});
