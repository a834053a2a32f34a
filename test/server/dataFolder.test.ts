// A data folder pp cannot write stops the start at once with a message naming the folder (or the
// file), the reason and the fix, instead of SQLite's "unable to open database file". Exercised the
// ways this machine allows: as an unprivileged user on a folder it may not write (dropping to
// nobody when the tests run as root), and on a read-only bind mount (root, with mount namespaces).

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { outputOf } from '../support/ppctl.js';
import { tempDir } from '../support/tempDir.js';

const PPCTL = path.join(packageRoot(), 'dist', 'bin', 'ppctl.js');
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const other = 'or choose another data folder with --data-dir (PP_DATA_DIR)';

/** Root can drop to nobody only if nobody can read this checkout. */
function nobodyCanRun(): boolean {
  if (!isRoot) return false;
  const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(PPCTL)})`], { uid: NOBODY, gid: NOBODY });
  return probe.status === 0;
}

function unprivileged(): { uid: number; name: string } | undefined {
  if (!isRoot) return { uid: os.userInfo().uid, name: os.userInfo().username };
  return nobodyCanRun() ? { uid: NOBODY, name: 'nobody' } : undefined;
}

async function serve(dataDir: string, options: { uid?: number; readOnlyMount?: string } = {}) {
  const args = [PPCTL, 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1'];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_')));
  // tap's runner, when a file runs under it, adds its hooks (which write beside the checkout) to every child's NODE_OPTIONS.
  const node = ['env', '-u', 'NODE_OPTIONS', process.execPath, ...args];
  const child = options.readOnlyMount
    ? spawn('unshare', ['-m', 'sh', '-c', 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"', 'sh', options.readOnlyMount, ...node], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(node[0]!, node.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], ...(options.uid !== undefined && isRoot ? { uid: options.uid, gid: options.uid } : {}) });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const result = await outputOf(child);
  clearTimeout(timer);
  return result;
}

const user = unprivileged();
t.test('a folder the user running pp may not write', { skip: user ? false : 'running as root and nobody cannot read this checkout' }, async (t) => {
  const { uid, name } = user!;
  const base = await tempDir(t, 'pp-data-folder-');
  chmodSync(base, 0o755);
  const locked = path.join(base, 'locked');
  mkdirSync(locked, { mode: 0o555 });
  chmodSync(locked, 0o555);

  const existing = await serve(locked, { uid });
  t.equal(existing.code, 1);
  t.equal(
    existing.stderr.trim(),
    `ppctl: the data folder ${locked} cannot be written: the user running pp (${name}, uid ${uid}) lacks the permission; give it the folder (chown -R ${name} ${locked}) ${other}`,
  );

  const missing = path.join(locked, 'pp', 'data');
  const created = await serve(missing, { uid });
  t.equal(created.code, 1);
  t.equal(
    created.stderr.trim(),
    `ppctl: the data folder ${missing} cannot be created: the user running pp (${name}, uid ${uid}) lacks the permission; give it the folder (chown -R ${name} ${locked}) ${other}`,
  );

  // The folder is the user's, but a database file in it is not writable.
  const mine = path.join(base, 'mine');
  mkdirSync(mine, { mode: 0o700 });
  writeFileSync(path.join(mine, 'meta.sqlite'), '');
  chmodSync(path.join(mine, 'meta.sqlite'), 0o444);
  if (isRoot) chownSync(mine, uid, uid);
  const file = await serve(mine, { uid });
  t.equal(file.code, 1);
  t.match(file.stderr, `ppctl: ${path.join(mine, 'meta.sqlite')} in the data folder cannot be written: the user running pp (${name}, uid ${uid}) lacks the permission`);
});

const canMount = isRoot && spawnSync('unshare', ['-m', 'true']).status === 0;
t.test('a folder on a read-only file system', { skip: canMount ? false : 'needs root and mount namespaces' }, async (t) => {
  const folder = await tempDir(t, 'pp-data-folder-');
  const res = await serve(folder, { readOnlyMount: folder });
  t.equal(res.code, 1);
  t.equal(res.stderr.trim(), `ppctl: the data folder ${folder} cannot be written: it is on a read-only file system; mount it read-write ${other}`);
});
