// The account the server runs as: looked up (or created, as a system account, when installing as
// root), and the owner of the data folder and of the files holding secrets.

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, lchownSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InstallerError } from './installation.js';

export interface ServiceUser {
  name: string;
  uid: number;
  gid: number;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The account installing by default runs the server as: `pp` for root, else the caller. */
export function defaultUserName(): string {
  return isRoot() ? 'pp' : os.userInfo().username;
}

export function lookupUser(name: string): ServiceUser | undefined {
  let line: string | undefined;
  try {
    line = execFileSync('getent', ['passwd', name], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // No getent (minimal images): the local passwd file is where a system account lives anyway.
    line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.split(':')[0] === name);
  }
  if (!line) return undefined;
  const fields = line.split(':');
  return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** Finds the account, creating a system account without a login shell when root asks for a missing one. */
export function ensureUser(name: string, home: string): { user: ServiceUser; created: boolean } {
  const found = lookupUser(name);
  if (found) return { user: found, created: false };
  if (!isRoot()) throw new InstallerError(`user ${name} does not exist, and only root can create it`);
  const shell = ['/usr/sbin/nologin', '/sbin/nologin'].find((s) => existsSync(s)) ?? '/bin/false';
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', home, '--shell', shell, name], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new InstallerError(`cannot create user ${name}: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`);
  }
  const created = lookupUser(name);
  if (!created) throw new InstallerError(`user ${name} was created but cannot be found`);
  return { user: created, created: true };
}

/** The identity a child process should take: the service user when we are root, else our own. */
export function spawnIdentity(user: ServiceUser): { uid?: number; gid?: number } {
  return isRoot() && user.uid !== 0 ? { uid: user.uid, gid: user.gid } : {};
}

/** Gives a file or a whole tree to the service user (only root can; for anyone else it already is theirs). */
export function chownTree(target: string, user: ServiceUser): void {
  if (!isRoot() || !existsSync(target)) return;
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.uid !== user.uid || st.gid !== user.gid) (st.isSymbolicLink() ? lchownSync : chownSync)(p, user.uid, user.gid);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(target);
}
