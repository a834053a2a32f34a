// `npm test`: runs the compiled test files, a few at a time, the longest first, and ends with the
// line `N passed, N failed`. Extra arguments select test files (paths under dist/test, folders, or
// globs with * and **).
//
// Each file runs as `node file` and prints TAP itself (tap's own root test); this runner gathers
// those outputs into one TAP stream as tap's runner would. It does not go through tap's runner
// because that one preloads its process-tracking hooks into every test process and, through
// NODE_OPTIONS, into every node process a test starts (servers, ppctl, builds): about a second of
// CPU each, several minutes over the suite on a two-core machine. It also lets the order be chosen:
// tap's runner sorts by name, which can leave one long file running alone at the end.

import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { KNOWN_DURATIONS } from './testDurations.js';
import { cpuAccount } from './cpuAccount.js';
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

/** A glob with `*` (within a folder) and `**` (across folders) as a pattern over relative paths, built without backtracking hazards. */
function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The files the arguments name: files as they are, folders and globs as the test files they hold or match. */
function selectedFiles(args: string[]): string[] {
  const out = new Set<string>();
  for (const arg of args) {
    const full = path.resolve(root, arg);
    if (existsSync(full) && statSync(full).isDirectory()) testFiles(full).forEach((f) => out.add(path.relative(root, f)));
    else if (existsSync(full)) out.add(path.relative(root, full));
    else if (arg.includes('*')) {
      const pattern = globPattern(path.relative(root, full));
      const matches = testFiles(path.join(root, 'dist', 'test'))
        .map((f) => path.relative(root, f))
        .filter((f) => pattern.test(f));
      if (matches.length === 0) out.add(arg);
      matches.forEach((f) => out.add(f));
    } else out.add(arg); // reported as a failure when it does not start
  }
  return [...out];
}

const selected = process.argv.slice(2);
const files = selected.length > 0 ? selectedFiles(selected) : testFiles(path.join(root, 'dist', 'test')).map((f) => path.relative(root, f));

// Most test files wait on servers, browsers and disks rather than compute, so even a two-core
// machine runs two at a time.
const cores = os.availableParallelism();
const jobsOverride = Number(process.env.PP_TEST_JOBS);
const jobs = Number.isInteger(jobsOverride) && jobsOverride > 0 ? jobsOverride : cores <= 4 ? Math.max(2, cores) : Math.ceil(cores * 0.75);
// Files that run alone. The purge test's later scenario needs the engine to compact deleted rows
// at a checkpoint, which on a loaded machine it sometimes does not (two fresh-clone runs out of four
// with another file beside it; never alone).
const ALONE = new Set(['dist/test/behavior/purge.test.js']);

// The longest files start first, so the run does not end with one of them on a core by itself
// while the other waits. How long each took is kept from the last run (beside tap's own cache,
// outside the repository); a file with no record takes the committed figure, then a short default.
const DURATIONS_FILE = path.join(root, '.tap', 'test-durations.json');
function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
const recorded = recordedDurations();
// Each file's CPU seconds in the last run where they could be counted, beside its wall time: what
// the suite's length is made of on a machine whose cores are all busy.
const CPU_FILE = path.join(root, '.tap', 'test-cpu.json');
const cpuSeconds: Record<string, number> = {};
const expected = (file: string): number => recorded[file] ?? KNOWN_DURATIONS[file] ?? 5_000;
const order = [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b, 'en'));

// The same bound tap's runner takes from .taprc: a file's root test may set its own, which it also
// tells this runner (through the IPC channel tap's root test writes to) so the backstop moves too.
const TIMEOUT_S = Number(/^timeout:\s*(\d+)/m.exec(readFileSync(path.join(root, '.taprc'), 'utf8'))?.[1] ?? 30);
/** After a file's own bound, how long it gets to report its timeout before it is killed. */
const KILL_GRACE_MS = 20_000;

// The tests get a temporary folder of their own: whatever is left in it at the end is a test that
// did not clean up, reported (and counted as a failure) here, then removed.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pp-tests-'));
// Open to every user like /tmp itself, so tests that run a program as another user can reach it.
chmodSync(tmp, 0o1777);
// Where the test servers keep the run's migrated empty databases, copied into each new server's
// folder (testServer.ts): made once, not a test's leftover.
const TEMPLATE = 'pp-test-template';
const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, TAP_TIMEOUT: String(TIMEOUT_S), TEST_DATA_TEMPLATE: path.join(tmp, TEMPLATE) };

/** Caches of the tools, not of a test: Node keeps its module compile cache when Vite turns it on (the bundle test builds the console). */
const RUNNER_CACHE = /^(v8-compile-cache-\d+|node-compile-cache)$/;

function leftovers(): string[] {
  const names = readdirSync(tmp)
    .filter((name) => !RUNNER_CACHE.test(name) && name !== TEMPLATE)
    .sort();
  rmSync(tmp, { recursive: true, force: true });
  return names;
}

interface FileResult {
  file: string;
  ok: boolean;
  /** The file's TAP, less its version line. */
  output: string;
  counts: Record<string, number>;
  ms: number;
  /** CPU seconds of the file's processes, where they could be counted (cpuAccount.ts). */
  cpu: number | undefined;
  /** What ended it, when it did not end well by itself. */
  problem?: Record<string, string | number | null>;
}

