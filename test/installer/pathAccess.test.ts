// Who can reach a folder: every directory on the way must let the user through by the class (owner,
// group, others) that applies to it. Checked against real directories and modes.

import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { describeBlocker, firstBlocked, type PathUser } from '../../installer/pathAccess.js';
import { tempDir } from '../support/tempDir.js';

const nobody: PathUser = { name: 'nobody', uid: 65534, gid: 65534, groups: [65534] };
const isRoot = process.getuid?.() === 0;

t.test('a parent of mode 0700 stops another user; o+x lets it through', async (t) => {
  const base = await tempDir(t, 'pp-path-');
  chmodSync(base, 0o755);
  const home = path.join(base, 'home');
  const data = path.join(home, 'pp', 'data');
  mkdirSync(data, { recursive: true });
  chmodSync(home, 0o700);
  const blocked = firstBlocked(data, nobody);
  t.same(blocked, { dir: home, mode: 0o700, owner: process.getuid!(), grant: 'o+x' });
  t.equal(
    describeBlocker(nobody, data, 'data folder', blocked!, 'or choose another with --data-dir'),
    `the user nobody cannot reach the data folder ${data}: ${home} (mode 700, owner uid ${process.getuid!()}) does not let it through; allow it with chmod o+x ${home}, or choose another with --data-dir`,
  );
  chmodSync(home, 0o711);
  t.equal(firstBlocked(data, nobody), undefined);
  // Not created yet: the part that exists decides.
  t.equal(firstBlocked(path.join(data, 'not', 'yet'), nobody), undefined);
  chmodSync(home, 0o700);
  t.equal(firstBlocked(path.join(home, 'not', 'yet'), nobody)?.dir, home);
  // An account not created yet owns nothing and is in no group.
  t.equal(firstBlocked(data, { name: 'pp', uid: -1, gid: -1, groups: [] })?.grant, 'o+x');
  t.equal(firstBlocked(data, { ...nobody, uid: 0 }), undefined, 'root passes everywhere');
});

t.test('the owner and the group classes', { skip: isRoot ? false : 'changing the owner needs root' }, async (t) => {
  const base = await tempDir(t, 'pp-path-');
  chmodSync(base, 0o755);
  const dir = path.join(base, 'shared');
  mkdirSync(dir);
  chownSync(dir, 0, 65534);
  chmodSync(dir, 0o750);
  t.equal(firstBlocked(dir, nobody), undefined, 'through its group');
  chmodSync(dir, 0o705);
  t.same(firstBlocked(dir, nobody)?.grant, 'g+x', 'its group class applies, not others');
  chownSync(dir, 65534, 65534);
  chmodSync(dir, 0o077);
  t.same(firstBlocked(dir, nobody)?.grant, 'u+x', 'the owner class applies to the owner');
});
