// `ppctl doctor`: checks an installation from the outside in (config, permissions, disk, service and
// port, databases, migrations, license, clock, certificate, backups); each check is ok, warn or fail
// with a hint to fix it. It repairs nothing itself.

import { accessSync, constants, existsSync, readdirSync, statfsSync, statSync } from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { runAdminCommand } from '../server/admin/adminClient.js';
import type { LicenseReport } from '../server/access/licenseManager.js';
import { planMigrations, readMigrations, migrationsDir } from '../server/store/migrate.js';
import { JOURNAL_DIR, journalFiles } from '../server/ingest/journal.js';
import { listBackups } from './backup.js';
import { readBundleInfo } from './bundleInfo.js';
import { checkDatabaseFiles, type DatabaseReport } from '../server/admin/databaseChecks.js';
import { checkClickHouse } from '../server/admin/clickHouseChecks.js';
import { freeBytes } from './diskSpace.js';
import { checkHealth, localUrl } from './health.js';
import { currentLink, currentVersion, type Installation } from './installation.js';
import { run } from './run.js';
import { askRunningServer, reachable, runningServerStatus } from './runningServer.js';
import { serviceState } from './serviceManager.js';
import { lookupUser } from './serviceUser.js';
import { readCertificate } from './tlsCertificate.js';
import { describeBlocker, firstBlocked, pathUser } from './pathAccess.js';
import type { Config } from '../server/ground/config.js';

export type Level = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  level: Level;
  message: string;
  fix?: string;
}

const GiB = 1024 ** 3;
const DAY_MS = 86_400_000;

export async function runDoctor(inst: Installation, now = new Date()): Promise<Check[]> {
  const { checks, add } = checkList();
  const { config, record } = inst;
  const user = lookupUser(record.user);

  // Config and the release it runs.
  const version = currentVersion(record.prefix);
  const release = version ? readBundleInfo(path.join(record.prefix, 'releases', version)) : undefined;
  if (!release) add('release', 'fail', `${currentLink(record.prefix)} does not point at a pp release`, `link it to one of ${path.join(record.prefix, 'releases')}/<version>, or reinstall`);
  else add('release', 'ok', `pp ${release.version} (Node ${release.node}) in ${record.prefix}`);
  const cfg = statSync(inst.configFile);
  if ((cfg.mode & 0o077) !== 0) add('config', 'fail', `${inst.configFile} is readable by others (mode ${(cfg.mode & 0o777).toString(8)}); it holds the server secret`, `chmod 600 ${inst.configFile}`);
  else if (user && cfg.uid !== user.uid) add('config', 'fail', `${inst.configFile} is not owned by ${user.name}, so the server cannot read it`, `chown ${user.name}: ${inst.configFile}`);
  else if (!config.secret) add('config', 'warn', `${inst.configFile} sets no secret; ${path.join(config.data_dir, 'secret.key')} is used`, 'keep that file with the data; backups include it');
  else add('config', 'ok', `${inst.configFile} (mode 600, ${config.base_url})`);

  // Ownership of everything the server writes.
  if (!user) add('permissions', 'fail', `the service user ${record.user} does not exist`, `useradd --system --user-group ${record.user}`);
  else {
    // The whole path: a parent of mode 0700 stops the service user as surely as the folder itself.
    const serviceUser = pathUser(user.name, user);
    const blocked = firstBlocked(config.data_dir, serviceUser);
    const wrong = filesNotOwnedBy(config.data_dir, user.uid);
    const dataMode = statSync(config.data_dir).mode & 0o777;
    if (blocked) add('permissions', 'fail', describeBlocker(serviceUser, config.data_dir, 'data folder', blocked, 'or move the data folder'));
    else if (wrong.length)
      add('permissions', 'fail', `not owned by ${user.name}: ${wrong.slice(0, 3).join(', ')}${wrong.length > 3 ? ` and ${wrong.length - 3} more` : ''}`, `chown -R ${user.name}: ${config.data_dir}`);
    else if (dataMode & 0o077) add('permissions', 'warn', `${config.data_dir} is open to other users (mode ${dataMode.toString(8)})`, `chmod 700 ${config.data_dir}`);
    else add('permissions', 'ok', `${config.data_dir} owned by ${user.name}, mode 700`);
  }

  await serverChecks(config, { label: (await serviceState(inst)).manager, version, start: 'ppctl start', restart: 'ppctl logs; ppctl restart' }, add, now);
  return checks;
}

