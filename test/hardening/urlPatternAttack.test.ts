// The labeled-rule worst case: a url_pattern of many `*` wildcards that cannot match, and a page view
// whose path is 80 `a`s. Matching it by backtracking takes exponential time in the number of
// wildcards, on the ingest path that derives labeled events as events are stored.

import t from 'tap';
import { startLoadedServer, REQUEST_LIMIT_MS, SITE } from './loadedServer.js';
import { assertHealthy, watchHealth } from '../support/healthWatch.js';

t.test('a url_pattern of wildcards against a page view of 80 a’s', async (t) => {
  const server = await startLoadedServer(t, { seed: false });
  const rule = await server.send('POST', `/api/v1/projects/${server.projectId}/labeled-events`, {
    body: { base_event: 'pp.page_view', url_pattern: '/*a*a*a*a*a*a*a*b', event_name: 'wildcard_view' },
  });
  t.equal(rule.status, 201, `the rule is accepted (${rule.text.slice(0, 200)})`);

  const watch = await watchHealth({ url: server.url, pid: server.pid });
  const view = await server.send('POST', '/v1/track', {
    token: server.serverKey.value,
    body: { events: [{ event: 'pp.page_view', anonymous_id: 'a-1', url: `${SITE}/${'a'.repeat(80)}` }] },
  });
  const preview = await server.send('POST', `/api/v1/projects/${server.projectId}/labeled-events/preview`, {
    body: { base_event: 'pp.page_view', url_pattern: '/*a*a*a*a*a*a*a*b' },
  });
  const report = await watch.stop();

  t.equal(view.status, 202, `the page view is stored within ${REQUEST_LIMIT_MS / 1000} s (${view.status}, ${Math.round(view.ms)} ms)`);
  t.not(preview.status, 0, `the preview answers within ${REQUEST_LIMIT_MS / 1000} s (${Math.round(preview.ms)} ms)`);
  t.ok(preview.status > 0 && preview.status < 500, `the preview is not a server error (${preview.status})`);
  assertHealthy(t, report, 'a wildcard url_pattern against 80 a’s');
});
