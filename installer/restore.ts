// `ppctl restore FILE`: checks a backup (manifest, every file's SHA-256, migrations this release
// knows), then swaps its database files in for the current ones, which are kept aside until the
// swap is complete. A backup of an installation on ClickHouse first puts its tables' copies back
// into the database `clickhouse.*` names (server/admin/clickHouseBackup.ts), then swaps the files.
// The caller makes sure no server holds the files or writes to the database.

import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../server/ground/config.js';
import { migrationsDir, planMigrations, readMigrations } from '../server/store/migrate.js';
import { extractTar, listTar } from './archive.js';
import { BACKUP_FORMAT, backupsDir, CONFIG_ENTRY, MANIFEST_FILE, type BackupManifest } from './backup.js';
import { InstallerError } from './installation.js';
import { isRoot } from './serviceUser.js';
import { EVENTS_FILE, META_FILE, SECRET_FILE, sha256File } from '../server/admin/snapshot.js';
import { JOURNAL_DIR } from '../server/ingest/journal.js';
import { CLICKHOUSE_DIR, CLICKHOUSE_TABLES, copyFileName, restoreClickHouse } from '../server/admin/clickHouseBackup.js';

export interface RestoreResult {
  manifest: BackupManifest;
  /** True when pp.json's secret was replaced by the one the backup's data was written with. */
  secretRestored: boolean;
}

