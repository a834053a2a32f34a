// `npm test`: runs tap over the compiled tests and ends with the line `N passed, N failed`.
// Extra arguments select test files (paths under dist/test or globs).

import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { ensureTestTools } from './testTools.js';

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    else if (name.endsWith('.test.js')) out.push(full);
  }
  return out;
}

const root = packageRoot();
// Before any test: the programs the suite needs beyond npm's packages, installed when missing.
const toolsProblem = ensureTestTools();
if (toolsProblem !== null) {
  process.stdout.write(`not ok - ${toolsProblem}\n\n0 passed, 1 failed\n`);
  process.exit(1);
}
const selected = process.argv.slice(2);
const files = selected.length > 0 ? selected : testFiles(path.join(root, 'dist', 'test')).map((f) => path.relative(root, f));
const tap = path.join(root, 'node_modules', '.bin', 'tap');
// The tests get a temporary folder of their own: whatever is left in it at the end is a test that
// did not clean up, reported (and counted as a failure) here, then removed.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pp-tests-'));
// Open to every user like /tmp itself, so tests that run a program as another user can reach it.
chmodSync(tmp, 0o1777);
const env = { ...process.env, TMPDIR: tmp };
// Most test files wait on servers, browsers and disks rather than compute, so even a two-core
// machine runs two at a time (tap's own default leaves one core idle, which there means one file).
const cores = os.availableParallelism();
const jobs = cores <= 4 ? Math.max(2, cores) : Math.ceil(cores * 0.75);
// Files that run alone. The purge test's later scenario needs the engine to compact deleted rows
// at a checkpoint, which on a loaded machine it sometimes does not (two fresh-clone runs out of four
// with another file beside it; never alone).
const ALONE = ['dist/test/behavior/purge.test.js'];
const serial = ALONE.map((f) => `--serial=${path.join(root, f)}`);
const child = spawn(tap, ['--reporter=tap', `--jobs=${jobs}`, ...serial, ...files], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });

/**
 * Caches of the tools, not of a test: tap's TypeScript loader keeps one when tap rebuilds its
 * plugins (a fresh clone), and Node keeps its module compile cache when Vite turns it on (the
 * bundle test builds the console).
 */
const RUNNER_CACHE = /^(v8-compile-cache-\d+|node-compile-cache)$/;

function leftovers(): string[] {
  const names = readdirSync(tmp)
    .filter((name) => !RUNNER_CACHE.test(name))
    .sort();
  rmSync(tmp, { recursive: true, force: true });
  return names;
}

let tail = '';
// The failures again at the end, each with the subtests that hold it, so a log cut to its last
// lines still names what failed.
const failures: string[] = [];
const open: string[] = [];
let partial = '';
function readLine(line: string): void {
  const indent = /^ */.exec(line)![0].length / 4;
  const subtest = /^\s*# Subtest: (.*)$/.exec(line);
  if (subtest) {
    open.length = indent;
    open[indent] = subtest[1]!;
    return;
  }
  const notOk = /^\s*not ok \d+ - (.*)$/.exec(line);
  if (notOk && failures.length < 40) failures.push([...open.slice(0, indent), notOk[1]].join(' > '));
}
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  const text = chunk.toString('utf8');
  tail = (tail + text).slice(-4096);
  const lines = (partial + text).split('\n');
  partial = lines.pop()!;
  for (const line of lines) readLine(line);
});
child.on('close', (code) => {
  const summary = /# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?(?:, skip: (\d+))?(?:, todo: (\d+))?/.exec(tail);
  const passed = summary ? Number(summary[2] ?? 0) : 0;
  let failed = summary ? Number(summary[3] ?? 0) : 0;
  if (code !== 0 && failed === 0) failed = 1; // a crash or a missing summary must not read as success
  const left = leftovers();
  if (left.length > 0) {
    process.stdout.write(`\nnot ok - the tests left ${left.length} temporary file(s) behind: ${left.join(', ')}\n`);
    failed += 1;
  }
  if (failures.length > 0) process.stdout.write(`\n# failures\n${failures.map((f) => `#   ${f}`).join('\n')}\n`);
  const skipped = summary ? Number(summary[4] ?? 0) : 0;
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(left.length > 0 ? 1 : (code ?? 1));
});
