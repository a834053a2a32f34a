// The path-cleaning worst case: fifty rules whose pattern matches the empty string at every
// position, each inserting a 200-character alias, so every rule multiplies the path's length.
// Tried on a 2048-character URL and saved for the project, while health is watched.

import t from 'tap';
import { startLoadedServer, REQUEST_LIMIT_MS, SITE } from './loadedServer.js';
import { assertHealthy, watchHealth } from '../support/healthWatch.js';

const growingRules = Array.from({ length: 50 }, () => ({ pattern: 'x*', alias: '/'.repeat(200) }));
const longUrl = (SITE + '/' + 'a'.repeat(2048)).slice(0, 2048);

t.test('path-cleaning rules that grow every path by 201 times per rule', async (t) => {
  const server = await startLoadedServer(t, { seed: false });
  const base = `/api/v1/projects/${server.projectId}/path-cleaning`;

  const watch = await watchHealth({ url: server.url, pid: server.pid });
  const tried = await server.send('POST', `${base}/test`, { body: { url: longUrl, rules: growingRules } });
  const saved = await server.send('PUT', base, { body: { rules: growingRules } });
  const report = await watch.stop();

  for (const [what, res] of [
    ['POST path-cleaning/test', tried],
    ['PUT path-cleaning', saved],
  ] as const) {
    t.not(res.status, 0, `${what} answered within ${REQUEST_LIMIT_MS / 1000} s (${Math.round(res.ms)} ms)`);
    t.ok(res.status > 0 && res.status < 500, `${what} is not a server error (${res.status} ${res.text.slice(0, 200)})`);
  }
  assertHealthy(t, report, 'path-cleaning rules that grow every path');
});
