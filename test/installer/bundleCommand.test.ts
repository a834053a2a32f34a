// `npm run bundle`, exactly as docs/operations.md gives it (no options), in a copy of the checkout:
// the release lands in the default folder dist/bundle with its SHA256SUMS line, and holds the
// compiled code but no tests and no earlier bundle.
//
// The script is `npm run build` then the bundle builder with no options. The build is the one
// `npm test` makes current before any test file (scripts/freshBuild.mjs runs `npm run build` unless
// dist/ holds the build of the tree as it is; so it has passed by the time this file runs, on this
// very checkout): the copy takes its output, and this file checks that the script is that build followed
// by that builder, then runs the builder as the script does. Building everything again here took
// most of this file's time and checked nothing the test run had not.

import t from 'tap';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot, packageVersion } from '../../server/ground/packageRoot.js';
import { extractTarGz } from '../../installer/archive.js';
import { tempDir } from '../support/tempDir.js';
import { outputOf } from '../support/ppctl.js';

t.setTimeout(10 * 60_000);

/** What `npm run build` leaves that git ignores: the compiled code and the tracker's build. */
const BUILT = ['dist', path.join('sdk', 'browser', 'dist')];

/** The checkout's files (tracked and not ignored) with its build output copied and its node_modules linked. */
function copyCheckout(to: string): void {
  const root = packageRoot();
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root }).toString().split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(root, file))) continue;
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(to, file));
  }
  // A bundle the checkout built before is not part of its build.
  for (const dir of BUILT) cpSync(path.join(root, dir), path.join(to, dir), { recursive: true, filter: (src) => src !== path.join(root, 'dist', 'bundle') });
  symlinkSync(path.join(root, 'node_modules'), path.join(to, 'node_modules'));
}

t.test('npm run bundle with no options writes dist/bundle', async (t) => {
  const checkout = await tempDir(t, 'pp-bundle-checkout-');
  copyCheckout(checkout);
  const scripts = (JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const builder = 'node dist/installer/buildBundle.js';
  t.equal(scripts.bundle, `npm run build && ${builder}`, 'the bundle script is the build, then the builder with no options');
  t.match(scripts.test, /^node scripts\/freshBuild\.mjs && /, 'the build is the one the test run makes current first');
  t.ok(existsSync(path.join(checkout, 'dist', 'test')), 'the build compiled the tests, which the bundle must leave out');
  // An earlier bundle in the default folder must not end up inside the new one.
  mkdirSync(path.join(checkout, 'dist', 'bundle'), { recursive: true });
  writeFileSync(path.join(checkout, 'dist', 'bundle', 'pp-0.0.1-linux-x64.tar.gz'), 'an earlier release');

  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_') && !k.startsWith('npm_')));
  const [command, ...args] = builder.split(' ');
  const run = await outputOf(spawn(command === 'node' ? process.execPath : command!, args, { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  t.equal(run.code, 0, run.stderr);
  const version = packageVersion();
  const out = path.join(checkout, 'dist', 'bundle');
  const name = `pp-${version}-linux-x64.tar.gz`;
  t.ok(existsSync(path.join(out, name)), `${name} in dist/bundle`);
  t.match(execFileSync('sha256sum', ['-c', '--ignore-missing', 'SHA256SUMS'], { cwd: out }).toString(), `${name}: OK`);
  t.same(
    readdirSync(out).filter((f) => f.startsWith('.')),
    [],
    'no staging folder left behind',
  );

  const unpacked = path.join(checkout, 'unpacked');
  mkdirSync(unpacked);
  await extractTarGz(path.join(out, name), unpacked);
  const dist = path.join(unpacked, `pp-${version}`, 'dist');
  t.ok(existsSync(path.join(dist, 'bin', 'ppctl.js')), 'the compiled code is in');
  t.notOk(existsSync(path.join(dist, 'test')), 'no tests');
  t.notOk(existsSync(path.join(dist, 'bundle')), 'no earlier bundle');
});