/**
 * A checkout's server (`npm start`, `ppctl serve`): the checks that do not need an installation,
 * with the data folder's whole path and its permissions checked for the user running the command.
 */
export async function runCheckoutDoctor(config: Config, now = new Date()): Promise<Check[]> {
  const { checks, add } = checkList();
  const me = os.userInfo();
  const user = pathUser(me.username, { uid: me.uid, gid: me.gid });
  const dataDir = path.resolve(config.data_dir);
  const blocked = firstBlocked(dataDir, user);
  if (blocked) add('permissions', 'fail', describeBlocker(user, dataDir, 'data folder', blocked, 'or choose another with --data-dir'));
  else if (!existsSync(dataDir)) add('permissions', 'warn', `${dataDir} does not exist yet`, 'it is created when the server starts: npm start');
  else if (!writable(dataDir)) add('permissions', 'fail', `${dataDir} is not writable by ${me.username}`, `chown -R ${me.username} ${dataDir}`);
  else add('permissions', 'ok', `${dataDir} reachable and writable by ${me.username}`);
  if (!existsSync(dataDir)) return checks;
  const serve = `npm start (or ppctl serve --data-dir ${dataDir})`;
  await serverChecks(config, { label: 'npm start / ppctl serve, no service', start: serve, restart: `stop it and start it again: ${serve}` }, add, now);
  return checks;
}

interface ServiceContext {
  /** How the server is run, for messages. */
  label: string;
  /** The installed release, when there is one. */
  version?: string;
  start: string;
  restart: string;
}

type Add = (name: string, level: Level, message: string, fix?: string) => void;

function checkList(): { checks: Check[]; add: Add } {
  const checks: Check[] = [];
  return { checks, add: (name, level, message, fix) => void checks.push({ name, level, message, ...(fix ? { fix } : {}) }) };
}

