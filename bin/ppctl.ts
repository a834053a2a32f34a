#!/usr/bin/env node
// ppctl: the one command-line entry point. It parses arguments and calls into server/ and installer/.

import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { ConfigError, loadConfig, settingsHelp, type Config } from '../server/config.js';
import { packageVersion } from '../server/packageRoot.js';
import { startServer } from '../server/start.js';
import { runAdminCommand } from '../server/admin/adminClient.js';
import { AdminCommandError } from '../server/admin/adminCommands.js';
import { ensureDemoAccount } from '../server/accounts/demoAccount.js';
import { formatLicense } from '../server/license/formatLicense.js';
import type { LicenseReport } from '../server/license/licenseManager.js';
import type { OutboxEntry } from '../server/mail/outbox.js';
import { readFile } from 'node:fs/promises';

interface InstallationOptions {
  dataDir?: string;
  config?: string;
}

/** Adds the options every command that works on an installation takes. */
function installationOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', 'data directory (PP_DATA_DIR)')
    .option('--config <file>', 'JSON config file (PP_CONFIG)');
}

function resolveConfig(opts: InstallationOptions, flags: Record<string, unknown> = {}): Config {
  return loadConfig({ configFile: opts.config, flags: { data_dir: opts.dataDir, ...flags } });
}

function fail(message: string): never {
  process.stderr.write(`ppctl: ${message}\n`);
  process.exit(1);
}

async function admin(opts: InstallationOptions, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return (await runAdminCommand(resolveConfig(opts), name, args)).result;
}

const program = new Command('ppctl')
  .description('pp: self-hosted product analytics')
  .version(packageVersion())
  .showHelpAfterError();

installationOptions(
  program
    .command('serve')
    .description('run the server in the foreground')
    .option('--port <n>', 'port (PP_PORT)')
    .option('--host <addr>', 'listen address (PP_HOST)')
    .option('--base-url <url>', 'public base URL (PP_BASE_URL)')
    .addOption(new Option('--embedded', 'on a fresh data directory, create an owner, an organization and a demo project and print their credentials')),
)
  .addHelpText('after', '\n' + settingsHelp())
  .action(async (opts: InstallationOptions & { port?: string; host?: string; baseUrl?: string; embedded?: boolean }) => {
    const config = resolveConfig(opts, { port: opts.port, host: opts.host, base_url: opts.baseUrl });
    const running = await startServer(config);
    if (opts.embedded) {
      const demo = await ensureDemoAccount(running.services.meta, running.services.clock.now());
      const lines = [``, `pp is running at ${config.base_url}`, `  owner email: ${demo.email}`];
      lines.push(demo.password ? `  one-time password: ${demo.password}  (shown only now)` : `  (existing owner; password not shown again)`);
      lines.push(`  demo project id: ${demo.project.id}`, ``);
      process.stdout.write(lines.join('\n') + '\n');
    }
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) process.exit(1);
      stopping = true;
      running.services.log.info({ signal }, 'stopping');
      running.close().then(
        () => process.exit(0),
        (err: unknown) => {
          running.services.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });

installationOptions(program.command('migrations').description('list applied database migrations'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const result = (await admin(opts, 'migrations')) as Record<string, Array<{ version: number; name: string; applied_at: string }>>;
    if (opts.json) return void process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    for (const [engine, list] of Object.entries(result)) {
      process.stdout.write(`${engine}:\n`);
      for (const m of list) process.stdout.write(`  ${String(m.version).padStart(4, '0')}_${m.name}  applied ${m.applied_at}\n`);
    }
  });

const license = program.command('license').description('apply, show or remove the signed license');

installationOptions(license.command('apply <file>').description('verify a license file and make it current (a running server uses it at once)')).action(
  async (file: string, opts: InstallationOptions) => {
    const token = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => fail(`cannot read ${file}: ${err.code ?? err.message}`));
    const report = (await admin(opts, 'license.apply', { token })) as LicenseReport;
    process.stdout.write(`License applied.\n${formatLicense(report)}`);
  },
);

