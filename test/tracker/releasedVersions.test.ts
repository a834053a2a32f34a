// Released tracker versions: every file of every release keeps the SRI hash sites pinned in their
// tags, is served at /v1/sdk/browser/<version>/<file> with the current version's headers, and the
// current build may not differ from a release of the same version.

import t from 'tap';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadTrackerAssets } from '../../server/tracker/trackerAssets.js';
import { TRACKER_VERSION } from '../../sdk/browser/version.js';
import { startTestServer } from '../support/testServer.js';
import { BUILD_SCRIPT, REPO_ROOT, buildTracker } from '../sdk/support/trackerBuild.js';

const RELEASED = path.join(REPO_ROOT, 'sdk', 'browser', 'released');

// The integrity of each released file, as published (docs/tracker.md and the keys page give the
// core's). A release adds its version here; a released file never changes.
const PINNED: Record<string, Record<string, string>> = {
  '0.6.4': {
    'tracker.js': 'sha384-3ooiqEbfGMN/giwPuMRhGwawNe5SwJhHaqV+C9+CMKOHtwyD8UQKK4iUphpKoiRN',
    'replay.js': 'sha384-mXS9CLdXRVA6p1h0iVOfqH117fDg7u1Q/kl9J79SEiDAJT9dtZEwkn0i0NlrFo60',
    'diagnostics.js': 'sha384-/iYL+AMVNHO0ZHQXenAGynar1+7I7J/3S7+5h4UxXNss6K48cdDOeUYIZjak/hdu',
    'picker.js': 'sha384-eoici+nEsqkNlrs766u1q86JMsdCkeAgOtuXn+B6xZqL+6kfkEliJjLR4/lgFbb4',
    'manifest.json': 'sha384-FLPh5GHWXug1ikgAR1G8GQgTSSOx+Fu2lUWczb88FWY+m7zmnc3lGJm30hj8UNUD',
  },
  '0.6.5': {
    'tracker.js': 'sha384-Cx5iuySdkGAqnbtLtmrtNWKRSOBZl4WHdJF/oU7Qqx41sJ3szef92NwsVincWn0G',
    'replay.js': 'sha384-5ZNOu2TLTuootQTzbbziO/aLSmL9du+DWqdpJsNupE9i+FRsjOyziV4gipAqogT7',
    'diagnostics.js': 'sha384-5BPYxKKkqu9K+zAxYaGyeFhMfq35gCvBJqlvu/ogC4m1hTGbYvqjY84IvhS8lZ1b',
    'picker.js': 'sha384-rAh40j6E6NC3oGUQTqXw74iaVvHvCQwqj3CJ/ThjWKk0rMrxLT+LP2+4GjteKjZ+',
    'manifest.json': 'sha384-COFZME789E7cw8w67hGK2nzdGihnh4g6BQa9rU0vC9dvYebaNSUJje87Y98MnF1p',
  },
};

// Headers a versioned file is served with, whichever version: they must not differ between the
// current version and a released one.
const SAME_HEADERS = ['cache-control', 'access-control-allow-origin', 'cross-origin-resource-policy', 'x-content-type-options', 'content-type'];

