// Runs the tracker build (node sdk/browser/build.mjs) into a directory of the test's
// choosing and reads back what it wrote; alterModule prepares builds whose modules the
// core must refuse.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// dist/test/sdk/support → repository root.
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const BUILD_SCRIPT = path.join(REPO_ROOT, 'sdk/browser/build.mjs');
export const ASSET_NAMES = ['core', 'replay', 'diagnostics', 'picker'] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

export interface ManifestAsset {
  file: string;
  size: number;
  sha256: string;
  sha384: string;
  integrity: string;
}

export interface Manifest {
  version: string;
  assets: Record<AssetName, ManifestAsset>;
}

export interface TrackerBuild {
  // <outDir>/<version>
  dir: string;
  stdout: string;
  manifest: Manifest;
  file(name: string): Buffer;
}

export async function buildTracker(outDir: string): Promise<TrackerBuild> {
  const { stdout } = await promisify(execFile)(process.execPath, [BUILD_SCRIPT, '--out-dir', outDir], { cwd: REPO_ROOT });
  const version = /^pp browser tracker (\S+)/m.exec(stdout)?.[1];
  if (!version) throw new Error(`unexpected build output:\n${stdout}`);
  return readBuild(path.join(outDir, version), stdout);
}

function sri(bytes: Buffer): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

// For tests of the core's module checks, on a build written by buildTracker: rewrites a
// module's file and, unless `tamper` is set, the integrity value built into the core, so
// the altered module still passes SRI (e.g. to declare another version). With `tamper` the
// core keeps the old value and the browser must refuse the module. Returns the integrity
// a tag loading the (possibly rewritten) core must carry; manifest.json is left as built.
export function alterModule(build: TrackerBuild, name: Exclude<AssetName, 'core'>, transform: (source: string) => string, opts: { tamper?: boolean } = {}): string {
  const file = build.manifest.assets[name].file;
  const before = build.file(file);
  const after = Buffer.from(transform(before.toString('utf8')), 'utf8');
  writeFileSync(path.join(build.dir, file), after);
  const coreFile = path.join(build.dir, build.manifest.assets.core.file);
  if (!opts.tamper) {
    const core = readFileSync(coreFile, 'utf8');
    const old = sri(before);
    if (!core.includes(old)) throw new Error(`the core does not carry the integrity of ${file}`);
    writeFileSync(coreFile, core.split(old).join(sri(after)));
  }
  return sri(readFileSync(coreFile));
}

// A build already on disk (e.g. the one the server serves from sdk/browser/dist/<version>).
export function readBuild(dir: string, stdout = ''): TrackerBuild {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  return { dir, stdout, manifest, file: (name) => readFileSync(path.join(dir, name)) };
}

// A private copy of a build under <outDir>/<version>, for alterModule to rewrite without
// touching the original.
export function copyBuild(build: TrackerBuild, outDir: string): TrackerBuild {
  const dir = path.join(outDir, build.manifest.version);
  cpSync(build.dir, dir, { recursive: true });
  return readBuild(dir, build.stdout);
}
