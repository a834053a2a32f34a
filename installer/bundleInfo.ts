// BUNDLE.json at the top of every release: what it is, for which platform and Node, and when built.
// Its presence is also how ppctl knows it runs from a release rather than a source checkout.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface BundleInfo {
  name: 'pp';
  version: string;
  platform: 'linux-x64';
  node: string;
  min_glibc: string;
  built_at: string;
  commit: string | null;
}

export const BUNDLE_INFO = 'BUNDLE.json';

export function readBundleInfo(releaseDir: string): BundleInfo | undefined {
  const file = path.join(releaseDir, BUNDLE_INFO);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as BundleInfo;
  return info.name === 'pp' ? info : undefined;
}