const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function fetchBytes(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const work = mkdtempSync(path.join(tmpdir(), 'pp-tracker-released-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

t.test('every released file keeps its pinned integrity, and every released folder is pinned', async (t) => {
  t.same(readdirSync(RELEASED).sort(), Object.keys(PINNED).sort(), 'released/ holds exactly the pinned versions');
  for (const [version, files] of Object.entries(PINNED)) {
    t.same(readdirSync(path.join(RELEASED, version)).sort(), Object.keys(files).sort(), `${version} has its five files`);
    for (const [file, integrity] of Object.entries(files)) {
      t.equal(sri(readFileSync(path.join(RELEASED, version, file))), integrity, `${version}/${file}`);
    }
    const manifest = JSON.parse(readFileSync(path.join(RELEASED, version, 'manifest.json'), 'utf8'));
    t.equal(manifest.version, version, `${version} manifest names its version`);
    for (const entry of Object.values(manifest.assets as Record<string, { file: string; integrity: string }>)) {
      t.equal(entry.integrity, files[entry.file], `${version} manifest gives ${entry.file} its pinned integrity`);
    }
  }
});

t.test("each released version is served byte for byte with the current version's headers", async (t) => {
  const server = await startTestServer(t);
  const current = await fetchBytes(`${server.url}/v1/sdk/browser/${TRACKER_VERSION}/tracker.js`);
  t.equal(current.status, 200, 'the current version is served');
  for (const [version, files] of Object.entries(PINNED)) {
    for (const [file, integrity] of Object.entries(files)) {
      const url = `${server.url}/v1/sdk/browser/${version}/${file}`;
      const res = await fetchBytes(url);
      t.equal(res.status, 200, `${version}/${file} is served`);
      t.ok(res.body.equals(readFileSync(path.join(RELEASED, version, file))), `${version}/${file} byte for byte`);
      t.equal(sri(res.body), integrity, `${version}/${file} keeps its integrity`);
      t.equal(res.headers.get('etag'), `"${sha256(res.body)}"`);
      t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const like = file === 'manifest.json' ? await fetchBytes(`${server.url}/v1/sdk/browser/${TRACKER_VERSION}/manifest.json`) : current;
      for (const name of SAME_HEADERS) t.equal(res.headers.get(name), like.headers.get(name), `${version}/${file} ${name} as the current version's`);
      const again = await fetchBytes(url, { 'if-none-match': `"${sha256(res.body)}"` });
      t.equal(again.status, 304, `${version}/${file} revalidates to 304`);
    }
  }
});

t.test('the current build equals the released folder of the same version', async (t) => {
  const released = path.join(RELEASED, TRACKER_VERSION);
  if (!existsSync(released)) {
    t.pass(`${TRACKER_VERSION} is not released yet`);
    return;
  }
  const build = await buildTracker(path.join(work, 'current'));
  t.same(readdirSync(build.dir).sort(), readdirSync(released).sort());
  for (const file of readdirSync(released)) {
    t.ok(build.file(file).equals(readFileSync(path.join(released, file))), `${file} as released (a changed tracker needs a new version in sdk/browser/version.ts)`);
  }
});

t.test('a version found both released and built is served from the released folder', async (t) => {
  const releasedDir = path.join(work, 'precedence', 'released');
  const distDir = path.join(work, 'precedence', 'dist');
  for (const [dir, body] of [
    [releasedDir, 'released'],
    [distDir, 'rebuilt'],
  ] as const) {
    mkdirSync(path.join(dir, '9.9.9'), { recursive: true });
    writeFileSync(path.join(dir, '9.9.9', 'tracker.js'), body);
  }
  mkdirSync(path.join(distDir, '9.9.10'));
  writeFileSync(path.join(distDir, '9.9.10', 'tracker.js'), 'next');
  const assets = loadTrackerAssets([releasedDir, distDir]);
  t.equal(assets.versions.get('9.9.9')?.get('tracker.js')?.body.toString(), 'released');
  t.equal(assets.current, '9.9.10', 'the highest version is current, whichever folder holds it');
});

t.test('--release copies a new version and refuses one released with other bytes', async (t) => {
  const run = promisify(execFile);
  const releasedDir = path.join(work, 'release', 'released');
  const args = [BUILD_SCRIPT, '--quiet', '--out-dir', path.join(work, 'release', 'dist'), '--release', '--released-dir', releasedDir];
  await run(process.execPath, args, { cwd: REPO_ROOT });
  const copied = path.join(releasedDir, TRACKER_VERSION);
  t.same(readdirSync(copied).sort(), ['diagnostics.js', 'manifest.json', 'picker.js', 'replay.js', 'tracker.js']);
  await run(process.execPath, args, { cwd: REPO_ROOT });
  t.pass('releasing the same bytes again is allowed');

  writeFileSync(path.join(copied, 'picker.js'), 'changed');
  const err = await run(process.execPath, args, { cwd: REPO_ROOT }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  t.equal(err?.code, 1, 'the build fails');
  t.match(err?.stderr, `tracker ${TRACKER_VERSION} is already released with other bytes (picker.js): raise the version in sdk/browser/version.ts`);
  t.equal(readFileSync(path.join(copied, 'picker.js'), 'utf8'), 'changed', 'the released folder is left alone');
});
