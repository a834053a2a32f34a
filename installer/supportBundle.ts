// `ppctl support-bundle`: one tar.gz an operator can send to support: versions, the config with
// secrets redacted, the install record, status, doctor output, migrations, license state (never the
// license token) and recent logs. Nothing in it can sign in to or decrypt anything.

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTarGz } from './archive.js';
import { formatDoctor, runDoctor } from './doctor.js';
import { currentVersion, type Installation } from './installation.js';
import { checkHealth, listenOf } from './health.js';
import { askRunningServer, runningServerStatus } from './runningServer.js';
import { recentLogs, serviceState } from './serviceManager.js';

const LOG_LINES = 5000;
const SECRET_KEY = /secret|password|token|credential/i;

/** A copy of a settings object with every secret replaced and credentials cut out of URLs. */
export function redact(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  if (typeof value !== 'string') return value;
  if (SECRET_KEY.test(key)) return '[redacted]';
  try {
    const url = new URL(value);
    if (url.username || url.password) {
      url.username = url.username ? '[redacted]' : '';
      url.password = url.password ? '[redacted]' : '';
      return url.toString();
    }
  } catch {
    // Not a URL: kept as is.
  }
  return value;
}

function osRelease(): string | null {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

export async function createSupportBundle(inst: Installation, out: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-support-'));
  const name = path.basename(out).replace(/\.tar\.gz$/, '');
  const root = path.join(dir, name);
  const write = (file: string, content: string) => writeFileSync(path.join(root, file), content);
  try {
    mkdirSync(root);
    const running = await runningServerStatus(inst.config);
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    write(
      'versions.json',
      JSON.stringify(
        {
          current_release: currentVersion(inst.record.prefix) ?? null,
          running_version: running?.version ?? null,
          node: process.version,
          os: osRelease(),
          kernel: `${os.type()} ${os.release()} ${os.arch()}`,
          glibc: report?.header?.glibcVersionRuntime ?? null,
          cpus: os.cpus().length,
          memory_bytes: os.totalmem(),
          collected_at: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
    write('config.json', JSON.stringify(redact(JSON.parse(readFileSync(inst.configFile, 'utf8'))), null, 2) + '\n');
    write('install.json', JSON.stringify(inst.record, null, 2) + '\n');
    const stats = running ? await askRunningServer(inst.config, 'data.stats').catch((err: Error) => ({ error: err.message })) : null;
    write('status.json', JSON.stringify({ service: await serviceState(inst), server: running ?? null, health: await checkHealth(listenOf(inst.config)), data: stats }, null, 2) + '\n');
    const checks = await runDoctor(inst);
    write('doctor.txt', formatDoctor(checks));
    if (running) {
      write('migrations.json', JSON.stringify(await askRunningServer(inst.config, 'migrations').catch((err: Error) => ({ error: err.message })), null, 2) + '\n');
      write('license.json', JSON.stringify(await askRunningServer(inst.config, 'license.show').catch((err: Error) => ({ error: err.message })), null, 2) + '\n');
    }
    write('pp.log', (await recentLogs(inst, LOG_LINES)).join('\n') + '\n');
    const file = path.resolve(out);
    await createTarGz(dir, name, file);
    chmodSync(file, 0o600);
    return file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function defaultSupportBundleName(now = new Date()): string {
  return `pp-support-${os.hostname()}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}
