// The layout under the prefix: the `current` link switched in one step, old releases pruned
// without touching the protected ones, and the lock that keeps two ppctl runs apart.

import t from 'tap';
import { existsSync, mkdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { currentVersion, listReleases, pruneReleases, releaseDir, switchCurrent, withInstallLock } from '../../installer/installation.js';
import { tempDir } from '../support/tempDir.js';

t.test('current switches between releases; releases sort by version, not name', async (t) => {
  const prefix = await tempDir(t);
  for (const v of ['0.9.0', '0.10.0', '0.2.0']) mkdirSync(releaseDir(prefix, v), { recursive: true });
  mkdirSync(releaseDir(prefix, '.incoming-abc'));
  t.equal(currentVersion(prefix), undefined);
  switchCurrent(prefix, '0.9.0');
  t.equal(readlinkSync(path.join(prefix, 'current')), path.join('releases', '0.9.0'), 'a relative link, so the prefix can move');
  switchCurrent(prefix, '0.10.0');
  t.equal(currentVersion(prefix), '0.10.0');
  t.same(listReleases(prefix), ['0.2.0', '0.9.0', '0.10.0'], 'unfinished unpacks are not releases');
});

t.test('pruning keeps the newest releases and never a protected one', async (t) => {
  const prefix = await tempDir(t);
  for (const v of ['0.1.0', '0.2.0', '0.3.0', '0.4.0', '0.5.0']) mkdirSync(releaseDir(prefix, v), { recursive: true });
  t.same(pruneReleases(prefix, 3, ['0.5.0', '0.1.0']), ['0.2.0', '0.3.0']);
  t.same(listReleases(prefix), ['0.1.0', '0.4.0', '0.5.0']);
  t.same(pruneReleases(prefix, 3, []), [], 'nothing beyond the limit');
});

t.test('a second run is refused while the first holds the lock; a stale lock is taken over', async (t) => {
  const prefix = await tempDir(t);
  let inside = false;
  const first = withInstallLock(prefix, 'upgrade', async () => {
    inside = true;
    await new Promise((r) => setTimeout(r, 100));
    return 'done';
  });
  await t.rejects(
    withInstallLock(prefix, 'rollback', async () => 'never'),
    { message: `another ppctl upgrade (pid ${process.pid}) is working on ${prefix}; wait for it to finish` },
  );
  t.ok(inside);
  t.equal(await first, 'done');
  t.notOk(existsSync(path.join(prefix, '.ppctl.lock')), 'released afterwards');

  writeFileSync(path.join(prefix, '.ppctl.lock'), '999999999 upgrade\n');
  t.equal(await withInstallLock(prefix, 'install', async () => 'taken over'), 'taken over');
  await t.rejects(
    withInstallLock(prefix, 'install', async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  t.notOk(existsSync(path.join(prefix, '.ppctl.lock')), 'released after a failure too');
});
