// Turns `ppctl install` flags into InstallOptions. On a terminal (stdin a TTY, no --yes) every value
// no flag gave is asked for with inquirer, the flag's default offered; otherwise defaults apply and
// the values without one (admin email and password) must come from flags.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { DEFAULT_BIN_DIR, DEFAULT_CONFIG_DIR, DEFAULT_DATA_DIR, DEFAULT_PREFIX, InstallerError, isInstalled } from './installation.js';
import type { InstallOptions, TlsChoice } from './install.js';
import { passwordProblem } from '../server/ground/passwords.js';
import { defaultUserName } from './serviceUser.js';
import { systemdRunning } from './systemdUnit.js';

export interface InstallFlags {
  yes?: boolean;
  prefix?: string;
  dataDir?: string;
  configDir?: string;
  binDir?: string;
  host?: string;
  port?: string;
  baseUrl?: string;
  tls?: string;
  adminEmail?: string;
  adminPasswordFile?: string;
  orgName?: string;
  projectName?: string;
  timezone?: string;
  signupMode?: string;
  systemd?: boolean;
  user?: string;
  unitDir?: string;
}

export function parseTls(value: string): TlsChoice {
  if (value === 'off') return { mode: 'off' };
  if (value === 'self-signed') return { mode: 'self-signed' };
  const [cert, key, ...rest] = value.split(',');
  if (!cert || !key || rest.length) throw new InstallerError(`--tls must be self-signed, off or CERT,KEY (two PEM files), got ${JSON.stringify(value)}`);
  return { mode: 'files', cert, key };
}

/** The password file's content without its final line break (editors add one). */
export function readPasswordFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InstallerError(`cannot read --admin-password-file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return text.replace(/\r?\n$/, '');
}

function serviceFrom(flag: boolean | undefined): InstallOptions['service'] | undefined {
  if (flag === true && !systemdRunning()) throw new InstallerError('--systemd was given, but systemd is not running on this machine (use --no-systemd for a supervised process)');
  if (flag === undefined) return undefined;
  return flag ? 'systemd' : 'process';
}

function signupFrom(value: string): 'legacy' | 'closed' {
  if (value !== 'legacy' && value !== 'closed') throw new InstallerError(`--signup-mode must be legacy or closed, got ${JSON.stringify(value)}`);
  return value;
}

export async function resolveInstallOptions(flags: InstallFlags, interactive: boolean): Promise<InstallOptions> {
  const configDir = flags.configDir ?? DEFAULT_CONFIG_DIR;
  const fresh = !isInstalled(configDir);
  const base = {
    prefix: flags.prefix ?? DEFAULT_PREFIX,
    dataDir: flags.dataDir ?? DEFAULT_DATA_DIR,
    configDir,
    binDir: flags.binDir === 'none' ? null : (flags.binDir ?? DEFAULT_BIN_DIR),
    host: flags.host ?? '0.0.0.0',
    port: Number(flags.port ?? 8080),
    baseUrl: flags.baseUrl,
    tls: parseTls(flags.tls ?? 'off'),
    adminEmail: flags.adminEmail,
    adminPassword: flags.adminPasswordFile ? readPasswordFile(flags.adminPasswordFile) : undefined,
    orgName: flags.orgName ?? 'My organization',
    projectName: flags.projectName ?? 'My project',
    timezone: flags.timezone ?? 'UTC',
    signupMode: signupFrom(flags.signupMode ?? 'closed'),
    service: serviceFrom(flags.systemd) ?? (systemdRunning() ? 'systemd' : 'process'),
    user: flags.user ?? defaultUserName(),
    unitDir: flags.unitDir,
  } satisfies InstallOptions;
  if (!interactive || !fresh) return base;
  return ask(flags, base);
}

/** Asks for each value no flag gave; answers are checked by the same rules as the flags. */
async function ask(flags: InstallFlags, base: InstallOptions): Promise<InstallOptions> {
  const { input, password, select, confirm } = await import('@inquirer/prompts');
  const o = { ...base };
  if (!flags.prefix) o.prefix = await input({ message: 'Install releases under', default: o.prefix });
  if (!flags.dataDir) o.dataDir = await input({ message: 'Data folder', default: o.dataDir });
  if (!flags.port) o.port = Number(await input({ message: 'Port', default: String(o.port), validate: (v) => (/^\d+$/.test(v) && Number(v) > 0 && Number(v) < 65536) || 'a port number, 1-65535' }));
  if (!flags.tls) {
    const mode = await select({
      message: 'TLS',
      choices: [
        { name: 'off (plain HTTP, or TLS ends at a proxy in front of pp)', value: 'off' },
        { name: 'self-signed certificate made now', value: 'self-signed' },
        { name: 'my certificate and key files', value: 'files' },
      ],
    });
    o.tls = mode === 'files' ? { mode: 'files', cert: await input({ message: 'Certificate file (PEM)' }), key: await input({ message: 'Private key file (PEM)' }) } : parseTls(mode);
  }
  const scheme = o.tls.mode === 'off' ? 'http' : 'https';
  if (!flags.baseUrl) o.baseUrl = await input({ message: 'Public URL of this server', default: `${scheme}://${os.hostname()}:${o.port}` });
  if (!flags.adminEmail) o.adminEmail = await input({ message: 'Owner email', validate: (v) => /^[^\s@]+@[^\s@]+$/.test(v) || 'an email address' });
  if (!flags.adminPasswordFile) {
    const first = await password({ message: 'Owner password', mask: '*', validate: (v) => (passwordProblem(v) ? `the password ${passwordProblem(v)}` : true) });
    await password({ message: 'Owner password again', mask: '*', validate: (v) => v === first || 'the passwords differ' });
    o.adminPassword = first;
  }
  if (!flags.signupMode)
    o.signupMode = await select({
      message: 'Who may register',
      choices: [
        { name: 'invited people only', value: 'closed' as const },
        { name: 'anyone who reaches the server', value: 'legacy' as const },
      ],
    });
  if (flags.systemd === undefined && systemdRunning()) o.service = (await confirm({ message: 'Run pp as the systemd service pp.service?', default: true })) ? 'systemd' : 'process';
  const summary = [`prefix ${o.prefix}`, `data ${o.dataDir}`, `config ${o.configDir}`, `URL ${o.baseUrl}`, `port ${o.port}`, `TLS ${o.tls.mode}`, `owner ${o.adminEmail}`, `service ${o.service}`];
  if (!(await confirm({ message: `Install with: ${summary.join(', ')}?`, default: true }))) throw new InstallerError('installation cancelled; nothing was changed');
  return o;
}
