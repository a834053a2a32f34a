// Temporary directories that do not outlive their test: `tempDir` is removed when the test ends,
// `processTempDir` (for fixtures made at import time, outside any test) when the process exits.

import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function tempDir(t: { teardown(fn: () => unknown): void }, prefix = 'pp-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const atExit = new Set<string>();

export function processTempDir(prefix = 'pp-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (atExit.size === 0) process.on('exit', () => atExit.forEach((d) => rmSync(d, { recursive: true, force: true })));
  atExit.add(dir);
  return dir;
}
