// `ppctl upgrade BUNDLE` and `ppctl rollback`. An upgrade checks the bundle against SHA256SUMS and
// the preflight rules, unpacks the new release, stops the server, backs up (stopped, so nothing
// acknowledged afterwards can be lost by a rollback), migrates with the new release's code, switches
// `current`, starts and checks health. On any failure after the stop it switches back, restores the
// backup and starts the old release. Version rule: any older version upgrades directly; no stops.

import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { planMigrations, readMigrations } from '../server/store/migrate.js';
import { extractTarGz, gzipUnpackedSize, readChecksums, readTarGzMember } from './archive.js';
import { createBackup } from './backup.js';
import { readBundleInfo, type BundleInfo } from './bundleInfo.js';
import { checkDatabaseFiles } from '../server/admin/databaseChecks.js';
import { freeBytes, mib, sameFileSystem, sizeOf } from './diskSpace.js';
import { currentVersion, InstallerError, loadInstallation, pruneReleases, releaseDir, releasesDir, saveRecord, switchCurrent, type Installation } from './installation.js';
import { restoreBackup } from './restore.js';
import { run } from './run.js';
import { runningServerStatus, askRunningServer } from './runningServer.js';
import { startService, stopService } from './serviceManager.js';
import { chownTree, lookupUser, spawnIdentity } from './serviceUser.js';
import { EVENTS_FILE, META_FILE, sha256File } from '../server/admin/snapshot.js';
import { compareVersions, isVersion } from './versions.js';
import type { AppliedMigration } from '../server/store/migrate.js';
import { appliedOnClickHouse } from '../server/engine/clickhouse/migrations.js';

/** Releases kept on disk after an upgrade: the new one, the rollback target and one more. */
const KEEP_RELEASES = 3;
const MARGIN = 64 * 1048576;

export interface UpgradeOptions {
  bundle: string;
  /** SHA256SUMS listing the bundle (default: the file of that name beside it). */
  sums?: string;
  healthTimeoutMs?: number;
}

export interface UpgradeReport {
  from: string;
  to: string;
  outcome: 'upgraded' | 'already-current';
  backup?: string;
  migrations: string[];
}

export class UpgradeFailedError extends InstallerError {
  constructor(
    readonly step: string,
    readonly reason: string,
    readonly rollback: string,
  ) {
    super(`upgrade failed during ${step}: ${reason}\n${rollback}`);
  }
}

type Log = (line: string) => void;

export async function upgrade(inst: Installation, opts: UpgradeOptions, log: Log = () => {}): Promise<UpgradeReport> {
  const from = currentVersion(inst.record.prefix);
  if (!from) throw new InstallerError(`no current release in ${inst.record.prefix}`);
  const bundle = path.resolve(opts.bundle);
  log(`checking ${path.basename(bundle)} against SHA256SUMS`);
  await verifyChecksum(bundle, opts.sums ? path.resolve(opts.sums) : path.join(path.dirname(bundle), 'SHA256SUMS'));
  const info = await bundleInfoOf(bundle);
  const to = info.version;
  const order = compareVersions(to, from);
  if (order === 0) return { from, to, outcome: 'already-current', migrations: [] };
  if (order < 0)
    throw new InstallerError(`${path.basename(bundle)} holds pp ${to}, older than the installed ${from}: downgrades are refused (\`ppctl rollback\` returns to the release before the last upgrade)`);
  preflightSpace(inst, bundle);

  const incoming = path.join(releasesDir(inst.record.prefix), `.incoming-${randomBytes(6).toString('hex')}`);
  mkdirSync(incoming, { recursive: true });
  let unpacked: string;
  try {
    log('unpacking');
    await extractTarGz(bundle, incoming);
    unpacked = path.join(incoming, `pp-${to}`);
    if (readBundleInfo(unpacked)?.version !== to || !existsSync(path.join(unpacked, 'ppctl'))) throw new InstallerError(`${path.basename(bundle)} is not a complete pp release`);
  } catch (err) {
    rmSync(incoming, { recursive: true, force: true });
    throw err;
  }
  const target = releaseDir(inst.record.prefix, to);
  rmSync(target, { recursive: true, force: true });
  renameSync(unpacked, target);
  rmSync(incoming, { recursive: true, force: true });
  log(`release ${to} unpacked to ${target}`);

  let step = 'stop';
  let backup: string | undefined;
  let migrations: string[] = [];
  try {
    log('stopping the server');
    await stopService(inst);
    step = 'backup';
    log('backing up the data');
    backup = (await createBackup(inst.config, { configFile: inst.configFile, label: `before-${to}` })).file;
    log(`backup: ${backup}`);
    step = 'migrate';
    log(`migrating with ${to}`);
    migrations = await migrateWith(inst, target);
    step = 'switch';
    switchCurrent(inst.record.prefix, to);
    step = 'start';
    log(`starting ${to}`);
    const health = await startService(inst, { version: to, timeoutMs: opts.healthTimeoutMs });
    step = 'health check';
    if (!health.ok) throw new Error(health.error);
  } catch (err) {
    const cause = err instanceof Error ? err.message : String(err);
    log(`failed during ${step}: ${cause}`);
    const rollback = await rollBackFailed(inst, from, to, backup, step, opts.healthTimeoutMs, log);
    throw new UpgradeFailedError(step, cause, rollback);
  }
  const record = { ...loadInstallation(inst.configDir).record, last_upgrade: { from, to, at: new Date().toISOString(), backup: backup! } };
  saveRecord(inst.configDir, record);
  const pruned = pruneReleases(inst.record.prefix, KEEP_RELEASES, [to, from]);
  if (pruned.length) log(`removed old releases ${pruned.join(', ')}`);
  return { from, to, outcome: 'upgraded', backup, migrations };
}

