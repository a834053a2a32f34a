// `ppctl install`, run from an unpacked bundle: lays out <prefix>/releases/<version> and `current`,
// writes pp.json (mode 0600, generated secret) and the TLS files, migrates, creates the owner, the
// organization and the first project, starts the service and waits until it is ready. Each step
// checks what is already there, so running it again changes nothing and says so.

import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, lstatSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../server/ground/config.js';
import { openServices } from '../server/openServices.js';
import { createLogger } from '../server/ground/logger.js';
import { packageRoot } from '../server/ground/packageRoot.js';
import { countUsers, createUser } from '../server/accounts/users.js';
import { addMembership, createOrganization } from '../server/accounts/organizations.js';
import { createProject, isTimeZone } from '../server/accounts/projects.js';
import { passwordProblem } from '../server/ground/passwords.js';
import { readBundleInfo } from './bundleInfo.js';
import {
  configFileOf,
  currentLink,
  currentVersion,
  ensureDir,
  InstallerError,
  isInstalled,
  loadInstallation,
  releaseDir,
  releasesDir,
  saveRecord,
  SERVICE_NAME,
  switchCurrent,
  type InstallRecord,
  type Installation,
  type ServiceKind,
} from './installation.js';
import { chownTree, ensureUser, lookupUser, type ServiceUser } from './serviceUser.js';
import { describeBlocker, firstBlocked, pathUser } from './pathAccess.js';
import { selfSignedCertificate, checkCertificatePair } from './tlsCertificate.js';
import { systemdUnit, unitFile } from './systemdUnit.js';
import { runningServerStatus } from './runningServer.js';
import { startService } from './serviceManager.js';
import { run } from './run.js';

export type TlsChoice = { mode: 'off' } | { mode: 'self-signed' } | { mode: 'files'; cert: string; key: string };

export interface InstallOptions {
  prefix: string;
  dataDir: string;
  configDir: string;
  /** Where to put the `ppctl` link, or null for none. */
  binDir: string | null;
  host: string;
  port: number;
  baseUrl?: string;
  tls: TlsChoice;
  adminEmail?: string;
  adminPassword?: string;
  orgName: string;
  projectName: string;
  timezone: string;
  signupMode: 'legacy' | 'closed';
  service: ServiceKind;
  user: string;
  /** systemd unit folder (tests and unusual layouts; default /etc/systemd/system). */
  unitDir?: string;
}

