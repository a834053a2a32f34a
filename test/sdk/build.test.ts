// The tracker build: reproducible bytes, a manifest that matches the files, integrity
// values in the SRI format, the core's size budget, and module integrities built into the
// core that equal the manifest's.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { TRACKER_NAME, TRACKER_VERSION } from '../../sdk/browser/version.js';
import { ASSET_NAMES, REPO_ROOT, buildTracker, type TrackerBuild } from './support/trackerBuild.js';

const CORE_GZIP_BUDGET = 12 * 1024;
const FILES = { core: 'tracker.js', replay: 'replay.js', diagnostics: 'diagnostics.js', picker: 'picker.js' };
const MODULES = ['replay', 'diagnostics', 'picker'] as const;

const work = mkdtempSync(path.join(tmpdir(), 'pp-tracker-build-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

let first: TrackerBuild;
let second: TrackerBuild;

t.before(async () => {
  first = await buildTracker(path.join(work, 'a'));
  second = await buildTracker(path.join(work, 'b'));
});

t.test('two builds give identical bytes', async (t) => {
  const names = readdirSync(first.dir).sort();
  t.same(names, ['diagnostics.js', 'manifest.json', 'picker.js', 'replay.js', 'tracker.js']);
  t.same(readdirSync(second.dir).sort(), names);
  for (const name of names) t.ok(first.file(name).equals(second.file(name)), `${name} is byte-identical`);
});

t.test('output lives under the version from version.ts', async (t) => {
  t.equal(TRACKER_VERSION, '0.6.5');
  t.equal(path.basename(first.dir), TRACKER_VERSION);
  t.equal(first.manifest.version, TRACKER_VERSION);
});

t.test('manifest values recomputed from the files match', async (t) => {
  t.same(Object.keys(first.manifest.assets), [...ASSET_NAMES]);
  for (const name of ASSET_NAMES) {
    const asset = first.manifest.assets[name];
    const bytes = first.file(FILES[name]);
    t.equal(asset.file, FILES[name], `${name} file`);
    t.equal(asset.size, bytes.length, `${name} size`);
    t.equal(asset.sha256, createHash('sha256').update(bytes).digest('hex'), `${name} sha256`);
    t.equal(asset.sha384, createHash('sha384').update(bytes).digest('hex'), `${name} sha384`);
    t.equal(asset.integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`, `${name} integrity`);
  }
});

t.test('integrity values have the SRI format', async (t) => {
  for (const name of ASSET_NAMES) {
    const asset = first.manifest.assets[name];
    t.match(asset.sha256, /^[0-9a-f]{64}$/, `${name} sha256 is lowercase hex`);
    t.match(asset.sha384, /^[0-9a-f]{96}$/, `${name} sha384 is lowercase hex`);
    // 48 digest bytes are exactly 64 base64 characters, no padding.
    t.match(asset.integrity, /^sha384-[A-Za-z0-9+/]{64}$/, `${name} integrity`);
    t.equal(Buffer.from(asset.integrity.slice('sha384-'.length), 'base64').toString('hex'), asset.sha384, `${name} integrity encodes sha384`);
  }
});

t.test('tracker.js stays within 12 KB gzipped', async (t) => {
  const gzip = gzipSync(first.file('tracker.js'), { level: 9 }).length;
  t.comment(`tracker.js: ${gzip} B gzipped`);
  t.ok(gzip <= CORE_GZIP_BUDGET, `${gzip} B ≤ ${CORE_GZIP_BUDGET} B`);
});

t.test('the core carries each module integrity from the manifest, and nothing else', async (t) => {
  const core = first.file('tracker.js').toString('utf8');
  for (const name of MODULES) {
    const want = first.manifest.assets[name].integrity;
    const m = new RegExp(`["']?${name}["']?:"(sha384-[A-Za-z0-9+/=]+)"`).exec(core);
    t.equal(m?.[1], want, `${name} integrity built into the core`);
  }
  const all = core.match(/sha384-[A-Za-z0-9+/=]{64}/g) || [];
  t.same(all.sort(), MODULES.map((n) => first.manifest.assets[n].integrity).sort(), 'no stale integrity values');
});

t.test('every file declares the version it was built as', async (t) => {
  const core = first.file('tracker.js').toString('utf8');
  t.ok(core.includes(`"${TRACKER_VERSION}"`), 'core has the version');
  t.ok(core.includes(`"${TRACKER_NAME}"`), 'core has the tracker name for X-PP-Tracker');
  t.ok(core.includes(`sdk/browser/`), 'core knows the versioned module path');
  for (const name of MODULES) {
    t.ok(first.file(FILES[name]).toString('utf8').includes(`"${TRACKER_VERSION}"`), `${name} declares ${TRACKER_VERSION}`);
  }
});

t.test('the build prints every file with its gzipped size', async (t) => {
  for (const file of Object.values(FILES)) t.match(first.stdout, new RegExp(`${file.replace('.', '\\.')}\\s+\\d+ B\\s+\\d+ B gzipped`));
});

t.test('docs/tracker.md shows the integrity of this build', async (t) => {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/tracker.md'), 'utf8');
  t.ok(doc.includes(first.manifest.assets.core.integrity), 'snippet integrity equals the manifest');
  t.ok(doc.includes(`/v1/sdk/browser/${TRACKER_VERSION}/tracker.js`), 'snippet pins the version');
});

t.test('the browser sources type-check (strict, DOM lib)', async (t) => {
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', 'sdk/browser/tsconfig.json'], { cwd: REPO_ROOT });
  t.equal(stdout.trim(), '', 'no diagnostics');
});
