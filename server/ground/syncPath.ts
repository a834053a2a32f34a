// fsync of a path: a file's bytes, or a directory's entries (a file created, renamed or removed in
// it), made durable before what depends on them is answered.

import { closeSync, fsyncSync, openSync } from 'node:fs';

export function syncPath(target: string): void {
  const fd = openSync(target, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