/** Unpacks a backup into `dir` and checks it; throws InstallerError naming what is wrong. */
export async function unpackBackup(file: string, dir: string): Promise<BackupManifest> {
  if (!existsSync(file)) throw new InstallerError(`${file} does not exist`);
  const names = await listTar(file).catch((err: Error) => {
    throw new InstallerError(`${file} is not a pp backup: ${err.message}`);
  });
  // Only the entries a backup has: nothing may land outside the folder.
  const allowed = new Set([
    MANIFEST_FILE,
    CONFIG_ENTRY,
    'data/',
    `data/${CLICKHOUSE_DIR}/`,
    ...[META_FILE, EVENTS_FILE, SECRET_FILE, ...CLICKHOUSE_TABLES.map((t) => copyFileName(t.name))].map((f) => `data/${f}`),
  ]);
  const stray = names.find((n) => !allowed.has(n));
  if (stray !== undefined) throw new InstallerError(`${file} is not a pp backup (unexpected entry ${stray})`);
  if (!names.includes(MANIFEST_FILE)) throw new InstallerError(`${file} is not a pp backup (no ${MANIFEST_FILE})`);
  await extractTar(file, dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new InstallerError(`${file} has backup format ${String(manifest.format)}; this release reads ${BACKUP_FORMAT}`);
  const copies = manifest.clickhouse?.tables ?? [];
  if (copies.some((c) => !CLICKHOUSE_TABLES.some((t) => copyFileName(t.name) === c.name && t.name === c.table)))
    throw new InstallerError(`${file} is not a pp backup (its manifest names an unknown ClickHouse table)`);
  const expected = [
    ...[...manifest.files, ...copies].map((f) => ({ ...f, at: path.join(dir, 'data', f.name) })),
    ...(manifest.config ? [{ ...manifest.config, at: path.join(dir, CONFIG_ENTRY) }] : []),
  ];
  for (const f of expected) {
    if (!existsSync(f.at)) throw new InstallerError(`${file} is damaged: ${f.name} is missing`);
    const actual = await sha256File(f.at);
    if (actual !== f.sha256) throw new InstallerError(`${file} is damaged: ${f.name} has SHA-256 ${actual.slice(0, 12)}…, the manifest says ${f.sha256.slice(0, 12)}…`);
  }
  for (const needed of manifest.clickhouse ? [META_FILE] : [META_FILE, EVENTS_FILE]) {
    if (!manifest.files.some((f) => f.name === needed)) throw new InstallerError(`${file} is not a complete pp backup (no ${needed})`);
  }
  if (manifest.clickhouse && !copies.some((c) => c.table === 'events')) throw new InstallerError(`${file} is not a complete pp backup (no copy of the events on ClickHouse)`);
  return manifest;
}

/** Refuses a backup made by a newer release: its databases have migrations this code does not know. */
export function checkMigrationsKnown(manifest: BackupManifest, root?: string): void {
  for (const engine of ['sqlite', 'duckdb', 'clickhouse'] as const) {
    if (manifest.migrations[engine] === undefined) continue;
    try {
      planMigrations(readMigrations(root ? path.join(root, engine) : migrationsDir(engine)), manifest.migrations[engine]);
    } catch (err) {
      throw new InstallerError(`the backup was taken by pp ${manifest.pp_version} and cannot be restored by this release: ${(err as Error).message}`);
    }
  }
}

// The ingest journal belongs to the replaced events: what it holds must not be loaded into the restored ones.
const LIVE_FILES = [META_FILE, `${META_FILE}-wal`, `${META_FILE}-shm`, EVENTS_FILE, `${EVENTS_FILE}.wal`, SECRET_FILE, JOURNAL_DIR];
// On ClickHouse a DuckDB file in the data folder is the one of before the move to ClickHouse: it stays.
const LIVE_FILES_CLICKHOUSE = LIVE_FILES.filter((f) => !f.startsWith(EVENTS_FILE));

export async function restoreBackup(config: Config, file: string, options: { configFile?: string } = {}): Promise<RestoreResult> {
  const work = path.join(backupsDir(config), `.restore-${randomBytes(6).toString('hex')}`);
  mkdirSync(work, { recursive: true, mode: 0o700 });
  try {
    const manifest = await unpackBackup(path.resolve(file), work);
    checkMigrationsKnown(manifest);
    if (manifest.clickhouse) {
      if (config.events.engine !== 'clickhouse')
        throw new InstallerError(
          `${file} holds the events of an installation on ClickHouse (database ${manifest.clickhouse.database}): set events.engine clickhouse and the clickhouse.* settings of the cluster to restore into first`,
        );
      try {
        await restoreClickHouse(config.clickhouse, path.join(work, 'data'), manifest.clickhouse);
      } catch (err) {
        throw new InstallerError(
          `restoring the ClickHouse tables into database ${config.clickhouse.database} failed, the data folder is untouched: ${(err as Error).message}. Restoring again replaces them whole.`,
        );
      }
    }
    const aside = path.join(work, 'replaced');
    mkdirSync(aside);
    const moved: string[] = [];
    try {
      for (const name of manifest.clickhouse ? LIVE_FILES_CLICKHOUSE : LIVE_FILES) {
        const live = path.join(config.data_dir, name);
        if (existsSync(live)) {
          renameSync(live, path.join(aside, name));
          moved.push(name);
        }
      }
      for (const f of manifest.files) renameSync(path.join(work, 'data', f.name), path.join(config.data_dir, f.name));
    } catch (err) {
      // Put the previous files back exactly as they were.
      for (const f of manifest.files) rmSync(path.join(config.data_dir, f.name), { force: true });
      for (const name of moved) renameSync(path.join(aside, name), path.join(config.data_dir, name));
      throw new InstallerError(`restore failed, the previous files are back in place: ${(err as Error).message}`);
    }
    const secretRestored = manifest.config && options.configFile ? restoreSecret(options.configFile, path.join(work, CONFIG_ENTRY)) : false;
    return { manifest, secretRestored };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The data was encrypted and signed with the backup's secret: the installation takes it over, other settings stay. */
function restoreSecret(configFile: string, backedUp: string): boolean {
  const current = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  const old = JSON.parse(readFileSync(backedUp, 'utf8')) as Record<string, unknown>;
  if (old.secret === undefined || old.secret === current.secret) return false;
  const owner = statSync(configFile);
  writeFileSync(configFile + '.tmp', JSON.stringify({ ...current, secret: old.secret }, null, 2) + '\n', { mode: 0o600 });
  // The service user must still be able to read it.
  if (isRoot()) chownSync(configFile + '.tmp', owner.uid, owner.gid);
  renameSync(configFile + '.tmp', configFile);
  return true;
}
