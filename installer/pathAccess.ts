// Can a user reach a folder? Every directory on the way must let it through (the x bit of the owner,
// group or others class that applies to it), which is what a parent of mode 0700 (a home folder)
// silently breaks for a service user. Used by `ppctl install` before it writes anything, and by
// `ppctl doctor` for the whole path of the data folder.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

export interface PathUser {
  name: string;
  /** -1 for an account not created yet (it will own nothing on the way). */
  uid: number;
  gid: number;
  groups: number[];
}

export interface PathBlocker {
  dir: string;
  mode: number;
  owner: number;
  /** The chmod that lets the user through: the class that applies to it. */
  grant: 'u+x' | 'g+x' | 'o+x';
}

/** The account's identity with its groups; one not created yet gets none. */
export function pathUser(name: string, account: { uid: number; gid: number } | undefined): PathUser {
  if (!account) return { name, uid: -1, gid: -1, groups: [] };
  let groups: number[] = [account.gid];
  try {
    groups = execFileSync('id', ['-G', name], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
      .split(/\s+/)
      .map(Number);
  } catch {
    // Without `id`, the primary group is all we know.
  }
  return { name, uid: account.uid, gid: account.gid, groups };
}

/** The first existing directory on the way to `target` (itself included) that `user` cannot pass. */
export function firstBlocked(target: string, user: PathUser): PathBlocker | undefined {
  if (user.uid === 0) return undefined;
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    let st;
    try {
      st = statSync(dir);
    } catch {
      return undefined; // the rest is created later, by whoever creates it, with modes that let the user in
    }
    const bit = st.uid === user.uid ? 0o100 : user.groups.includes(st.gid) ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) return { dir, mode: st.mode & 0o777, owner: st.uid, grant: bit === 0o100 ? 'u+x' : bit === 0o010 ? 'g+x' : 'o+x' };
  }
  return undefined;
}

/** One sentence for a person: who cannot reach what, where it stops, and the fix. */
export function describeBlocker(user: PathUser, target: string, what: string, b: PathBlocker, alternative: string): string {
  const at = b.dir === path.resolve(target) ? `${b.dir} itself` : b.dir;
  return `the user ${user.name} cannot reach the ${what} ${target}: ${at} (mode ${b.mode.toString(8)}, owner uid ${b.owner}) does not let it through; allow it with chmod ${b.grant} ${b.dir}, ${alternative}`;
}
