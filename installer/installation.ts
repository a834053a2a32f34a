// An installed pp: <config-dir>/pp.json (the server's settings) and install.json (where the releases
// live, which user and service manager run it, the last upgrade), <prefix>/releases/<version> and the
// <prefix>/current link. Every ppctl command after install finds all of it from the config folder.

import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../server/ground/config.js';
import { compareVersions, isVersion } from './versions.js';

export const DEFAULT_PREFIX = '/opt/pp';
export const DEFAULT_DATA_DIR = '/var/lib/pp';
export const DEFAULT_CONFIG_DIR = '/etc/pp';
export const DEFAULT_BIN_DIR = '/usr/local/bin';
export const SERVICE_NAME = 'pp.service';

export type ServiceKind = 'systemd' | 'process';

export interface InstallRecord {
  prefix: string;
  user: string;
  service: ServiceKind;
  /** The ppctl link put on the PATH, if any. */
  bin_link: string | null;
  installed_at: string;
  /** The upgrade `ppctl rollback` undoes: from which release, and the backup taken just before. */
  last_upgrade: { from: string; to: string; at: string; backup: string } | null;
}

export interface Installation {
  configDir: string;
  configFile: string;
  record: InstallRecord;
  /** The settings exactly as the service reads them (the environment of the shell plays no part). */
  config: Config;
}

/** A refusal or failure meant for the operator: printed as is, exit code 1. */
export class InstallerError extends Error {}

export function configFileOf(configDir: string): string {
  return path.join(configDir, 'pp.json');
}

export function recordFileOf(configDir: string): string {
  return path.join(configDir, 'install.json');
}

export function isInstalled(configDir: string): boolean {
  return existsSync(recordFileOf(configDir));
}

export function loadInstallation(configDir: string): Installation {
  const dir = path.resolve(configDir);
  if (!isInstalled(dir)) {
    throw new InstallerError(`no pp installation found in ${dir} (run \`ppctl install\`, or pass --config-dir where it was installed)`);
  }
  const record = JSON.parse(readFileSync(recordFileOf(dir), 'utf8')) as InstallRecord;
  const configFile = configFileOf(dir);
  return { configDir: dir, configFile, record, config: loadConfig({ configFile, env: {} }) };
}

export function saveRecord(configDir: string, record: InstallRecord): void {
  const file = recordFileOf(configDir);
  writeFileSync(file + '.tmp', JSON.stringify(record, null, 2) + '\n', { mode: 0o644 });
  renameSync(file + '.tmp', file);
}

export function releasesDir(prefix: string): string {
  return path.join(prefix, 'releases');
}

export function releaseDir(prefix: string, version: string): string {
  return path.join(releasesDir(prefix), version);
}

export function currentLink(prefix: string): string {
  return path.join(prefix, 'current');
}

/** The version the `current` link points at, or undefined before the first install. */
export function currentVersion(prefix: string): string | undefined {
  const link = currentLink(prefix);
  if (!existsSync(link) && !isLink(link)) return undefined;
  return path.basename(readlinkSync(link));
}

/** Installed releases, oldest first. */
export function listReleases(prefix: string): string[] {
  const dir = releasesDir(prefix);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(isVersion).sort(compareVersions);
}

/** Points `current` at a release by replacing the link in one rename, so it is never missing. */
export function switchCurrent(prefix: string, version: string): void {
  const link = currentLink(prefix);
  const tmp = `${link}.new`;
  rmSync(tmp, { force: true });
  symlinkSync(path.join('releases', version), tmp);
  renameSync(tmp, link);
}

/** Deletes the oldest releases until `keep` remain, never a protected one (current, rollback target). */
export function pruneReleases(prefix: string, keep: number, protect: string[]): string[] {
  const all = listReleases(prefix);
  const removed: string[] = [];
  for (const v of all) {
    if (all.length - removed.length <= keep) break;
    if (protect.includes(v)) continue;
    rmSync(releaseDir(prefix, v), { recursive: true, force: true });
    removed.push(v);
  }
  return removed;
}

export function pidFileOf(config: Config): string {
  return path.join(config.data_dir, 'pp.pid');
}

export function logDirOf(config: Config): string {
  return path.join(config.data_dir, 'logs');
}

export function logFileOf(config: Config): string {
  return path.join(logDirOf(config), 'pp.log');
}

export function backupsDirOf(config: Config): string {
  return path.join(config.data_dir, 'backups');
}

export function ensureDir(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true, mode });
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Runs `work` holding <prefix>/.ppctl.lock, so two installs, upgrades or rollbacks never interleave.
 * A lock left by a process that is gone is taken over.
 */
export async function withInstallLock<T>(prefix: string, what: string, work: () => Promise<T>): Promise<T> {
  ensureDir(prefix, 0o755);
  const file = path.join(prefix, '.ppctl.lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid} ${what}\n`);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const [pid, ...holder] = readFileSync(file, 'utf8').trim().split(' ');
      if (pid && processAlive(Number(pid))) throw new InstallerError(`another ppctl ${holder.join(' ')} (pid ${pid}) is working on ${prefix}; wait for it to finish`);
      rmSync(file, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