installationOptions(license.command('show').description('show the current license and what it unlocks'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const report = (await admin(opts, 'license.show')) as LicenseReport;
    process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatLicense(report));
  });

installationOptions(license.command('remove').description('remove the current license (gated features turn off)')).action(async (opts: InstallationOptions) => {
  await admin(opts, 'license.remove');
  process.stdout.write('License removed; actor drill-down and saved segments are off.\n');
});
const mail = program.command('mail').description('outgoing mail');

installationOptions(mail.command('outbox').description('list the mail outbox, newest first (queued, sent and failed; never the bodies)'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const entries = (await admin(opts, 'mail.outbox')) as OutboxEntry[];
    if (opts.json) return void process.stdout.write(JSON.stringify(entries, null, 2) + '\n');
    if (entries.length === 0) return void process.stdout.write('The outbox is empty.\n');
    for (const e of entries) {
      const when = e.status === 'sent' ? `sent ${e.sent_at}` : e.status === 'queued' ? `next attempt ${e.next_attempt_at}` : 'gave up';
      process.stdout.write(`#${e.id}  ${e.status.padEnd(6)}  ${e.kind}  to ${e.to}  "${e.subject}"  created ${e.created_at}  attempts ${e.attempts}  ${when}\n`);
      if (e.last_error) process.stdout.write(`      last error: ${e.last_error}\n`);
    }
  });

const adminGroup = program.command('admin').description('account administration');

installationOptions(adminGroup.command('reset-password <email>').description('set a new password for an account and sign out all its sessions'))
  .option('--password-file <file>', 'read the new password from this file (default: generate one and print it)')
  .option('--disable-mfa', 'also turn off two-factor authentication (lost authenticator and recovery codes)')
  .action(async (email: string, opts: InstallationOptions & { passwordFile?: string; disableMfa?: boolean }) => {
    const password = opts.passwordFile
      ? (await readFile(opts.passwordFile, 'utf8').catch((err: NodeJS.ErrnoException) => fail(`cannot read ${opts.passwordFile}: ${err.code ?? err.message}`))).replace(/\r?\n$/, '')
      : undefined;
    const result = (await admin(opts, 'admin.reset-password', { email, password, disable_mfa: opts.disableMfa === true })) as {
      email: string;
      generated_password: string | null;
      mfa_removed: boolean;
    };
    const lines = [`Password of ${result.email} changed; all its sessions are signed out.`];
    if (result.generated_password) lines.push(`  new password: ${result.generated_password}  (shown only now)`);
    if (result.mfa_removed) lines.push('  two-factor authentication turned off.');
    process.stdout.write(lines.join('\n') + '\n');
  });
const keys = program.command('keys').description('ingestion keys');
installationOptions(
  keys
    .command('import-legacy')
    .description('import pp_wk_ keys of an older installation into a project (values read one per line from --file or standard input)')
    .requiredOption('--project <id>', 'project id')
    .option('--file <path>', 'file with one pp_wk_ value per line (default: standard input)')
    .option('--name <name>', 'name given to the imported keys')
    .option('--domain <host...>', 'domains the keys may be used from (Origin/Referer); without one they are not domain-bound'),
).action(async (opts: InstallationOptions & { project: string; file?: string; name?: string; domain?: string[] }) => {
  const text = opts.file ? readFileSync(opts.file, 'utf8') : readFileSync(0, 'utf8');
  const values = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const result = (await admin(opts, 'keys.import-legacy', { project_id: Number(opts.project), values, name: opts.name, domains: opts.domain ?? [] })) as {
    imported: Array<{ id: number; prefix: string }>;
    skipped: Array<{ line: number; prefix?: string; reason: string }>;
  };
  for (const k of result.imported) process.stdout.write(`imported ${k.prefix} as key ${k.id}\n`);
  for (const k of result.skipped) process.stdout.write(`skipped entry ${k.line}${k.prefix ? ` (${k.prefix})` : ''}: ${k.reason}\n`);
  process.stdout.write(`${result.imported.length} imported, ${result.skipped.length} skipped; identify and alias need a rotated key\n`);
});

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AdminCommandError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
});
