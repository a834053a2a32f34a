// The console's files as the server sends them: every page path gets index.html, never cached,
// under the strict same-origin CSP; hashed assets are cached immutably with their types; the API
// surfaces keep their JSON answers, unknown files are 404.

import t from 'tap';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { CONSOLE_CSP, REPLAY_FRAME_CSP, consoleDir } from '../../server/http/consoleSite.js';

const server = await startTestServer(t);
// The build's files; their `.br` / `.gz` twins are not addresses of their own.
const assets = readdirSync(path.join(consoleDir(), 'assets')).filter((a) => !/\.(br|gz)$/.test(a));

t.test('page paths answer index.html with the CSP and no caching', async (t) => {
  for (const page of ['/', '/sign-in', '/reset-password?token=abc', '/projects/7/insights/funnel?event=x', '/invite']) {
    const res = await server.request('GET', page);
    t.equal(res.status, 200, page);
    t.match(res.headers.get('content-type'), /^text\/html/);
    t.equal(res.headers.get('content-security-policy'), CONSOLE_CSP);
    t.equal(res.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
    t.equal(res.headers.get('x-frame-options'), 'DENY');
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    t.match(res.text, /<div id="app"><\/div>/);
    t.notMatch(res.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    t.notMatch(res.text, /<style/, 'no inline style sheet');
  }
  t.match(CONSOLE_CSP, /default-src 'self'/);
  t.match(CONSOLE_CSP, /script-src 'self';/);
  t.notMatch(CONSOLE_CSP, /unsafe/);
  t.match(CONSOLE_CSP, /frame-ancestors 'none'/);
  const head = await server.request('HEAD', '/sign-in');
  t.equal(head.status, 200);
  t.equal(head.text, '');
});

t.test("the session player's frame: framed by the console only, scripts only from its files", async (t) => {
  const res = await server.request('GET', '/replay-frame.html');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  t.equal(res.headers.get('content-security-policy'), REPLAY_FRAME_CSP);
  t.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN');
  t.equal(res.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
  t.match(res.text, /<div id="player"><\/div>/);
  t.notMatch(res.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  t.match(REPLAY_FRAME_CSP, /script-src 'self';/, "a recorded page's scripts, inline or not, are refused");
  t.notMatch(REPLAY_FRAME_CSP, /script-src[^;]*unsafe/);
  t.match(REPLAY_FRAME_CSP, /connect-src 'none'/);
  t.match(REPLAY_FRAME_CSP, /frame-ancestors 'self'/);
});

t.test('hashed assets are immutable and typed; the favicon is cached a day', async (t) => {
  t.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), 'the build has scripts and styles');
  for (const name of assets) {
    t.match(name, /-[A-Za-z0-9_-]{8}\.(js|css)$/, `${name} carries a content hash`);
    const res = await server.request('GET', `/assets/${name}`);
    t.equal(res.status, 200, name);
    t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.match(res.headers.get('content-type'), name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
  }
  const icon = await server.request('GET', '/favicon.svg');
  t.equal(icon.status, 200);
  t.equal(icon.headers.get('content-type'), 'image/svg+xml');
  t.equal(icon.headers.get('cache-control'), 'public, max-age=86400');
});

t.test('the API surfaces and unknown files keep their JSON 404', async (t) => {
  for (const p of ['/api/v1/nope', '/v1/nope', '/assets/missing-12345678.js', '/robots.txt', '/api']) {
    const res = await server.request('GET', p);
    t.equal(res.status, 404, p);
    t.equal(res.body.error.code, 'not_found', p);
    t.equal(res.headers.get('content-security-policy'), null, `${p}: not a page`);
  }
  const post = await server.request('POST', '/sign-in', { body: {} });
  t.equal(post.status, 404, 'pages are only read');
});
