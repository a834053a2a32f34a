// Starts, stops and inspects the installed server through whichever manager runs it: systemd's
// pp.service, or the supervised background process with its pid file when systemd is absent.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { InstallerError, logFileOf, SERVICE_NAME, type Installation } from './installation.js';
import { waitForHealth, type Health } from './health.js';
import { tailFile } from './logFile.js';
import { run } from './run.js';
import { runningServerStatus } from './runningServer.js';
import { isAlive, startSupervisor, stopSupervisor, supervisorPid } from './supervisor.js';
import { StringDecoder } from 'node:string_decoder';

export interface ServiceState {
  manager: 'systemd' | 'process';
  /** The manager's view: the unit is active, or the supervisor lives. */
  active: boolean;
  /** The supervisor's pid (process manager) or the unit's main pid (systemd). */
  pid: number | null;
}

export async function serviceState(inst: Installation): Promise<ServiceState> {
  if (inst.record.service === 'systemd') {
    const active = (await run('systemctl', ['is-active', '--quiet', SERVICE_NAME])).code === 0;
    const shown = await run('systemctl', ['show', '--property', 'MainPID', '--value', SERVICE_NAME]);
    const pid = Number(shown.stdout.trim());
    return { manager: 'systemd', active, pid: pid > 0 ? pid : null };
  }
  const pid = supervisorPid(inst);
  return { manager: 'process', active: pid !== undefined, pid: pid ?? null };
}

/** Starts the server (if not running) and waits until it answers ready, optionally as a given version. */
export async function startService(inst: Installation, options: { version?: string; timeoutMs?: number } = {}): Promise<Health & { started: boolean }> {
  const state = await serviceState(inst);
  let started = false;
  let alive: (() => boolean) | undefined;
  if (!state.active) {
    if (inst.record.service === 'systemd') {
      const res = await run('systemctl', ['start', SERVICE_NAME]);
      if (res.code !== 0) throw new InstallerError(`systemctl start ${SERVICE_NAME} failed: ${res.stderr.trim()}\n(see: journalctl -u ${SERVICE_NAME} -n 50)`);
    } else {
      const pid = startSupervisor(inst);
      alive = () => isAlive(pid);
    }
    started = true;
  }
  const health = await waitForHealth(inst.config, { version: options.version, timeoutMs: options.timeoutMs, alive });
  return { ...health, started };
}

/** Stops the server and waits until it has let go of the data files; false when it was not running. */
export async function stopService(inst: Installation): Promise<boolean> {
  let wasRunning = false;
  if (inst.record.service === 'systemd') {
    const state = await serviceState(inst);
    if (state.active) {
      wasRunning = true;
      const res = await run('systemctl', ['stop', SERVICE_NAME]);
      if (res.code !== 0) throw new InstallerError(`systemctl stop ${SERVICE_NAME} failed: ${res.stderr.trim()}`);
    }
  } else {
    const pid = supervisorPid(inst);
    if (pid !== undefined) {
      wasRunning = true;
      await stopSupervisor(inst, pid);
    }
  }
  // A server without its manager (its supervisor was killed) still holds the files: stop it too.
  const orphan = await runningServerStatus(inst.config);
  if (orphan) {
    wasRunning = true;
    process.kill(orphan.pid, 'SIGTERM');
    const deadline = Date.now() + 60_000;
    while (isAlive(orphan.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(orphan.pid)) throw new InstallerError(`server pid ${orphan.pid} did not stop within 60 s`);
  }
  return wasRunning;
}

/** The last lines of the server's output, from the journal or the log file. */
export async function recentLogs(inst: Installation, lines: number): Promise<string[]> {
  if (inst.record.service === 'systemd') {
    const res = await run('journalctl', ['--unit', SERVICE_NAME, '--lines', String(lines), '--output', 'cat', '--no-pager']);
    return res.stdout.split('\n').filter(Boolean);
  }
  return tailFile(logFileOf(inst.config), lines);
}

/** `ppctl logs --follow`: hands new text to `onText` as it is written, until interrupted. */
export async function followLogs(inst: Installation, lines: number, onText: (text: string) => void): Promise<void> {
  if (inst.record.service === 'systemd') {
    const child = spawn('journalctl', ['--unit', SERVICE_NAME, '--lines', String(lines), '--output', 'cat', '--follow'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.setEncoding('utf8').on('data', onText);
    await new Promise((resolve) => child.on('close', resolve));
    return;
  }
  const file = logFileOf(inst.config);
  for (const line of tailFile(file, lines)) onText(line + '\n');
  let offset = existsSync(file) ? statSync(file).size : 0;
  // A character split between two reads is held until its last byte arrives.
  const decoder = new StringDecoder('utf8');
  // Runs until the operator interrupts it, like tail -f.
  await new Promise<void>(() => {
    setInterval(() => {
      if (!existsSync(file)) return;
      const size = statSync(file).size;
      if (size < offset) offset = 0; // rotated: the new file starts from the beginning
      if (size === offset) return;
      const fd = openSync(file, 'r');
      const buf = Buffer.alloc(size - offset);
      readSync(fd, buf, 0, buf.length, offset);
      closeSync(fd);
      onText(decoder.write(buf));
      offset = size;
    }, 500);
  });
}
