// The tracker files, read once at start with their SHA-256 so they are served byte for byte with
// stable ETags: every released version (sdk/browser/released/<version>/, committed, never rebuilt)
// and the current build (sdk/browser/dist/<version>/). The highest version present is current.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../ground/packageRoot.js';

export interface TrackerAsset {
  body: Buffer;
  sha256: string;
  contentType: string;
}

export interface TrackerAssets {
  current: string | undefined;
  /** version → file name → asset */
  versions: Map<string, Map<string, TrackerAsset>>;
}

const FILES = ['tracker.js', 'replay.js', 'diagnostics.js', 'picker.js', 'manifest.json'];
const VERSION = /^\d+\.\d+\.\d+$/;

export function trackerDirs(root = packageRoot()): string[] {
  return [path.join(root, 'sdk', 'browser', 'released'), path.join(root, 'sdk', 'browser', 'dist')];
}

// An earlier folder wins for a version found in several: sites pin a released version's files by
// their SRI hashes, so a rebuild under the same version number must never replace them.
export function loadTrackerAssets(dirs = trackerDirs()): TrackerAssets {
  const versions = new Map<string, Map<string, TrackerAsset>>();
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const version of readdirSync(dir).filter((v) => VERSION.test(v) && !versions.has(v))) {
      const files = readVersion(path.join(dir, version));
      if (files.has('tracker.js')) versions.set(version, files);
    }
  }
  const current = [...versions.keys()].sort(compareVersions).at(-1);
  return { current, versions };
}

function readVersion(dir: string): Map<string, TrackerAsset> {
  const files = new Map<string, TrackerAsset>();
  for (const file of FILES) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    const body = readFileSync(full);
    files.set(file, {
      body,
      sha256: createHash('sha256').update(body).digest('hex'),
      contentType: file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8',
    });
  }
  return files;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}
