// The tree's formatting, lint and folder floors, checked here so that `npm test` runs them as
// `npm run lint` does: Biome (biome.jsonc) for formatting and lint, dependency-cruiser
// (.dependency-cruiser.cjs) for the floors of docs/architecture.md. Each check is also run on a
// small tree holding one fault of its kind, to show it fails.

import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { tempDir } from '../support/tempDir.js';

const root = packageRoot();
const BIOME = path.join(root, 'node_modules', '.bin', 'biome');
const DEPCRUISE = path.join(root, 'node_modules', '.bin', 'depcruise');
/** What `npm run lint` cruises: every folder but the tests, which may import anything. */
const CRUISED = ['server', 'bin', 'installer', 'license', 'console/src', 'sdk'];

interface Outcome {
  code: number;
  output: string;
}

function run(program: string, args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(program, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

const biome = (cwd: string, ...extra: string[]): Promise<Outcome> => run(BIOME, ['ci', '--error-on-warnings', '--colors=off', ...extra, '.'], cwd);
const depcruise = (cwd: string, folders: string[]): Promise<Outcome> => run(DEPCRUISE, ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...folders], cwd);

/** A failing check's report, cut to what names the first findings and the count. */
function report(output: string): string {
  const lines = output.split('\n');
  return lines.length <= 80 ? output : [...lines.slice(0, 60), '…', ...lines.slice(-6)].join('\n');
}

t.test('the tree is formatted and free of lint findings (npm run format writes the formatting)', async (t) => {
  const { code, output } = await biome(root, '--max-diagnostics=10');
  t.equal(code, 0, `biome ci:\n${report(output)}`);
});

t.test('every import of the server points down a floor or sideways, and no two folders import each other', async (t) => {
  const { code, output } = await depcruise(root, CRUISED);
  t.equal(code, 0, `depcruise:\n${report(output)}`);
});

// A clean little tree on three floors (ground < http < a domain), in the repository's style.
const CLEAN: Record<string, string> = {
  'server/ground/errors.ts': 'export class AppError extends Error {}\n',
  'server/http/respond.ts': "import { AppError } from '../ground/errors.js';\n\nexport const failure = (message: string): AppError => new AppError(message);\n",
  'server/web/summary.ts': "import { failure } from '../http/respond.js';\n\nexport const refuse = (): Error => failure('no');\n",
};

async function fixture(t: { teardown(fn: () => unknown): void }, files: Record<string, string>): Promise<string> {
  const dir = await tempDir(t, 'pp-layout-');
  for (const config of ['biome.jsonc', '.dependency-cruiser.cjs', 'tsconfig.json']) copyFileSync(path.join(root, config), path.join(dir, config));
  for (const [file, text] of Object.entries({ ...CLEAN, ...files })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

t.test('each check fails on a tree with one fault of its kind', async (t) => {
  // Outside a git checkout Biome has no ignore file to read.
  const format = (dir: string): Promise<Outcome> => biome(dir, '--vcs-enabled=false');
  const floors = (dir: string): Promise<Outcome> => depcruise(dir, ['server']);
  const clean = await fixture(t, {});
  const upward = await fixture(t, { 'server/ground/config.ts': "import { failure } from '../http/respond.js';\n\nexport const refused = failure('no');\n" });
  const cycle = await fixture(t, {
    'server/web/summary.ts': "import { queued } from '../transfer/job.js';\n\nexport const summary = (): string => String(queued);\n",
    'server/transfer/job.ts': "import { summary } from '../web/summary.js';\n\nexport const queued = 1;\nexport const describe = (): string => summary();\n",
  });
  const unformatted = await fixture(t, { 'server/http/respond.ts': 'import { AppError } from "../ground/errors.js"\nexport const failure = (message: string): AppError =>   new AppError(message)\n' });
  const linted = await fixture(t, { 'server/web/debug.ts': 'export function pause(): void {\n  debugger;\n}\n' });
  // The six runs at once: each is mostly start-up.
  const [cleanFormat, cleanFloors, upwardFloors, cycleFloors, unformattedFormat, lintedFormat] = await Promise.all([
    format(clean),
    floors(clean),
    floors(upward),
    floors(cycle),
    format(unformatted),
    format(linted),
  ]);

  t.equal(cleanFormat.code, 0, `the clean tree passes biome ci: ${cleanFormat.output}`);
  t.equal(cleanFloors.code, 0, `the clean tree passes depcruise: ${cleanFloors.output}`);

  t.not(upwardFloors.code, 0, 'an upward import (the ground floor importing http/) fails depcruise');
  t.match(upwardFloors.output, /ground-imports-up: server\/ground\/config\.ts → server\/http\/respond\.ts/);

  t.not(cycleFloors.code, 0, 'two domain folders importing each other fail depcruise');
  t.match(cycleFloors.output, /folder-cycle: server\/(web|transfer)/);

  t.not(unformattedFormat.code, 0, 'a file not formatted as the formatter writes it fails biome ci');
  t.match(unformattedFormat.output, /respond\.ts format/);

  t.not(lintedFormat.code, 0, 'a lint error fails biome ci');
  t.match(lintedFormat.output, /lint\/suspicious\/noDebugger/);
});
