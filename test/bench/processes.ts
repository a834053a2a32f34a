// Process plumbing for the bench: free loopback ports, and a process's resident memory as the
// kernel reports it (VmRSS now, VmHWM the peak), with the peak resettable between phases.

import { readFileSync, writeFileSync } from 'node:fs';
export { freePort } from '../support/freePort.js';

export interface ProcessMemory {
  rssMb: number;
  peakMb: number;
}

export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS (Linux clear_refs 5), so the next peak belongs to one phase. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** CPU time the process has used, user and system, in ms (from /proc/<pid>/stat, at 100 ticks a second). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
