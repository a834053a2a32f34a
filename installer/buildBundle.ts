// `npm run bundle`: builds pp-<version>-linux-x64.tar.gz and SHA256SUMS, the offline release. It
// holds the Node runtime, compiled JavaScript, production node_modules built for that runtime,
// migrations, tracker files, trusted license keys, the docs and a `ppctl` launcher; the target
// needs nothing else. Expects `npm run build` to have run (the npm script does it first).
//
//   node dist/installer/buildBundle.js [--out-dir DIR] [--cache-dir DIR] [--gzip-level N]
//       [--version V] [--extra-migrations DIR]...     (the last two: test and vendor builds)

import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { packageRoot } from '../server/ground/packageRoot.js';
import { createTarGz, writeChecksum } from './archive.js';
import { sha256File } from '../server/admin/snapshot.js';
import { BUNDLE_INFO, type BundleInfo } from './bundleInfo.js';
import { BUNDLED_NODE, MIN_GLIBC, nodeRuntime } from './nodeRuntime.js';
import { productionModules } from './productionModules.js';
import { isVersion } from './versions.js';

export interface BundleOptions {
  /** The source checkout (default: the one this code runs from). */
  root?: string;
  outDir?: string;
  cacheDir?: string;
  /** 0-9; 0 stores without compressing (quick test builds). Default 6. */
  gzipLevel?: number;
  /** Test and vendor builds: a version other than package.json's. */
  version?: string;
  /** Test and vendor builds: folders whose sqlite/ and duckdb/ migration files are added. */
  extraMigrations?: string[];
  log?: (line: string) => void;
}

export interface BuiltBundle {
  file: string;
  sha256: string;
  sumsFile: string;
  version: string;
}

export function defaultCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'pp-bundle');
}

