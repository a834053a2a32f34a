// `ppctl backup`: asks the server holding the data (or opens it, when none runs) for a snapshot,
// then packs the files with a manifest of their SHA-256 sums into one tar file, mode 0600 since it
// holds the server secret. On the ClickHouse engine the snapshot's event side is a copy of each of
// the installation's tables (server/admin/clickHouseBackup.ts), packed under data/clickhouse/.
// restore.ts reads it back.

import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, chownSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../server/ground/config.js';
import { runAdminCommand } from '../server/admin/adminClient.js';
import { createTar } from './archive.js';
import { isRoot } from './serviceUser.js';
import { sha256File, type Snapshot, type SnapshotFile } from '../server/admin/snapshot.js';

export const BACKUP_FORMAT = 'pp-backup-1';
export const MANIFEST_FILE = 'manifest.json';
export const CONFIG_ENTRY = 'pp.json';

export interface BackupManifest extends Snapshot {
  format: typeof BACKUP_FORMAT;
  host: string;
  /** pp.json of an installation, kept because its secret decrypts what the databases hold. */
  config: SnapshotFile | null;
}

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
  via: 'socket' | 'direct';
}

export function backupsDir(config: Config): string {
  return path.join(config.data_dir, 'backups');
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

export async function createBackup(config: Config, options: { out?: string; configFile?: string; label?: string } = {}): Promise<BackupResult> {
  const dir = backupsDir(config);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The snapshot is written by the server, often another user: the staging folder must be its.
  const staging = path.join(dir, `.staging-${randomBytes(6).toString('hex')}`);
  mkdirSync(staging, { mode: 0o700 });
  if (isRoot()) {
    const owner = statSync(config.data_dir);
    chownSync(dir, owner.uid, owner.gid);
    chownSync(staging, owner.uid, owner.gid);
  }
  try {
    const { result, via } = await runAdminCommand(config, 'backup', { dir: path.join(staging, 'data') });
    const snapshot = result as Snapshot;
    const entries = [...snapshot.files, ...(snapshot.clickhouse?.tables ?? [])].map((f) => path.join('data', f.name));
    let configEntry: SnapshotFile | null = null;
    if (options.configFile && existsSync(options.configFile)) {
      copyFileSync(options.configFile, path.join(staging, CONFIG_ENTRY));
      configEntry = { name: CONFIG_ENTRY, bytes: statSync(options.configFile).size, sha256: await sha256File(path.join(staging, CONFIG_ENTRY)) };
      entries.push(CONFIG_ENTRY);
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, ...snapshot, host: os.hostname(), config: configEntry };
    writeFileSync(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    const name = `pp-backup-${snapshot.pp_version}-${stamp(new Date(snapshot.taken_at))}${options.label ? `-${options.label}` : ''}.tar`;
    const file = path.resolve(options.out ?? path.join(dir, name));
    await createTar(staging, [MANIFEST_FILE, ...entries], file);
    chmodSync(file, 0o600);
    return { file, manifest, via };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Backups in the data folder, newest first. */
export function listBackups(config: Config): Array<{ file: string; bytes: number; mtime: Date }> {
  const dir = backupsDir(config);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tar'))
    .map((f) => {
      const st = statSync(path.join(dir, f));
      return { file: path.join(dir, f), bytes: st.size, mtime: st.mtime };
    })
    .sort((a, b) => b.mtime.getTime() - a.mtime.getTime());
}