export interface InstallReport {
  version: string;
  changes: string[];
  notes: string[];
  url: string;
  owner?: { email: string; organization_id: number; project_id: number };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Checks the flags that have rules, before anything is touched. */
export function checkInstallOptions(opts: InstallOptions, needOwner: boolean): void {
  if (needOwner) {
    if (!opts.adminEmail) throw new InstallerError('--admin-email is required for a new installation');
    if (!EMAIL.test(opts.adminEmail)) throw new InstallerError(`--admin-email ${JSON.stringify(opts.adminEmail)} is not an email address`);
    if (opts.adminPassword === undefined) throw new InstallerError('--admin-password-file is required for a new installation');
    const problem = passwordProblem(opts.adminPassword);
    if (problem) throw new InstallerError(`the admin password ${problem}`);
  }
  if (!isTimeZone(opts.timezone)) throw new InstallerError(`--timezone ${JSON.stringify(opts.timezone)} is not an IANA time zone`);
  if (!Number.isInteger(opts.port) || opts.port < 1 || opts.port > 65535) throw new InstallerError(`--port must be 1-65535, got ${opts.port}`);
  if (opts.baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(opts.baseUrl)) throw new InstallerError(`--base-url must be an http(s) URL, got ${JSON.stringify(opts.baseUrl)}`);
  if (opts.tls.mode === 'files') checkCertificatePair(opts.tls.cert, opts.tls.key);
  for (const [flag, dir] of [
    ['--prefix', opts.prefix],
    ['--data-dir', opts.dataDir],
    ['--config-dir', opts.configDir],
  ] as const) {
    if (!path.isAbsolute(dir)) throw new InstallerError(`${flag} must be an absolute path, got ${dir}`);
  }
}

export async function install(opts: InstallOptions, log: (line: string) => void = () => {}): Promise<InstallReport> {
  const source = packageRoot();
  const bundle = readBundleInfo(source);
  if (!bundle) throw new InstallerError('ppctl install runs from an unpacked release bundle (build one with `npm run bundle`); this is a source checkout');
  const existing = isInstalled(opts.configDir) ? loadInstallation(opts.configDir) : undefined;
  const prefix = existing?.record.prefix ?? opts.prefix;
  const installed = currentVersion(prefix);
  if (installed !== undefined && installed !== bundle.version) {
    throw new InstallerError(`pp ${installed} is installed in ${prefix}; to move to ${bundle.version} run \`ppctl upgrade pp-${bundle.version}-linux-x64.tar.gz\``);
  }
  checkInstallOptions(opts, !existing);
  const report: InstallReport = { version: bundle.version, changes: [], notes: [], url: '' };
  const changed = (what: string) => {
    report.changes.push(what);
    log(what);
  };
  if (existing) report.notes.push(`an installation exists in ${existing.configDir}; its settings are kept`);

  const userName = existing?.record.user ?? opts.user;
  const dataDir = existing?.config.data_dir ?? opts.dataDir;
  // Before anything is written: the service user must be able to reach what the service reads and writes.
  checkServiceUserPaths(userName, [
    [dataDir, 'data folder', 'or choose another with --data-dir'],
    [prefix, 'release folder', 'or choose another with --prefix'],
    [opts.configDir, 'config folder', 'or choose another with --config-dir'],
  ]);
  const { user, created } = ensureUser(userName, dataDir);
  if (created) changed(`created system user ${user.name}`);

  ensureDir(releasesDir(prefix), 0o755);
  ensureDir(opts.configDir, 0o755);
  const target = releaseDir(prefix, bundle.version);
  if (!existsSync(target)) {
    copyRelease(source, target);
    changed(`copied release ${bundle.version} to ${target}`);
  }
  if (installed === undefined) {
    switchCurrent(prefix, bundle.version);
    changed(`linked ${currentLink(prefix)} -> releases/${bundle.version}`);
  }
  const binLink = existing ? existing.record.bin_link : opts.binDir ? path.join(opts.binDir, 'ppctl') : null;
  if (binLink && linkBin(binLink, path.join(currentLink(prefix), 'ppctl'), report)) changed(`linked ${binLink} -> ${path.join(currentLink(prefix), 'ppctl')}`);

  const configFile = configFileOf(opts.configDir);
  if (!existsSync(configFile)) {
    writeConfig(configFile, opts, tlsFiles(opts), changed);
  }
  const config = loadConfig({ configFile, env: {} });
  ensureDir(config.data_dir, 0o700);

  if (await runningServerStatus(config)) {
    report.notes.push('the server is running; its databases are up to date');
  } else {
    const owner = await prepareData(config, opts, changed, (line) => report.notes.push(line));
    if (owner) report.owner = owner;
  }
  secureFiles(config, configFile, user);

  if (!existing) {
    const record: InstallRecord = { prefix, user: user.name, service: opts.service, bin_link: binLink, installed_at: new Date().toISOString(), last_upgrade: null };
    saveRecord(opts.configDir, record);
    changed(`recorded the installation in ${path.join(opts.configDir, 'install.json')}`);
  }
  const inst = loadInstallation(opts.configDir);
  if (inst.record.service === 'systemd') await installUnit(inst, opts.unitDir, changed);
  const health = await startService(inst, { version: bundle.version });
  if (!health.ok) throw new InstallerError(`the server did not become ready: ${health.error}\n(see \`ppctl logs --config-dir ${inst.configDir}\`)`);
  if (health.started) changed(`started the server (${inst.record.service === 'systemd' ? SERVICE_NAME : 'supervised process'})`);
  report.url = config.base_url;
  return report;
}

/** Copies the release to a temporary name first, so a half-copied release never has its final name. */
function checkServiceUserPaths(name: string, targets: Array<[string, string, string]>): void {
  const user = pathUser(name, lookupUser(name));
  for (const [target, what, alternative] of targets) {
    const blocked = firstBlocked(target, user);
    if (blocked) throw new InstallerError(describeBlocker(user, target, what, blocked, alternative));
  }
}

function copyRelease(source: string, target: string): void {
  const tmp = `${target}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  cpSync(source, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  renameSync(tmp, target);
}

/** Creates or corrects the PATH link; true when it changed. A foreign file there is left alone. */
function linkBin(link: string, to: string, report: InstallReport): boolean {
  let stat;
  try {
    stat = lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isSymbolicLink()) {
    report.notes.push(`${link} exists and is not a link; run ${to} directly`);
    return false;
  }
  if (stat && readlinkSync(link) === to) return false;
  ensureDir(path.dirname(link), 0o755);
  rmSync(link, { force: true });
  symlinkSync(to, link);
  return true;
}

/** Both kinds of certificate live in <config-dir>/tls, readable by the service user; an operator's files are copied there. */
function tlsFiles(opts: InstallOptions): { cert: string; key: string } | undefined {
  if (opts.tls.mode === 'off') return undefined;
  return { cert: path.join(opts.configDir, 'tls', 'cert.pem'), key: path.join(opts.configDir, 'tls', 'key.pem') };
}

function writeConfig(configFile: string, opts: InstallOptions, tls: { cert: string; key: string } | undefined, changed: (what: string) => void): void {
  if (tls && opts.tls.mode === 'files') {
    ensureDir(path.dirname(tls.cert), 0o755);
    copyFileSync(opts.tls.cert, tls.cert);
    copyFileSync(opts.tls.key, tls.key);
    chmodSync(tls.key, 0o600);
    changed(`copied the certificate and key to ${path.dirname(tls.cert)}`);
  }
  if (tls && opts.tls.mode === 'self-signed' && !existsSync(tls.cert)) {
    const host = new URL(opts.baseUrl ?? `https://${os.hostname()}`).hostname.replace(/^\[|\]$/g, '');
    const pair = selfSignedCertificate({ names: [host, os.hostname(), 'localhost', '127.0.0.1', '::1'], now: new Date() });
    ensureDir(path.dirname(tls.cert), 0o755);
    writeFileSync(tls.key, pair.key, { mode: 0o600 });
    writeFileSync(tls.cert, pair.cert, { mode: 0o644 });
    changed(`made a self-signed certificate for ${host} (${tls.cert})`);
  }
  const scheme = tls ? 'https' : 'http';
  const settings: Record<string, unknown> = {
    host: opts.host,
    port: opts.port,
    base_url: opts.baseUrl ?? `${scheme}://${os.hostname()}:${opts.port}`,
    data_dir: opts.dataDir,
    secret: randomBytes(32).toString('hex'),
    signup_mode: opts.signupMode,
    log_level: 'info',
  };
  if (tls) Object.assign(settings, { tls_cert: tls.cert, tls_key: tls.key });
  writeFileSync(configFile, JSON.stringify(settings, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  changed(`wrote ${configFile} (mode 0600, with a generated secret)`);
}

/** Migrates the databases and creates the owner, organization and first project when there is no user yet. */
async function prepareData(config: Config, opts: InstallOptions, changed: (what: string) => void, log: (line: string) => void): Promise<InstallReport['owner']> {
  const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
  try {
    const applied = [...opened.applied.sqlite.map((m) => `sqlite/${m.file}`), ...opened.applied.events.map((m) => `${opened.services.config.events.engine}/${m.file}`)];
    if (applied.length) changed(`applied ${applied.length} database migrations`);
    const db = opened.services.meta;
    if (countUsers(db) > 0) {
      if (opts.adminEmail !== undefined) log(`the data folder already has accounts; they are kept and ${opts.adminEmail} is not created`);
      return undefined;
    }
    if (opts.adminEmail === undefined || opts.adminPassword === undefined) return undefined;
    const now = opened.services.clock.now();
    const user = await createUser(db, { email: opts.adminEmail, password: opts.adminPassword, name: null }, now);
    const { org, project } = db.transaction(() => {
      const org = createOrganization(db, opts.orgName, now);
      addMembership(db, org.id, user.id, 'owner', now);
      return { org, project: createProject(db, { orgId: org.id, name: opts.projectName, timezone: opts.timezone }, now) };
    })();
    changed(`created owner ${user.email}, organization "${org.name}" and project "${project.name}" (id ${project.id})`);
    return { email: user.email, organization_id: org.id, project_id: project.id };
  } finally {
    await opened.close();
  }
}

/** The service user owns the data and reads the config; nobody else reads either. */
function secureFiles(config: Config, configFile: string, user: ServiceUser): void {
  chmodSync(config.data_dir, 0o700);
  chownTree(config.data_dir, user);
  chmodSync(configFile, 0o600);
  chownTree(configFile, user);
  if (config.tls_key && existsSync(config.tls_key)) {
    chmodSync(config.tls_key, 0o600);
    chownTree(config.tls_key, user);
  }
}

async function installUnit(inst: Installation, unitDir: string | undefined, changed: (what: string) => void): Promise<void> {
  const file = unitFile(unitDir);
  const text = systemdUnit({ prefix: inst.record.prefix, configFile: inst.configFile, dataDir: inst.config.data_dir, user: inst.record.user, port: inst.config.port });
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    writeFileSync(file, text, { mode: 0o644 });
    await run('systemctl', ['daemon-reload']);
    changed(`wrote ${file}`);
  }
  if ((await run('systemctl', ['is-enabled', '--quiet', SERVICE_NAME])).code !== 0) {
    const res = await run('systemctl', ['enable', SERVICE_NAME]);
    if (res.code !== 0) throw new InstallerError(`systemctl enable ${SERVICE_NAME} failed: ${res.stderr.trim()}`);
    changed(`enabled ${SERVICE_NAME} at boot`);
  }
}
