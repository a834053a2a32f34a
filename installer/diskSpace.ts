// Free space where the installer is about to write: releases under the prefix, backups under the data folder.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export { freeBytes } from '../server/store/storageFull.js';

/** Total size of the files that exist among the given ones. */
export function sizeOf(files: string[]): number {
  return files.reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

export function sameFileSystem(a: string, b: string): boolean {
  const dev = (d: string) => {
    while (!existsSync(d)) d = path.dirname(d);
    return statSync(d).dev;
  };
  return dev(a) === dev(b);
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MiB`;
}