const COUNTS = /^# \{ (total: \d+.*) \}$/m;

const running = new Set<ChildProcess>();
// A stop of the run stops the files it runs (a terminal's Ctrl-C reaches them anyway; a CI's
// SIGTERM does not).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill(signal);
    rmSync(tmp, { recursive: true, force: true });
    process.kill(process.pid, signal);
  });
}

let spawned = 0;
function runFile(file: string): Promise<FileResult> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, file)], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    running.add(child);
    // Counted from before the file's own code runs: node takes tens of milliseconds to start it.
    const account = cpuAccount(`pp-tests-${process.pid}-${(spawned += 1)}`);
    const counted = child.pid !== undefined && account?.add(child.pid) === true;
    let output = '';
    let timedOut = false;
    let backstop: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(backstop);
      if (ms > 0)
        backstop = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, ms + KILL_GRACE_MS);
    };
    arm(TIMEOUT_S * 1000);
    child.on('message', (msg: unknown) => {
      const n = (msg as { setTimeout?: unknown } | null)?.setTimeout;
      if (typeof n === 'number') arm(n);
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const done = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      clearTimeout(backstop);
      running.delete(child);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpu = counted ? account!.seconds() : undefined;
      account?.remove();
      const counts: Record<string, number> = {};
      for (const [, key, value] of COUNTS.exec(output)?.[1]?.matchAll(/(\w+): (\d+)/g) ?? []) counts[key!] = Number(value);
      const ok = code === 0 && !error && counts.total !== undefined && !counts.fail;
      const problem = ok ? undefined : { exitCode: code, signal, ...(timedOut ? { timeout: 'killed after its bound' } : {}), ...(error ? { error: error.message } : {}) };
      resolve({ file, ok, output: output.replace(/^TAP version \d+\n/, ''), counts, ms, cpu, problem });
    };
    child.on('error', (err) => done(null, null, err));
    child.on('close', (code, signal) => done(code, signal));
  });
}

// The failures again at the end, each with the subtests that hold it, so a log cut to its last
// lines still names what failed.
const failures: string[] = [];
const open: string[] = [];
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

const totals: Record<string, number> = {};
let crashed = 0;
let reported = 0;
/** One file's block, as tap's runner prints it: its TAP indented under a subtest, then its test point. */
function report(result: FileResult): void {
  reported += 1;
  for (const [key, value] of Object.entries(result.counts)) totals[key] = (totals[key] ?? 0) + value;
  if (!result.ok && !result.counts.fail) crashed += 1; // a crash or a missing summary must not read as success
  const body = result.output
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`));
  let text = `# Subtest: ${result.file}\n${body.join('\n')}\n`;
  text += `${result.ok ? 'ok' : 'not ok'} ${reported} - ${result.file} # time=${result.ms.toFixed(3)}ms\n`;
  if (result.cpu !== undefined) text += `# cpu=${result.cpu.toFixed(1)}s\n`;
  if (result.problem)
    text += `  ---\n${Object.entries(result.problem)
      .map(([k, v]) => `  ${k}: ${v === null ? 'null' : v}`)
      .join('\n')}\n  ...\n`;
  text += '\n';
  text.split('\n').forEach(readLine);
  process.stdout.write(text);
}

async function runAll(): Promise<void> {
  const durations: Record<string, number> = { ...recorded };
  const run = async (file: string) => {
    const result = await runFile(file);
    durations[file] = Math.round(result.ms);
    if (result.cpu !== undefined) cpuSeconds[file] = Math.round(result.cpu * 10) / 10;
    report(result);
  };
  for (const file of order.filter((f) => ALONE.has(f))) await run(file);
  const queue = order.filter((f) => !ALONE.has(f));
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await run(file);
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
  mkdirSync(path.dirname(DURATIONS_FILE), { recursive: true });
  writeFileSync(DURATIONS_FILE, JSON.stringify(durations, null, 1) + '\n');
  if (Object.keys(cpuSeconds).length > 0) writeFileSync(CPU_FILE, JSON.stringify(cpuSeconds, null, 1) + '\n');
}

const start = process.hrtime.bigint();
process.stdout.write(`TAP version 14\n1..${files.length}\n`);
await runAll();
const passed = totals.pass ?? 0;
let failed = (totals.fail ?? 0) + crashed;
process.stdout.write(
  `# { ${Object.entries(totals)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }\n`,
);
process.stdout.write(`# time=${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(3)}ms\n`);
const counted = Object.values(cpuSeconds);
process.stdout.write(
  counted.length > 0 ? `# cpu=${counted.reduce((a, b) => a + b, 0).toFixed(1)}s in ${counted.length} of ${files.length} files (${CPU_FILE})\n` : '# cpu: not counted (no cgroup could be made)\n',
);
const left = leftovers();
if (left.length > 0) {
  process.stdout.write(`\nnot ok - the tests left ${left.length} temporary file(s) behind: ${left.join(', ')}\n`);
  failed += 1;
}
if (failures.length > 0) process.stdout.write(`\n# failures\n${failures.map((f) => `#   ${f}`).join('\n')}\n`);
const skipped = totals.skip ?? 0;
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
