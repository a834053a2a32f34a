// SHA256SUMS in the format `sha256sum -c` reads; several builds may add to one file.

import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readChecksums, writeChecksum } from '../../installer/archive.js';
import { sha256File } from '../../server/admin/snapshot.js';
import { tempDir } from '../support/tempDir.js';

t.test('entries are added or replaced, and sha256sum -c accepts the file', async (t) => {
  const dir = await tempDir(t);
  const sums = path.join(dir, 'SHA256SUMS');
  for (const name of ['b.tar.gz', 'a.tar.gz']) {
    writeFileSync(path.join(dir, name), `content of ${name}`);
    writeChecksum(sums, name, await sha256File(path.join(dir, name)));
  }
  writeFileSync(path.join(dir, 'a.tar.gz'), 'rebuilt');
  writeChecksum(sums, 'a.tar.gz', await sha256File(path.join(dir, 'a.tar.gz')));
  const lines = readFileSync(sums, 'utf8').trim().split('\n');
  t.equal(lines.length, 2, 'the rebuilt file replaced its entry');
  t.match(lines[0], /^[0-9a-f]{64} {2}a\.tar\.gz$/);
  t.equal(readChecksums(sums).get('b.tar.gz'), await sha256File(path.join(dir, 'b.tar.gz')));
  t.match(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir }).toString(), /a\.tar\.gz: OK\nb\.tar\.gz: OK/);
});