/** Disk, service and port, databases, migrations, ingest, license, clock, certificate and backups. */
async function serverChecks(config: Config, service: ServiceContext, add: Add, now: Date): Promise<void> {
  const free = freeBytes(config.data_dir);
  const fsStat = statfsSync(config.data_dir);
  const total = fsStat.blocks * fsStat.bsize;
  const freeText = `${(free / GiB).toFixed(1)} GiB free of ${(total / GiB).toFixed(1)} GiB on the data file system`;
  if (free < 1 * GiB) add('disk', 'fail', freeText, 'free space or move the data folder; ingestion stops when the disk is full');
  else if (free < 5 * GiB || free / total < 0.1) add('disk', 'warn', freeText, 'plan more space; each backup needs about the size of the databases');
  else add('disk', 'ok', freeText);

  // The service, and the port when it is not running.
  const running = await runningServerStatus(config);
  if (running) {
    const reach = reachable(config, running);
    const health = await checkHealth(reach);
    if (health.ok) add('service', 'ok', `pp ${health.version} ready at ${localUrl(reach)} (${service.label}, server pid ${running.pid})`);
    else add('service', 'fail', `the server runs (pid ${running.pid}) but ${localUrl(reach)} does not answer ready: ${health.error}`, service.restart);
    if (health.ok && service.version && health.version !== service.version) add('service', 'warn', `the server runs ${health.version}, the current release is ${service.version}`, 'ppctl restart');
  } else {
    const busy = await portInUse(config.host, config.port);
    if (busy) add('port', 'fail', `port ${config.port} is in use by another program, so pp cannot start`, `find it with: ss -ltnp 'sport = :${config.port}'`);
    else add('port', 'ok', `port ${config.port} is free`);
    add('service', 'warn', `the server is not running (${service.label})`, service.start);
  }

  // Databases and migrations: SQLite, and the events' engine (the DuckDB file, or the ClickHouse nodes).
  const onClickHouse = config.events.engine === 'clickhouse';
  const db: DatabaseReport | undefined = running
    ? await askRunningServer<DatabaseReport>(config, 'doctor.databases').catch(() => undefined)
    : await checkDatabaseFiles(config.data_dir, !onClickHouse).catch((err: Error) => ({
        sqlite: { ok: false, detail: err.message },
        ...(onClickHouse ? {} : { duckdb: { ok: false, detail: err.message } }),
        applied: { sqlite: [], duckdb: [] },
      }));
  if (!db) add('databases', 'fail', 'the running server did not answer the integrity check', 'ppctl logs');
  else {
    for (const engine of ['sqlite', 'duckdb'] as const) {
      const r = db[engine];
      if (r) add(`database ${engine}`, r.ok ? 'ok' : 'fail', r.detail, r.ok ? undefined : 'stop pp and restore the latest backup: ppctl restore <file> (ppctl backup lists where they are)');
    }
  }
  const clickhouse = onClickHouse ? await checkClickHouse(config.clickhouse) : undefined;
  for (const c of clickhouse?.checks ?? []) add(c.name, c.level, c.message, c.fix);
  let pending = 0;
  if (db) {
    try {
      pending += planMigrations(readMigrations(migrationsDir('sqlite')), db.applied.sqlite).length;
      if (clickhouse) {
        if (clickhouse.applied) pending += planMigrations(readMigrations(migrationsDir('clickhouse')), clickhouse.applied).length;
      } else pending += planMigrations(readMigrations(migrationsDir('duckdb')), db.applied.duckdb).length;
      const unread = clickhouse && !clickhouse.applied ? "; ClickHouse's are not checked (no node answers)" : '';
      if (pending) add('migrations', 'warn', `${pending} migrations of this release are not applied yet${unread}`, 'they apply when the server starts: ppctl start');
      else if (unread) add('migrations', 'warn', `the metadata store's migrations are applied${unread}`);
      else add('migrations', 'ok', 'all migrations of this release are applied');
    } catch (err) {
      add('migrations', 'fail', (err as Error).message, 'restore the original migration files (reinstall the release) or the latest backup');
    }
  }

  // Events answered but not in the event store: set aside by the loader, or (server stopped)
  // journaled and waiting for the next start.
  const journalDir = path.join(config.data_dir, JOURNAL_DIR);
  const journal = journalFiles(journalDir);
  if (journal.setAside > 0) {
    add(
      'ingest',
      'warn',
      `${journal.setAside} answered ingest batch${journal.setAside === 1 ? '' : 'es'} could not be loaded and ${journal.setAside === 1 ? 'is' : 'are'} set aside in ${journalDir}`,
      'the log says why ("a journaled batch could not be loaded"); once that is fixed (a full disk: free space), ppctl ingest retry loads them; see docs/ingestion.md, Durability',
    );
  } else if (!running && journal.segments > 0) {
    add(
      'ingest',
      'warn',
      `the ingest journal holds answered events not loaded yet (${journal.segments} segment${journal.segments === 1 ? '' : 's'})`,
      'they are loaded when the server starts: ppctl start',
    );
  } else add('ingest', 'ok', 'no answered event is waiting outside the event store');

  // License and clock: the running server's view, or (stopped, nothing pending) the stored license verified here.
  let license: LicenseReport | undefined;
  if (running || (db && pending === 0 && db.sqlite.ok && (db.duckdb?.ok ?? (clickhouse?.applied !== undefined && clickhouse.checks.every((c) => c.level !== 'fail'))))) {
    license = (await runAdminCommand(config, 'license.show').catch(() => ({ result: undefined }))).result as LicenseReport | undefined;
  }
  if (!license) add('license', 'warn', 'not checked (the databases are not ready)');
  else if (license.refused) add('license', 'warn', `the stored license was refused: ${license.refused}`, 'ppctl license apply <file> with a current license');
  else if (license.status === 'none') add('license', 'ok', 'no license: ingestion and reports work; actor drill-down and saved segments are off', 'ppctl license apply <file> to enable them');
  else if (license.status === 'valid') add('license', 'ok', `valid for ${license.licensee} until ${license.expires_at}`);
  else add('license', 'warn', license.warnings[0] ?? `license ${license.status}`, 'ask for a renewed license and run ppctl license apply <file>');

  if (license?.clock_warning) add('clock', 'warn', license.clock_warning, 'set the system clock right and keep it synchronized (chrony or systemd-timesyncd)');
  else {
    const sync = await run('timedatectl', ['show', '--property', 'NTPSynchronized', '--value']).catch(() => undefined);
    if (sync?.code === 0 && sync.stdout.trim() === 'yes') add('clock', 'ok', `synchronized (${now.toISOString()})`);
    else if (sync?.code === 0) add('clock', 'warn', `the clock is not synchronized (${now.toISOString()})`, 'enable time synchronization: timedatectl set-ntp true, or chrony');
    else add('clock', 'warn', `cannot tell whether the clock is synchronized (${now.toISOString()})`, 'keep it synchronized with chrony or systemd-timesyncd; reports and license expiry depend on it');
  }

  if (config.tls_cert) {
    try {
      const cert = readCertificate(config.tls_cert);
      const days = Math.floor((cert.notAfter.getTime() - now.getTime()) / DAY_MS);
      if (days < 0) add('tls', 'fail', `the certificate ${config.tls_cert} expired on ${cert.notAfter.toISOString()}`, `replace ${config.tls_cert} and ${config.tls_key}, then ppctl restart`);
      else if (days < 30) add('tls', 'warn', `the certificate expires in ${days} days (${cert.notAfter.toISOString()})`, `replace ${config.tls_cert} and ${config.tls_key}, then ppctl restart`);
      else add('tls', 'ok', `certificate for ${cert.names.join(', ')} valid until ${cert.notAfter.toISOString().slice(0, 10)}`);
    } catch (err) {
      add('tls', 'fail', `cannot read ${config.tls_cert}: ${(err as Error).message}`, 'put the PEM certificate and key named in pp.json in place');
    }
  }

  const latest = listBackups(config)[0];
  if (!latest) add('backup', 'warn', `no backup in ${path.join(config.data_dir, 'backups')}`, 'ppctl backup (and copy it off this machine)');
  else if (now.getTime() - latest.mtime.getTime() > 7 * DAY_MS)
    add('backup', 'warn', `the latest backup is from ${latest.mtime.toISOString()}`, 'ppctl backup regularly (cron), and copy it off this machine');
  else add('backup', 'ok', `latest ${path.basename(latest.file)} (${latest.mtime.toISOString()})`);
}

