// Builds the browser tracker: the modules first, then the core with their integrity values
// built in, then manifest.json. The output is reproducible byte for byte (no timestamps,
// fixed ordering), so a manifest can be checked against any rebuild.
//
//   node sdk/browser/build.mjs [--out-dir DIR] [--quiet] [--release [--released-dir DIR]]
//
// writes DIR/<version>/{tracker,replay,diagnostics,picker}.js and manifest.json
// (DIR defaults to sdk/browser/dist) and prints each file's raw and gzipped size.
// --release also copies them to sdk/browser/released/<version>/ (or the --released-dir given),
// which is committed and served for ever; it refuses when that version was released with other bytes.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
export const RELEASED_DIR = path.join(here, 'released');

// Manifest asset name → file name; the order here is the order in the manifest.
const ASSETS = [
  ['core', 'tracker.js', 'core/tracker.ts'],
  ['replay', 'replay.js', 'modules/replay.ts'],
  ['diagnostics', 'diagnostics.js', 'modules/diagnostics.ts'],
  ['picker', 'picker.js', 'modules/picker.ts'],
];
const MODULES = ASSETS.filter(([name]) => name !== 'core');
// replay.js bundles rrweb's recorder; its MIT license asks for the notice to travel along.
const RRWEB_NOTICE = '/*! includes @rrweb/record (rrweb), MIT License, https://github.com/rrweb-io/rrweb */';

// version.ts is the single source of the version; it is transpiled here rather than
// duplicated, so the build needs no TypeScript compilation step.
export async function readVersion() {
  const source = readFileSync(path.join(here, 'version.ts'), 'utf8');
  const { code } = await esbuild.transform(source, { loader: 'ts', format: 'esm' });
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { version: mod.TRACKER_VERSION, name: mod.TRACKER_NAME };
}

async function bundle(entry, define, banner) {
  const result = await esbuild.build({
    entryPoints: [path.join(here, 'src', entry)],
    absWorkingDir: here,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    charset: 'ascii',
    legalComments: 'eof',
    sourcemap: false,
    write: false,
    logLevel: 'silent',
    define,
    banner: banner ? { js: banner } : undefined,
  });
  return Buffer.from(result.outputFiles[0].contents);
}

export function digests(buf) {
  const sha384 = createHash('sha384').update(buf);
  const raw384 = sha384.digest();
  return {
    size: buf.length,
    sha256: createHash('sha256').update(buf).digest('hex'),
    sha384: raw384.toString('hex'),
    integrity: `sha384-${raw384.toString('base64')}`,
  };
}

export async function build({ outDir = path.join(here, 'dist'), quiet = false } = {}) {
  const { version } = await readVersion();
  const bytes = {};
  for (const [name, , entry] of MODULES) bytes[name] = await bundle(entry, {}, name === 'replay' ? RRWEB_NOTICE : undefined);
  const integrity = {};
  for (const [name] of MODULES) integrity[name] = digests(bytes[name]).integrity;
  bytes.core = await bundle(ASSETS[0][2], { __PP_INTEGRITY__: JSON.stringify(integrity) });

  const dir = path.join(outDir, version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const assets = {};
  const sizes = [];
  for (const [name, file] of ASSETS) {
    writeFileSync(path.join(dir, file), bytes[name]);
    assets[name] = { file, ...digests(bytes[name]) };
    sizes.push({ file, bytes: bytes[name].length, gzip: gzipSync(bytes[name], { level: 9 }).length });
  }
  const manifest = { version, assets };
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  if (!quiet) {
    console.log(`pp browser tracker ${version} → ${dir}`);
    for (const s of sizes) {
      console.log(`  ${s.file.padEnd(16)} ${String(s.bytes).padStart(8)} B  ${String(s.gzip).padStart(7)} B gzipped (${(s.gzip / 1024).toFixed(1)} KiB)`);
    }
  }
  return { dir, manifest, sizes };
}

// The files of `builtDir` that differ from, or are missing in, `releasedDir` (and the reverse).
export function differingFiles(builtDir, releasedDir) {
  const names = new Set([...readdirSync(builtDir), ...readdirSync(releasedDir)]);
  return [...names].sort().filter((name) => {
    const a = path.join(builtDir, name);
    const b = path.join(releasedDir, name);
    return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
  });
}

// A released version is pinned by SRI hashes in sites' tags, so its files never change: the
// first release of a version copies it, a later one must find the very same bytes.
export function release({ dir, manifest }, releasedDir = RELEASED_DIR) {
  const target = path.join(releasedDir, manifest.version);
  if (existsSync(target)) {
    const differing = differingFiles(dir, target);
    if (differing.length > 0) {
      throw new Error(`tracker ${manifest.version} is already released with other bytes (${differing.join(', ')}): raise the version in sdk/browser/version.ts`);
    }
    return target;
  }
  mkdirSync(releasedDir, { recursive: true });
  cpSync(dir, target, { recursive: true });
  return target;
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out-dir') opts.outDir = path.resolve(argv[++i]);
    else if (argv[i] === '--quiet') opts.quiet = true;
    else if (argv[i] === '--release') opts.release = true;
    else if (argv[i] === '--released-dir') opts.releasedDir = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = parseArgs(process.argv.slice(2));
  build(opts)
    .then((built) => {
      if (!opts.release) return;
      const target = release(built, opts.releasedDir);
      if (!opts.quiet) console.log(`released → ${target}`);
    })
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
