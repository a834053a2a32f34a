// The production node_modules of a bundle: installed from package-lock.json by npm running under the
// bundled Node (headers from the runtime package, should anything compile), with the few overrides
// below; @duckdb/node-api, argon2 and better-sqlite3 13 ship N-API binaries. Cached by lockfile hash.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { npmCli, publish } from './nodeRuntime.js';
import { runChecked } from './run.js';

interface PackageJson {
  name: string;
  version: string;
  type?: string;
  dependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const READY = '.pp-modules-ready';
const KEEP_CACHED = 3;

/**
 * Packages whose bundled version differs from the lockfile's. better-sqlite3 12.x aborts the process
 * at exit under Node 24 (its ObjectWrap destructor runs after the environment is gone, exit 134);
 * 13.x is Node-API with prebuilt binaries in the package, but crashes on Node 20, which development
 * and the tests run, so the lockfile keeps 12.x and the bundle takes 13.x. The API we use is the same.
 */
export const BUNDLE_OVERRIDES: Readonly<Record<string, string>> = { 'better-sqlite3': '13.2.0' };

/** The folder holding node_modules for `root`'s lockfile under the runtime at `nodeDir`. */
export async function productionModules(root: string, nodeDir: string, cacheDir: string, log: (line: string) => void = () => {}): Promise<string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
  const lock = readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  const nodeVersion = JSON.parse(readFileSync(path.join(nodeDir, 'package.json'), 'utf8')).version as string;
  const key = createHash('sha256')
    .update(JSON.stringify({ lock, dependencies: pkg.dependencies, allowScripts: pkg.allowScripts, nodeVersion, overrides: BUNDLE_OVERRIDES, layout: 1 }))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(cacheDir, `modules-${key}`);
  if (existsSync(path.join(dir, READY))) return dir;

  mkdirSync(cacheDir, { recursive: true });
  const stage = mkdtempSync(path.join(cacheDir, '.modules-'));
  try {
    log(`installing production packages under Node ${nodeVersion} (cached afterwards as ${path.basename(dir)})`);
    // Only what installing needs: no scripts of our own (prepare would build the project here).
    const dependencies = { ...pkg.dependencies, ...BUNDLE_OVERRIDES };
    const manifest = { name: pkg.name, version: pkg.version, private: true, type: pkg.type, dependencies, allowScripts: pkg.allowScripts };
    writeFileSync(path.join(stage, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(path.join(stage, 'package-lock.json'), lock);
    const node = path.join(nodeDir, 'bin', 'node');
    await runChecked(node, [npmCli(), 'install', '--omit=dev', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: stage,
      env: {
        ...process.env,
        PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
        // Headers of the bundled runtime, so anything node-gyp builds targets its ABI without downloading headers.
        npm_config_nodedir: nodeDir,
        JOBS: 'max',
      },
    });
    checkAgainstLock(stage, JSON.parse(lock) as { packages: Record<string, LockEntry> }, Object.keys(pkg.dependencies ?? {}));
    await runChecked(node, ['--input-type=module', '-e', SMOKE_TEST], { cwd: stage });
    writeFileSync(path.join(stage, READY), new Date().toISOString() + '\n');
    publish(stage, dir);
    pruneCache(cacheDir, dir);
    return dir;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Each lockfile change leaves an entry of ~120 MB: keep the newest few. */
function pruneCache(cacheDir: string, keep: string): void {
  const entries = readdirSync(cacheDir)
    .filter((name) => name.startsWith('modules-') && path.join(cacheDir, name) !== keep)
    .map((name) => ({ name, mtime: statSync(path.join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of entries.slice(KEEP_CACHED - 1)) rmSync(path.join(cacheDir, name), { recursive: true, force: true });
}

// Loads each native addon under the bundled Node: an ABI mismatch fails the build, not the customer's install.
const SMOKE_TEST = `
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const Database = require('better-sqlite3');
new Database(':memory:').prepare('SELECT 1').get();
await require('argon2').hash('smoke-test');
const { DuckDBInstance } = await import(require.resolve('@duckdb/node-api'));
const db = await DuckDBInstance.create(':memory:');
(await db.connect()).closeSync();
`;

/**
 * Every package the production dependencies need (per the lockfile, overrides aside) must be
 * installed at the locked version; the overrides must be the version asked for.
 */
function checkAgainstLock(stage: string, lock: { packages: Record<string, LockEntry> }, roots: string[]): void {
  const problems: string[] = [];
  const installedVersion = (where: string) => {
    const manifest = path.join(stage, where, 'package.json');
    return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
  };
  for (const [name, version] of Object.entries(BUNDLE_OVERRIDES)) {
    const got = installedVersion(`node_modules/${name}`);
    if (got !== version) problems.push(`node_modules/${name} is ${got ?? 'missing'}, the bundle override says ${version}`);
  }
  for (const { where, optional } of requiredPackages(
    lock.packages,
    roots.filter((r) => !(r in BUNDLE_OVERRIDES)),
  )) {
    const entry = lock.packages[where]!;
    const got = installedVersion(where);
    if (got === undefined) {
      if (!optional) problems.push(`${where} is missing`);
    } else if (entry.version && got !== entry.version) problems.push(`${where} is ${got}, the lockfile says ${entry.version}`);
  }
  if (problems.length) throw new Error(`production packages differ from package-lock.json:\n  ${problems.join('\n  ')}`);
}

/** Lockfile paths reachable from the root dependencies, resolved the way Node looks packages up. */
function requiredPackages(packages: Record<string, LockEntry>, roots: string[]): Array<{ where: string; optional: boolean }> {
  const found = new Map<string, boolean>();
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const candidate = `${dir ? dir + '/' : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!dir) return undefined;
    }
  };
  const visit = (from: string, name: string, optional: boolean): void => {
    const where = resolve(from, name);
    if (!where) return;
    const seen = found.get(where);
    // Already visited as required, or as optional and still only optional: nothing new below it.
    if (seen === false || (seen === true && optional)) return;
    found.set(where, optional);
    const entry = packages[where]!;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(where, dep, optional);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(where, dep, true);
  };
  for (const root of roots) visit('', root, false);
  return [...found].map(([where, optional]) => ({ where, optional }));
}
