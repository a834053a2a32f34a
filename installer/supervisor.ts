// Running pp without systemd: `ppctl start` detaches a supervisor (`ppctl supervise`), which takes
// the service user's identity, writes the pid file, runs `ppctl serve` with output to the log file,
// and restarts it after a crash (as Restart=on-failure would); SIGTERM stops both, gracefully.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../server/ground/packageRoot.js';
import { currentLink, ensureDir, logDirOf, logFileOf, pidFileOf, type Installation } from './installation.js';
import { LogFile } from './logFile.js';
import { chownTree, isRoot, lookupUser, type ServiceUser } from './serviceUser.js';

const STOP_TIMEOUT_MS = 30_000;
/** A run shorter than this counts as a crash at start; this many in a row and the supervisor gives up. */
const QUICK_EXIT_MS = 30_000;
const MAX_QUICK_EXITS = 5;
const BACKOFF_MS = [1000, 2000, 4000, 8000];

export function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running supervisor's pid, checking the process really is one (a pid file can outlive its process). */
export function supervisorPid(inst: Installation): number | undefined {
  const pid = readPid(pidFileOf(inst.config));
  if (pid === undefined || !isAlive(pid)) return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.includes('supervise') && cmdline.some((a) => a.endsWith('ppctl.js')) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Only what the server needs: settings come from pp.json, never from the caller's PP_* variables. */
function serviceEnv(inst: Installation): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: inst.config.data_dir, NODE_ENV: 'production' };
  for (const name of ['LANG', 'LC_ALL', 'TZ']) if (process.env[name]) env[name] = process.env[name];
  return env;
}

function serviceUser(inst: Installation): ServiceUser {
  const user = lookupUser(inst.record.user);
  if (!user) throw new Error(`service user ${inst.record.user} does not exist`);
  return user;
}

/** Detaches a supervisor from the current release's launcher; returns its pid. */
export function startSupervisor(inst: Installation): number {
  const user = serviceUser(inst);
  ensureDir(logDirOf(inst.config), 0o750);
  const logFile = logFileOf(inst.config);
  closeSync(openSync(logFile, 'a', 0o640));
  chownTree(logDirOf(inst.config), user);
  // Early failures (before the supervisor opens the log itself) still land in the log.
  const fd = openSync(logFile, 'a');
  try {
    const launcher = path.join(currentLink(inst.record.prefix), 'ppctl');
    const child = spawn(launcher, ['supervise', '--config-dir', inst.configDir], { detached: true, stdio: ['ignore', fd, fd], cwd: inst.config.data_dir, env: serviceEnv(inst) });
    child.unref();
    if (child.pid === undefined) throw new Error(`cannot start ${launcher}`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/** Sends SIGTERM to the supervisor and waits until it (and so the server) has exited. */
export async function stopSupervisor(inst: Installation, pid: number, timeoutMs = STOP_TIMEOUT_MS + 5000): Promise<void> {
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    rmSync(pidFileOf(inst.config), { force: true });
  }
}

/** The supervisor's main loop (`ppctl supervise`); resolves with its exit code. */
export async function supervise(inst: Installation): Promise<number> {
  const user = serviceUser(inst);
  if (isRoot() && user.uid !== 0) {
    process.setgroups!([user.gid]);
    process.setgid!(user.gid);
    process.setuid!(user.uid);
  }
  const pidFile = pidFileOf(inst.config);
  const other = supervisorPid(inst);
  if (other !== undefined && other !== process.pid) throw new Error(`pp is already running (supervisor pid ${other})`);
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o644 });
  const log = new LogFile(logFileOf(inst.config));
  const ppctl = path.join(packageRoot(), 'dist', 'bin', 'ppctl.js');
  let child: ChildProcess | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.line('info', 'stopping the server', { signal });
    wake?.();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child?.kill('SIGKILL'), STOP_TIMEOUT_MS);
      force.unref();
    }
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => undefined);

  let quickExits = 0;
  let code = 0;
  while (!stopping) {
    const started = Date.now();
    child = spawn(process.execPath, [ppctl, 'serve', '--config', inst.configFile], { cwd: inst.config.data_dir, env: serviceEnv(inst), stdio: ['ignore', 'pipe', 'pipe'] });
    log.line('info', 'server started', { pid: child.pid, release: packageRoot() });
    child.stdout!.on('data', (c: Buffer) => log.write(c));
    child.stderr!.on('data', (c: Buffer) => log.write(c));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child!.on('close', (c, s) => resolve({ code: c, signal: s })));
    if (stopping) break;
    const ranMs = Date.now() - started;
    quickExits = ranMs < QUICK_EXIT_MS ? quickExits + 1 : 0;
    if (quickExits >= MAX_QUICK_EXITS) {
      log.line('error', `the server exited ${MAX_QUICK_EXITS} times in a row within ${QUICK_EXIT_MS / 1000} s of starting; giving up (see the lines above)`, exit);
      code = 1;
      break;
    }
    const delay = BACKOFF_MS[Math.min(Math.max(quickExits - 1, 0), BACKOFF_MS.length - 1)]!;
    log.line('warn', `the server exited unexpectedly; restarting in ${delay / 1000} s`, { ...exit, ran_s: Math.round(ranMs / 1000) });
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, delay);
    });
  }
  log.line('info', 'supervisor stopped');
  log.close();
  if (readPid(pidFile) === process.pid) rmSync(pidFile, { force: true });
  return code;
}