/** Paths under the data folder (two levels: files, logs/, backups/) that another user owns. */
function filesNotOwnedBy(dir: string, uid: number): string[] {
  const wrong: string[] = [];
  const visit = (p: string, depth: number) => {
    const st = statSync(p);
    if (st.uid !== uid) wrong.push(p);
    if (st.isDirectory() && depth < 2) for (const name of readdirSync(p)) visit(path.join(p, name), depth + 1);
  };
  if (existsSync(dir)) visit(dir, 0);
  return wrong;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

export function formatDoctor(checks: Check[]): string {
  // The names' column is as wide as the longest (the ClickHouse checks' names are longer than the others').
  const width = Math.max(16, ...checks.map((c) => c.name.length));
  const lines = checks.map((c) => `${c.level.padEnd(4)}  ${c.name.padEnd(width)} ${c.message}${c.fix && c.level !== 'ok' ? `\n${' '.repeat(width + 7)}fix: ${c.fix}` : ''}`);
  const fails = checks.filter((c) => c.level === 'fail').length;
  const warns = checks.filter((c) => c.level === 'warn').length;
  lines.push('', fails ? `${fails} failed, ${warns} warnings` : warns ? `no failures, ${warns} warnings` : 'all checks passed');
  return lines.join('\n') + '\n';
}
