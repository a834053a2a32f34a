// The CPU time of one test file's processes (its node, and the servers, browsers and ClickHouse
// nodes it starts) counted in a cgroup of its own, where the machine lets the runner make one (root
// with cgroup v1's cpuacct, or cgroup v2); elsewhere nothing is counted and the runner says so.
// Wall time alone cannot tell a file that computes from one that waits on timers and restarts.

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CpuAccount {
  /** Counts this process and whatever it starts from now on. */
  add(pid: number): boolean;
  /** CPU seconds (user and system) counted so far. */
  seconds(): number | undefined;
  /** Removes the cgroup; one still holding a process that outlived its file stays, uncounted. */
  remove(): void;
}

const V1 = '/sys/fs/cgroup/cpuacct';
const V2 = '/sys/fs/cgroup';

/** Where cgroups can be made here, and how each counts: undefined when neither kind is writable. */
function hierarchy(): { root: string; read: (dir: string) => number } | undefined {
  if (existsSync(path.join(V1, 'cpuacct.usage'))) return { root: V1, read: (dir) => Number(readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e9 };
  if (existsSync(path.join(V2, 'cgroup.controllers'))) return { root: V2, read: (dir) => Number(/^usage_usec (\d+)$/m.exec(readFileSync(path.join(dir, 'cpu.stat'), 'utf8'))?.[1]) / 1e6 };
  return undefined;
}

export function cpuAccount(name: string): CpuAccount | undefined {
  const kind = hierarchy();
  if (!kind) return undefined;
  const dir = path.join(kind.root, name);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  return {
    add(pid) {
      try {
        writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
        return true;
      } catch {
        return false;
      }
    },
    seconds() {
      try {
        const s = kind.read(dir);
        return Number.isFinite(s) ? s : undefined;
      } catch {
        return undefined;
      }
    },
    remove() {
      try {
        rmdirSync(dir);
      } catch {
        // A daemon a test left running keeps it; the machine's next boot clears it.
      }
    },
  };
}