/** BUNDLE.json read from the archive without unpacking it: a release for this platform, and its version. */
async function bundleInfoOf(bundle: string): Promise<BundleInfo> {
  const raw = await readTarGzMember(bundle, 'pp-*/BUNDLE.json');
  let info: BundleInfo | undefined;
  try {
    info = raw ? (JSON.parse(raw.toString('utf8')) as BundleInfo) : undefined;
  } catch {
    info = undefined;
  }
  if (info?.name !== 'pp' || !isVersion(String(info.version))) throw new InstallerError(`${path.basename(bundle)} is not a pp release (no BUNDLE.json)`);
  if (info.platform !== 'linux-x64') throw new InstallerError(`${path.basename(bundle)} is a pp release for ${info.platform}, not linux-x64`);
  return info;
}

async function verifyChecksum(bundle: string, sumsFile: string): Promise<void> {
  if (!existsSync(bundle)) throw new InstallerError(`${bundle} does not exist`);
  if (!existsSync(sumsFile)) throw new InstallerError(`${sumsFile} not found: copy SHA256SUMS from the release beside the bundle, or name it with --sums`);
  const expected = readChecksums(sumsFile).get(path.basename(bundle));
  if (!expected) throw new InstallerError(`${sumsFile} has no entry for ${path.basename(bundle)}`);
  const actual = await sha256File(bundle);
  if (actual !== expected) throw new InstallerError(`${path.basename(bundle)} does not match SHA256SUMS (got ${actual}, expected ${expected}): the file is damaged or not the one released`);
}

/** Room for the unpacked release under the prefix and for a backup of both databases under the data folder. */
function preflightSpace(inst: Installation, bundle: string): void {
  const release = gzipUnpackedSize(bundle) + MARGIN;
  const d = inst.config.data_dir;
  const backup = sizeOf([META_FILE, `${META_FILE}-wal`, EVENTS_FILE, `${EVENTS_FILE}.wal`].map((f) => path.join(d, f))) + MARGIN;
  const needs = sameFileSystem(inst.record.prefix, d)
    ? [{ dir: d, bytes: release + backup }]
    : [
        { dir: inst.record.prefix, bytes: release },
        { dir: d, bytes: backup },
      ];
  for (const { dir, bytes } of needs) {
    const free = freeBytes(dir);
    if (free < bytes)
      throw new InstallerError(`not enough free disk space for the upgrade on the file system of ${dir}: ${mib(free)} free, ${mib(bytes)} needed (the new release plus a backup of the data)`);
  }
}

/** Runs `ppctl migrate` of the given release as the service user; returns the migrations it applied. */
async function migrateWith(inst: Installation, release: string): Promise<string[]> {
  const user = lookupUser(inst.record.user);
  if (!user) throw new Error(`service user ${inst.record.user} does not exist`);
  const res = await run(path.join(release, 'ppctl'), ['migrate', '--json', '--config-dir', inst.configDir], { cwd: inst.config.data_dir, ...spawnIdentity(user), env: { PATH: process.env.PATH } });
  if (res.code !== 0) throw new Error(failureOf(res.stderr.trim() || res.stdout.trim() || `exit ${res.code}`));
  return (JSON.parse(res.stdout) as { applied: string[] }).applied;
}

