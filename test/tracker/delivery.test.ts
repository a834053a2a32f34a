// Tracker delivery: versioned files byte for byte with immutable caching and ETags, the manifest's
// integrity values, the /v1/t.js short URL, and 404s that are never cached.

import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { startTestServer } from '../support/testServer.js';

const VERSION = '0.6.5';
const dist = path.join(packageRoot(), 'sdk', 'browser', 'dist', VERSION);

async function fetchBytes(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

t.test('versioned files and manifest', async (t) => {
  const server = await startTestServer(t);
  const manifest = JSON.parse(readFileSync(path.join(dist, 'manifest.json'), 'utf8'));
  t.equal(manifest.version, VERSION);
  t.same(Object.keys(manifest.assets).sort(), ['core', 'diagnostics', 'picker', 'replay']);

  for (const [name, entry] of Object.entries(manifest.assets as Record<string, { file: string; size: number; sha256: string; sha384: string; integrity: string }>)) {
    const res = await fetchBytes(`${server.url}/v1/sdk/browser/${VERSION}/${entry.file}`);
    t.equal(res.status, 200, name);
    t.ok(res.body.equals(readFileSync(path.join(dist, entry.file))), `${name} is served byte for byte`);
    t.equal(res.body.length, entry.size);
    const sha256 = createHash('sha256').update(res.body).digest('hex');
    const sha384 = createHash('sha384').update(res.body);
    t.equal(entry.sha256, sha256);
    t.equal(entry.sha384, createHash('sha384').update(res.body).digest('hex'));
    t.equal(entry.integrity, `sha384-${sha384.digest('base64')}`, `${name} integrity is sha384- plus the base64 digest`);
    t.equal(res.headers.get('etag'), `"${sha256}"`);
    t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.equal(res.headers.get('access-control-allow-origin'), '*');
    t.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    t.match(res.headers.get('content-type'), /^text\/javascript/);

    const again = await fetchBytes(`${server.url}/v1/sdk/browser/${VERSION}/${entry.file}`, { 'if-none-match': `"${sha256}"` });
    t.equal(again.status, 304, `${name} revalidates to 304`);
    t.equal(again.body.length, 0);
    t.equal(again.headers.get('etag'), `"${sha256}"`);
    t.equal(again.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const stale = await fetchBytes(`${server.url}/v1/sdk/browser/${VERSION}/${entry.file}`, { 'if-none-match': '"0000"' });
    t.equal(stale.status, 200, 'another ETag gets the file');
  }

  const served = await fetchBytes(`${server.url}/v1/sdk/browser/${VERSION}/manifest.json`);
  t.equal(served.status, 200);
  t.match(served.headers.get('content-type'), /^application\/json/);
  t.same(JSON.parse(served.body.toString()), manifest);
});

t.test('unknown versions and files are 404 and not cached', async (t) => {
  const server = await startTestServer(t);
  for (const p of ['/v1/sdk/browser/0.6.3/tracker.js', `/v1/sdk/browser/${VERSION}/evil.js`, `/v1/sdk/browser/${VERSION}/..%2Fmanifest.json`]) {
    const res = await server.request('GET', p);
    t.equal(res.status, 404, p);
    t.equal(res.body.error.code, 'not_found');
    t.equal(res.headers.get('cache-control'), 'no-store');
  }
});

t.test('/v1/t.js is the current core with a one-hour cache and no ETag', async (t) => {
  const server = await startTestServer(t);
  const res = await fetchBytes(`${server.url}/v1/t.js`);
  t.equal(res.status, 200);
  t.ok(res.body.equals(readFileSync(path.join(dist, 'tracker.js'))));
  t.equal(res.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=86400');
  t.equal(res.headers.get('etag'), null);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
});