export async function buildBundle(options: BundleOptions = {}): Promise<BuiltBundle> {
  const root = options.root ?? packageRoot();
  const log = options.log ?? (() => {});
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown> & { version: string };
  const version = options.version ?? pkg.version;
  if (!isVersion(version)) throw new Error(`not a version number: ${version}`);
  const gzipLevel = options.gzipLevel ?? 6;
  if (!Number.isInteger(gzipLevel) || gzipLevel < 0 || gzipLevel > 9) throw new Error(`gzip level must be 0-9, got ${options.gzipLevel}`);
  for (const needed of ['dist/bin/ppctl.js', 'dist/server/start.js', 'dist/console/index.html', 'sdk/browser/dist']) {
    if (!existsSync(path.join(root, needed))) throw new Error(`${needed} is missing: run \`npm run build\` first`);
  }
  const outDir = path.resolve(options.outDir ?? path.join(root, 'dist', 'bundle'));
  const cacheDir = path.resolve(options.cacheDir ?? defaultCacheDir());

  const nodeDir = await nodeRuntime(cacheDir, BUNDLED_NODE, log);
  const modulesDir = await productionModules(root, nodeDir, cacheDir, log);

  mkdirSync(outDir, { recursive: true });
  // Assembled beside the cache, never inside dist/: the default out folder is dist/bundle, and a copy
  // of dist/ cannot be made inside dist/.
  const stage = mkdtempSync(path.join(cacheDir, '.stage-'));
  try {
    const name = `pp-${version}`;
    const release = path.join(stage, name);
    log(`assembling ${name}`);
    assemble(root, release, { ...pkg, version }, nodeDir, modulesDir, options.extraMigrations ?? [], outDir);
    const info: BundleInfo = { name: 'pp', version, platform: 'linux-x64', node: BUNDLED_NODE.version, min_glibc: MIN_GLIBC, built_at: new Date().toISOString(), commit: gitCommit(root) };
    writeFileSync(path.join(release, BUNDLE_INFO), JSON.stringify(info, null, 2) + '\n');
    const file = path.join(outDir, `${name}-linux-x64.tar.gz`);
    log(`compressing ${path.basename(file)}`);
    await createTarGz(stage, name, file, gzipLevel);
    const sha256 = await sha256File(file);
    const sumsFile = path.join(outDir, 'SHA256SUMS');
    writeChecksum(sumsFile, path.basename(file), sha256);
    return { file, sha256, sumsFile, version };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function assemble(root: string, release: string, pkg: Record<string, unknown>, nodeDir: string, modulesDir: string, extraMigrations: string[], outDir: string): void {
  mkdirSync(release, { recursive: true });
  // Compiled code without the tests or earlier bundles (in dist/bundle or wherever they are written).
  const dist = path.join(root, 'dist');
  const compiled = (src: string) => !/^(test|bundle)(\/|$)/.test(path.relative(dist, src)) && path.resolve(src) !== outDir;
  cpSync(dist, path.join(release, 'dist'), { recursive: true, filter: compiled });
  cpSync(path.join(root, 'migrations'), path.join(release, 'migrations'), { recursive: true });
  for (const extra of extraMigrations) addMigrations(extra, path.join(release, 'migrations'));
  cpSync(path.join(root, 'sdk', 'browser', 'dist'), path.join(release, 'sdk', 'browser', 'dist'), { recursive: true });
  cpSync(path.join(root, 'sdk', 'browser', 'released'), path.join(release, 'sdk', 'browser', 'released'), { recursive: true });
  cpSync(path.join(root, 'license', 'keys'), path.join(release, 'license', 'keys'), { recursive: true });
  if (existsSync(path.join(root, 'docs'))) cpSync(path.join(root, 'docs'), path.join(release, 'docs'), { recursive: true });
  cpSync(path.join(modulesDir, 'node_modules'), path.join(release, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  mkdirSync(path.join(release, 'node', 'bin'), { recursive: true });
  cpSync(path.join(nodeDir, 'bin', 'node'), path.join(release, 'node', 'bin', 'node'));
  cpSync(path.join(nodeDir, 'LICENSE'), path.join(release, 'node', 'LICENSE'));
  const { name, description, private: priv, type, license, bin, dependencies } = pkg;
  const manifest = { name, version: pkg.version, description, private: priv, type, license, engines: { node: `>=${BUNDLED_NODE.version.split('.')[0]}` }, bin, dependencies };
  writeFileSync(path.join(release, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(path.join(release, 'ppctl'), LAUNCHER);
  chmodSync(path.join(release, 'ppctl'), 0o755);
}

/** Adds a folder's sqlite/ and duckdb/ files; a number the release already has is refused. */
function addMigrations(from: string, to: string): void {
  for (const engine of ['sqlite', 'duckdb']) {
    const dir = path.join(from, engine);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      const taken = readdirSync(path.join(to, engine)).find((f) => f.slice(0, 4) === file.slice(0, 4));
      if (taken) throw new Error(`extra migration ${engine}/${file} has the number of ${engine}/${taken}`);
      cpSync(path.join(dir, file), path.join(to, engine, file));
    }
  }
}

function gitCommit(root: string): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
}

// Resolves its own link (/usr/local/bin/ppctl → /opt/pp/current/ppctl → releases/<v>/ppctl), so a
// command runs wholly inside one release, and names the glibc requirement instead of a loader error.
const LAUNCHER = `#!/bin/sh
# ppctl for this release: runs the command-line tool with the Node runtime shipped beside it.
here=$(dirname "$(readlink -f "$0")")
case "$(getconf GNU_LIBC_VERSION 2>/dev/null)" in
  "glibc 2."[0-9] | "glibc 2.1"[0-9] | "glibc 2.2"[0-7])
    echo "ppctl: this release needs glibc ${MIN_GLIBC} or newer; this system has $(getconf GNU_LIBC_VERSION)" >&2
    exit 1 ;;
esac
exec "$here/node/bin/node" "$here/dist/bin/ppctl.js" "$@"
`;

async function main(): Promise<void> {
  const collect = (value: string, previous: string[]) => [...previous, value];
  const program = new Command('buildBundle')
    .description('build the offline release tarball and SHA256SUMS')
    .option('--out-dir <dir>', 'where the tarball and SHA256SUMS go (default dist/bundle)')
    .option('--cache-dir <dir>', 'cache of the Node runtime and production packages (default ~/.cache/pp-bundle)')
    .option('--gzip-level <n>', 'gzip level 0-9 (default 6; 0 stores without compressing, for quick test builds)')
    .addOption(new Option('--version <v>', "test/vendor builds: release version other than package.json's"))
    .addOption(new Option('--extra-migrations <dir>', 'test/vendor builds: add DIR/sqlite and DIR/duckdb migration files (repeatable)').argParser(collect).default([]))
    .parse(process.argv);
  const opts = program.opts<{ outDir?: string; cacheDir?: string; gzipLevel?: string; version?: string; extraMigrations: string[] }>();
  const built = await buildBundle({
    outDir: opts.outDir,
    cacheDir: opts.cacheDir,
    gzipLevel: opts.gzipLevel === undefined ? undefined : Number(opts.gzipLevel),
    version: opts.version,
    extraMigrations: opts.extraMigrations.map((d) => path.resolve(d)),
    log: (line) => process.stderr.write(`bundle: ${line}\n`),
  });
  process.stdout.write(`${built.file}\n${built.sha256}  ${path.basename(built.file)}  (added to ${built.sumsFile})\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`bundle: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