/** The message of a failed ppctl: its JSON error with --json (this release on), its text line before. */
function failureOf(output: string): string {
  try {
    const message = (JSON.parse(output) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: a release older than JSON errors, or a crash.
  }
  return output.replace(/^ppctl: /, '');
}

/** Returns to the old release with the data as it was; answers a sentence for the operator. */
async function rollBackFailed(inst: Installation, from: string, to: string, backup: string | undefined, step: string, healthTimeoutMs: number | undefined, log: Log): Promise<string> {
  try {
    log(`rolling back to ${from}`);
    await stopService(inst).catch(() => undefined);
    switchCurrent(inst.record.prefix, from);
    // Before the migrate step the data was not touched; from it on, only the backup is certain.
    const touched = backup !== undefined && !['stop', 'backup'].includes(step);
    if (touched) {
      log(`restoring ${backup}`);
      await restoreBackup(inst.config, backup!, { configFile: inst.configFile });
      const user = lookupUser(inst.record.user);
      if (user) chownTree(inst.config.data_dir, user);
    }
    const health = await startService(inst, { version: from, timeoutMs: healthTimeoutMs });
    rmSync(releaseDir(inst.record.prefix, to), { recursive: true, force: true });
    if (!health.ok) return `rolled back to ${from}${touched ? ` and restored ${backup}` : ''}, but it does not answer: ${health.error}. See \`ppctl logs\`.`;
    return `rolled back: pp ${from} is running again${touched ? ` with the data restored from ${backup}` : ', data untouched'}.`;
  } catch (err) {
    return `ROLLBACK FAILED: ${(err as Error).message}\nTo recover by hand: link ${path.join(inst.record.prefix, 'current')} to releases/${from}${backup ? `, run \`ppctl restore ${backup}\`` : ''}, then \`ppctl start\`.`;
  }
}

export interface RollbackReport {
  from: string;
  to: string;
  restored: string | null;
}

type Applied = { sqlite: AppliedMigration[]; duckdb?: AppliedMigration[]; clickhouse?: AppliedMigration[] };

/** Whether the release at `releaseRoot` knows every migration the databases have applied (the event store's: DuckDB's or ClickHouse's). */
function knowsMigrations(releaseRoot: string, applied: Applied): boolean {
  try {
    for (const engine of ['sqlite', 'duckdb', 'clickhouse'] as const) {
      const done = applied[engine];
      if (done) planMigrations(readMigrations(path.join(releaseRoot, 'migrations', engine)), done);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * `ppctl rollback`: back to the release before the last upgrade. When the upgrade applied no
 * migration the old release reads, the data stays; otherwise the pre-upgrade backup is restored,
 * losing what came after it, which the operator must confirm with `yes`.
 */
export async function rollback(inst: Installation, opts: { yes: boolean; healthTimeoutMs?: number }, log: Log = () => {}): Promise<RollbackReport> {
  const last = inst.record.last_upgrade;
  if (!last) throw new InstallerError('there is no upgrade to roll back (`ppctl rollback` returns to the release before the last upgrade)');
  const current = currentVersion(inst.record.prefix);
  if (current !== last.to) throw new InstallerError(`the current release is ${current}, but the last upgrade went to ${last.to}; nothing to roll back`);
  const previous = releaseDir(inst.record.prefix, last.from);
  if (!existsSync(previous)) throw new InstallerError(`release ${last.from} is no longer in ${path.dirname(previous)}`);
  const running = await runningServerStatus(inst.config);
  const onClickHouse = inst.config.events.engine === 'clickhouse';
  const applied: Applied = running
    ? (await askRunningServer<Applied>(inst.config, 'migrations'))!
    : onClickHouse
      ? { sqlite: (await checkDatabaseFiles(inst.config.data_dir, false)).applied.sqlite, clickhouse: await appliedOnClickHouse(inst.config.clickhouse) }
      : (await checkDatabaseFiles(inst.config.data_dir)).applied;
  const restore = !knowsMigrations(previous, applied);
  if (restore && !existsSync(last.backup)) throw new InstallerError(`${last.to} changed the database schema and the backup taken before the upgrade (${last.backup}) is gone; cannot roll back`);
  if (restore && !opts.yes) {
    throw new InstallerError(
      `${last.to} changed the database schema, so rolling back to ${last.from} restores the backup taken before the upgrade (${last.at}): events and changes since then are lost. Run again with --yes to proceed.`,
    );
  }
  log('stopping the server');
  await stopService(inst);
  if (restore) {
    log(`restoring ${last.backup}`);
    await restoreBackup(inst.config, last.backup, { configFile: inst.configFile });
    const user = lookupUser(inst.record.user);
    if (user) chownTree(inst.config.data_dir, user);
  }
  switchCurrent(inst.record.prefix, last.from);
  log(`starting ${last.from}`);
  const health = await startService(inst, { version: last.from, timeoutMs: opts.healthTimeoutMs });
  if (!health.ok) throw new InstallerError(`rolled back to ${last.from}, but it does not answer: ${health.error}`);
  saveRecord(inst.configDir, { ...loadInstallation(inst.configDir).record, last_upgrade: null });
  return { from: last.to, to: last.from, restored: restore ? last.backup : null };
}
