#!/usr/bin/env node
// ppctl: the one command-line entry point. It parses arguments and calls into server/ and installer/.

import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { ConfigError, loadConfig, settingsHelp, type Config } from '../server/ground/config.js';
import { packageRoot, packageVersion } from '../server/ground/packageRoot.js';
import { readBundleInfo } from '../installer/bundleInfo.js';
import { startServer } from '../server/start.js';
import { runAdminCommand } from '../server/admin/adminClient.js';
import { AdminCommandError } from '../server/admin/adminCommands.js';
import { exportCommand, importCommand } from '../server/admin/transferCli.js';
import { ensureDemoAccount } from '../server/accounts/demoAccount.js';
import { loadDemoData, type DemoLoad } from '../server/demo/loadDemoData.js';
import { formatLicense } from '../server/license/formatLicense.js';
import type { LicenseReport } from '../server/access/licenseManager.js';
import type { OutboxEntry } from '../server/mail/outbox.js';
import type { SmsOutboxEntry } from '../server/sms/smsOutbox.js';
import type { PendingReview, ReviewDecision } from '../server/auth/signup/trialReview.js';
import type { SetAsideRetry } from '../server/ingest/groupWriter.js';
import type { RecentLines } from '../server/ground/recentLogLines.js';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configFileOf, DEFAULT_CONFIG_DIR, DEFAULT_DATA_DIR, DEFAULT_PREFIX, DEFAULT_BIN_DIR, isInstalled, loadInstallation, withInstallLock, type Installation } from '../installer/installation.js';
import { install } from '../installer/install.js';
import { resolveInstallOptions, type InstallFlags } from '../installer/installOptions.js';
import { followLogs, recentLogs, startService, stopService } from '../installer/serviceManager.js';
import { installationStatus, formatStatus, serverView } from '../installer/installationStatus.js';
import { supervise } from '../installer/supervisor.js';
import { migrateData } from '../installer/migrateData.js';
import { compactEvents, compactLines } from '../installer/eventsCompact.js';
import { migrateEventsToClickHouse, migrationLines } from '../installer/eventsMigration.js';
import { rollback, upgrade } from '../installer/upgrade.js';
import { createBackup } from '../installer/backup.js';
import { restoreBackup } from '../installer/restore.js';
import { askRunningServer, runningServerStatus } from '../installer/runningServer.js';
import { chownTree, lookupUser } from '../installer/serviceUser.js';
import { formatDoctor, runCheckoutDoctor, runDoctor } from '../installer/doctor.js';
import { createSupportBundle, defaultSupportBundleName } from '../installer/supportBundle.js';
import { readableLines, readableLogLine } from '../installer/logFormat.js';

interface InstallationOptions {
  dataDir?: string;
  config?: string;
  configDir?: string;
}

/** Adds the options every command that works on an installation takes. */
function installationOptions(cmd: Command): Command {
  return cmd
    .option('--config-dir <dir>', `folder of an installation's pp.json (PP_CONFIG_DIR; default ${DEFAULT_CONFIG_DIR} when it holds one)`)
    .option('--data-dir <dir>', 'data directory (PP_DATA_DIR)')
    .option('--config <file>', 'JSON config file (PP_CONFIG)');
}

/**
 * An explicit --config/--data-dir (or PP_CONFIG/PP_DATA_DIR) is a source checkout or a hand-made
 * setup; otherwise an installation's <config-dir>/pp.json is read, exactly as its service reads it.
 */
function resolveConfig(opts: InstallationOptions, flags: Record<string, unknown> = {}): Config {
  const configDir = installationDir(opts);
  if (configDir) {
    const file = configFileOf(configDir);
    if (!existsSync(file)) fail(`no ${file}: pass --config-dir where pp was installed`);
    return loadConfig({ configFile: file, env: {}, flags });
  }
  return checkoutConfig(opts, flags);
}

/** A checkout's server settings: flags, the environment and --config. */
function checkoutConfig(opts: InstallationOptions, flags: Record<string, unknown> = {}): Config {
  return loadConfig({ configFile: opts.config, flags: { data_dir: opts.dataDir, ...flags } });
}

/**
 * The installation's config folder, or undefined for a checkout's server (settings from flags, the
 * environment and --config; data in ./.pp-data by default). --data-dir or --config (PP_DATA_DIR,
 * PP_CONFIG) name a checkout's server; --config-dir (PP_CONFIG_DIR) an installation; with none of
 * them it is the installation in /etc/pp, unless this ppctl runs from a source checkout.
 */
function installationDir(opts: InstallationOptions): string | undefined {
  if (opts.config || opts.dataDir || process.env.PP_CONFIG || process.env.PP_DATA_DIR) return undefined;
  const configDir = opts.configDir ?? process.env.PP_CONFIG_DIR;
  if (configDir) return configDir;
  const fromCheckout = !readBundleInfo(packageRoot());
  return !fromCheckout && existsSync(configFileOf(DEFAULT_CONFIG_DIR)) ? DEFAULT_CONFIG_DIR : undefined;
}

/** An installation, or a checkout's server known by its settings alone (see installationDir). */
function installationOrServer(opts: InstallationOptions): { inst: Installation; config: Config } | { inst?: undefined; config: Config } {
  const configDir = installationDir(opts);
  if (configDir) {
    const inst = loadInstallation(configDir);
    return { inst, config: inst.config };
  }
  return { config: checkoutConfig(opts) };
}

/** Whether the command line asked for JSON: then errors are JSON too (on standard error). */
const jsonWanted = (): boolean => process.argv.includes('--json');

function fail(message: string): never {
  process.stderr.write(jsonWanted() ? JSON.stringify({ error: { message } }) + '\n' : `ppctl: ${message}\n`);
  process.exit(1);
}

interface JsonOption {
  json?: boolean;
}

/** Adds --json; every command takes it (a test walks the commands). */
function jsonOption(cmd: Command, description = 'print JSON'): Command {
  return cmd.option('--json', description);
}

/** Prints `value` as JSON with --json, else the lines `text` gives. */
function report(opts: JsonOption, value: unknown, text: () => string[]): void {
  if (opts.json) return say(JSON.stringify(value, null, 2));
  for (const line of text()) say(line);
}

async function admin(opts: InstallationOptions, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return (await runAdminCommand(resolveConfig(opts), name, args)).result;
}

const program = new Command('ppctl').description('pp: self-hosted product analytics').version(packageVersion()).showHelpAfterError();

installationOptions(
  program
    .command('serve')
    .description('run the server in the foreground')
    .option('--port <n>', 'port (PP_PORT)')
    .option('--host <addr>', 'listen address (PP_HOST)')
    .option('--base-url <url>', 'public base URL (PP_BASE_URL)')
    .addOption(new Option('--embedded', 'on a fresh data directory, create an owner, an organization and a demo project with demo data, and print their credentials'))
    .option('--no-demo-data', 'with --embedded: leave the demo project empty')
    .option('--json', 'with --embedded: print the sign-in address and credentials as one JSON line among the JSON log lines')
    .option('--verbose', 'with --embedded: show every log line on the terminal (otherwise only where it listens, warnings and errors; ppctl logs shows the rest)'),
)
  .addHelpText('after', '\n' + settingsHelp())
  .action(async (opts: InstallationOptions & JsonOption & { port?: string; host?: string; baseUrl?: string; embedded?: boolean; demoData?: boolean; verbose?: boolean }) => {
    const config = resolveConfig(opts, { port: opts.port, host: opts.host, base_url: opts.baseUrl });
    // A demo start shows where it listens and then its own short block; migrations, requests and
    // background work are kept for `ppctl logs` (or shown with --verbose).
    const running = await startServer(config, { quietTerminal: opts.embedded && !opts.json && !opts.verbose, stopOnSignals: true });
    if (opts.embedded) {
      const demo = await ensureDemoAccount(running.services.meta, running.services.clock.now());
      const text = (line: string): void => {
        if (!opts.json) say(line);
      };
      let loaded: DemoLoad | null = null;
      if (demo.password && opts.demoData !== false) {
        text('Loading demo data into the demo project…');
        loaded = await loadDemoData(running.services, demo.project.id, demo.ownerId);
        text(`  ${loaded.events.toLocaleString('en-US')} events of ${loaded.people.toLocaleString('en-US')} visitors over ${loaded.days / 7} weeks.`);
      }
      const signIn = `${config.base_url}/sign-in`;
      if (opts.json) {
        const ready = { msg: 'ready', sign_in_url: signIn, owner_email: demo.email, one_time_password: demo.password ?? null, demo_project_id: demo.project.id, demo_events: loaded?.events ?? null };
        process.stdout.write(JSON.stringify(ready) + '\n');
      } else {
        const lines = [``, `pp is running at ${signIn}`, `  owner email: ${demo.email}`];
        lines.push(demo.password ? `  one-time password: ${demo.password}  (shown only now; you choose your own at the first sign-in)` : `  (existing owner; password not shown again)`);
        lines.push(`  demo project id: ${demo.project.id}`, ``);
        process.stdout.write(lines.join('\n') + '\n');
      }
    }
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

jsonOption(installationOptions(license.command('apply <file>').description('verify a license file and make it current (a running server uses it at once)'))).action(
  async (file: string, opts: InstallationOptions & JsonOption) => {
    const token = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => fail(`cannot read ${file}: ${err.code ?? err.message}`));
    const applied = (await admin(opts, 'license.apply', { token })) as LicenseReport;
    report(opts, applied, () => ['License applied.', formatLicense(applied).replace(/\n$/, '')]);
  },
);

installationOptions(license.command('show').description('show the current license and what it unlocks'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const report = (await admin(opts, 'license.show')) as LicenseReport;
    process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatLicense(report));
  });

jsonOption(installationOptions(license.command('remove').description('remove the current license (gated features turn off)'))).action(async (opts: InstallationOptions & JsonOption) => {
  await admin(opts, 'license.remove');
  report(opts, { removed: true }, () => ['License removed; actor drill-down and saved segments are off.']);
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

const sms = program.command('sms').description('outgoing text messages (cloud edition)');

installationOptions(sms.command('outbox').description('list the SMS outbox, newest first (queued, sent and failed; numbers masked, never the texts)'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const entries = (await admin(opts, 'sms.outbox')) as SmsOutboxEntry[];
    if (opts.json) return void say(JSON.stringify(entries, null, 2));
    if (entries.length === 0) return void say('The SMS outbox is empty.');
    for (const e of entries) {
      const when = e.status === 'sent' ? `sent ${e.sent_at}` : e.status === 'queued' ? `next attempt ${e.next_attempt_at}` : 'gave up';
      say(`#${e.id}  ${e.status.padEnd(6)}  ${e.kind}  to ${e.to_masked}  created ${e.created_at}  attempts ${e.attempts}  ${when}`);
      if (e.last_error) say(`      last error: ${e.last_error}`);
    }
  });

const review = program.command('review').description('the review queue of held trials (cloud edition)');

installationOptions(review.command('list').description('organizations whose trial waits for activation, oldest first'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const waiting = (await admin(opts, 'review.list')) as PendingReview[];
    if (opts.json) return void say(JSON.stringify(waiting, null, 2));
    if (waiting.length === 0) return void say('No trial waits for review.');
    for (const r of waiting) {
      say(`#${r.org_id}  ${r.name}  owner ${r.owner_email ?? '(none)'}  created ${r.created_at}  ${r.trial_state}`);
      const signals = `signup address ${r.signup_ip ? 'recorded' : 'none'}, device ${r.signup_device ? 'recorded' : 'none'}`;
      say(`      risk rules: ${r.risk_rules.length ? r.risk_rules.join(', ') : 'none'}; ${signals}`);
      if (r.company_note) say(`      company note: ${JSON.stringify(r.company_note)}`);
    }
  });

for (const [verb, past] of [
  ['approve', 'approved'],
  ['reject', 'rejected'],
] as const) {
  const description =
    verb === 'approve'
      ? 'start the held trial of an organization (its full length from now) and email its owners'
      : 'refuse the held trial of an organization (it may still choose a plan) and email its owners';
  jsonOption(installationOptions(review.command(`${verb} <org-id>`).description(description)))
    .option('--note <text>', 'why, kept with the subscription and in the audit log (not emailed)')
    .action(async (orgId: string, opts: InstallationOptions & JsonOption & { note?: string }) => {
      const d = (await admin(opts, `review.${verb}`, { org_id: orgId, note: opts.note })) as ReviewDecision;
      const until = d.status === 'trialing' ? `; the trial runs until ${d.trial_ends_at}` : '';
      report(opts, d, () => [
        `Trial of organization ${d.org_id} (${d.name}) ${past}${until}.`,
        `  emailed: ${d.owners_emailed.length ? d.owners_emailed.join(', ') : 'nobody (the organization has no owner)'}`,
      ]);
    });
}

const ingest = program.command('ingest').description('ingestion');

installationOptions(ingest.command('retry').description('load again the batches the loader set aside (see ppctl status); each that loads is removed'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const result = (await admin(opts, 'ingest.retry')) as SetAsideRetry;
    if (opts.json) return void say(JSON.stringify(result, null, 2));
    if (result.batches === 0 && result.failed.length === 0) return void say('No batch is set aside.');
    say(`loaded ${result.batches} set-aside batch${result.batches === 1 ? '' : 'es'} (${result.events} event${result.events === 1 ? '' : 's'})`);
    for (const f of result.failed) say(`  still set aside: ${f.file}: ${f.error}`);
    if (result.failed.length > 0) process.exitCode = 1;
  });

const adminGroup = program.command('admin').description('account administration');

jsonOption(
  installationOptions(adminGroup.command('reset-password <email>').description('set a new password for an account and sign out all its sessions, or with --link print a reset link for its owner')),
)
  .option('--password-file <file>', 'read the new password from this file (default: generate one and print it)')
  .option('--disable-mfa', 'also turn off two-factor authentication (lost authenticator and recovery codes)')
  .option('--link', 'change nothing now: print a one-hour, single-use link where the account owner chooses a new password (for a server that sends no email)')
  .action(async (email: string, opts: InstallationOptions & JsonOption & { passwordFile?: string; disableMfa?: boolean; link?: boolean }) => {
    if (opts.link) {
      if (opts.passwordFile || opts.disableMfa) fail('--link sets no password and keeps two-factor authentication; leave out --password-file and --disable-mfa');
      const issued = (await admin(opts, 'admin.reset-link', { email })) as { email: string; link: string; expires_at: string };
      return report(opts, issued, () => [`Reset link for ${issued.email} (single use, valid until ${issued.expires_at}); give it to its owner:`, `  ${issued.link}`]);
    }
    const password = opts.passwordFile
      ? (await readFile(opts.passwordFile, 'utf8').catch((err: NodeJS.ErrnoException) => fail(`cannot read ${opts.passwordFile}: ${err.code ?? err.message}`))).replace(/\r?\n$/, '')
      : undefined;
    const result = (await admin(opts, 'admin.reset-password', { email, password, disable_mfa: opts.disableMfa === true })) as {
      email: string;
      generated_password: string | null;
      mfa_removed: boolean;
    };
    report(opts, result, () => {
      const lines = [`Password of ${result.email} changed; all its sessions are signed out. It must be changed again at the next sign-in.`];
      if (result.generated_password) lines.push(`  new password: ${result.generated_password}  (shown only now)`);
      if (result.mfa_removed) lines.push('  two-factor authentication turned off.');
      return lines;
    });
  });
const keys = program.command('keys').description('ingestion keys');
installationOptions(
  keys
    .command('import-legacy')
    .description('import pp_wk_ keys of an older installation into a project (values read one per line from --file or standard input)')
    .requiredOption('--project <id>', 'project id')
    .option('--file <path>', 'file with one pp_wk_ value per line (default: standard input)')
    .option('--name <name>', 'name given to the imported keys')
    .option('--domain <host...>', 'domains the keys may be used from (Origin/Referer); without one they are not domain-bound')
    .option('--json', 'print JSON'),
).action(async (opts: InstallationOptions & JsonOption & { project: string; file?: string; name?: string; domain?: string[] }) => {
  const text = opts.file ? readFileSync(opts.file, 'utf8') : readFileSync(0, 'utf8');
  const values = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const result = (await admin(opts, 'keys.import-legacy', { project_id: Number(opts.project), values, name: opts.name, domains: opts.domain ?? [] })) as {
    imported: Array<{ id: number; prefix: string }>;
    skipped: Array<{ line: number; prefix?: string; reason: string }>;
  };
  report(opts, result, () => [
    ...result.imported.map((k) => `imported ${k.prefix} as key ${k.id}`),
    ...result.skipped.map((k) => `skipped entry ${k.line}${k.prefix ? ` (${k.prefix})` : ''}: ${k.reason}`),
    `${result.imported.length} imported, ${result.skipped.length} skipped; identify and alias need a rotated key`,
  ]);
});

// ---- Data in and out: imports of other products' exports and of pp's own, exports (docs/migrating.md) ----

const collect = (value: string, previous: string[] = []) => [...previous, value];
const projectNumber = (raw: string): number => {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) fail(`--project must be a project id, not ${raw}`);
  return id;
};
const terminal = (opts: JsonOption) => ({ json: Boolean(opts.json), tty: Boolean(process.stderr.isTTY), out: say, err: (text: string) => void process.stderr.write(text) });

installationOptions(
  program
    .command('import <files...>')
    .description("import events from files: PostHog's or Amplitude's export, pp's NDJSON export, or CSV with a column mapping; run it again after a stop to resume")
    .requiredOption('--project <id>', 'project id')
    .addOption(new Option('--format <format>', 'how the files are written (default: read from the first file)').choices(['posthog', 'amplitude', 'ndjson', 'csv']))
    .option('--map <column=field>', 'csv: where a column goes (a field, props.<key> or ignore); repeat it', collect, [])
    .option('--json', 'print progress and the result as JSON lines'),
).action(async (files: string[], opts: InstallationOptions & JsonOption & { project: string; format?: string; map: string[] }) => {
  const code = await importCommand(resolveConfig(opts), { project: projectNumber(opts.project), files, format: opts.format, map: opts.map }, terminal(opts)).catch((err: unknown) =>
    fail(err instanceof Error ? err.message : String(err)),
  );
  process.exitCode = code;
});

installationOptions(
  program
    .command('export')
    .description("export a project's events with every stored field (NDJSON imports back unchanged)")
    .requiredOption('--project <id>', 'project id')
    .option('--from <date>', 'first local day (YYYY-MM-DD, project time zone)')
    .option('--to <date>', 'last local day, included')
    .addOption(new Option('--format <format>', 'file format').choices(['ndjson', 'csv', 'parquet']).default('ndjson'))
    .option('--output <file>', 'where to write it (default: project-<id>-events.<format>)')
    .option('--json', 'print JSON'),
).action(async (opts: InstallationOptions & JsonOption & { project: string; from?: string; to?: string; format: string; output?: string }) => {
  const code = await exportCommand(resolveConfig(opts), { project: projectNumber(opts.project), from: opts.from, to: opts.to, format: opts.format, output: opts.output }, terminal(opts)).catch(
    (err: unknown) => fail(err instanceof Error ? err.message : String(err)),
  );
  process.exitCode = code;
});

const eventsGroup = program.command('events').description('the event store');

installationOptions(
  eventsGroup
    .command('migrate')
    .description("move a stopped installation's events from DuckDB to ClickHouse, then switch it over once every count agrees; run it again after a stop to resume")
    .addOption(new Option('--to <engine>', 'the engine to move to').choices(['clickhouse']).makeOptionMandatory())
    .option('--clickhouse-urls <urls>', 'comma-separated HTTP URLs of the nodes (clickhouse.urls)')
    .option('--clickhouse-cluster <name>', "the cluster's name in the nodes' remote_servers (clickhouse.cluster); unset for one node")
    .option('--clickhouse-database <name>', 'the database to hold the events (clickhouse.database, default pp)')
    .option('--clickhouse-user <name>', 'the ClickHouse user (clickhouse.user, default default)')
    .option('--clickhouse-password-file <file>', "file holding the ClickHouse user's password (clickhouse.password)")
    .addOption(new Option('--block-rows <n>', 'events per INSERT').default('20000').hideHelp())
    .option('--json', 'print progress and the result as JSON lines'),
).action(
  async (
    opts: InstallationOptions &
      JsonOption & { to: string; clickhouseUrls?: string; clickhouseCluster?: string; clickhouseDatabase?: string; clickhouseUser?: string; clickhousePasswordFile?: string; blockRows: string },
  ) => {
    const password = opts.clickhousePasswordFile
      ? (await readFile(opts.clickhousePasswordFile, 'utf8').catch((err: NodeJS.ErrnoException) => fail(`cannot read ${opts.clickhousePasswordFile}: ${err.code ?? err.message}`))).replace(
          /\r?\n$/,
          '',
        )
      : undefined;
    const config = resolveConfig(opts, {
      'clickhouse.urls': opts.clickhouseUrls,
      'clickhouse.cluster': opts.clickhouseCluster,
      'clickhouse.database': opts.clickhouseDatabase,
      'clickhouse.user': opts.clickhouseUser,
      'clickhouse.password': password,
    });
    const blockRows = Number(opts.blockRows);
    if (!Number.isSafeInteger(blockRows) || blockRows < 1) fail(`--block-rows must be a positive whole number, not ${opts.blockRows}`);
    const done = await migrateEventsToClickHouse(config, config.clickhouse, terminal(opts), { blockRows }).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
    if (opts.json) say(JSON.stringify(done));
    else for (const line of migrationLines(done)) say(line);
    process.exitCode = done.switched || (done.mismatches.length === 0 && !done.config_file) ? 0 : 1;
  },
);

installationOptions(
  eventsGroup
    .command('compact')
    .description("rewrite a stopped installation's DuckDB event store in the current storage format, without its free blocks (needs as much free disk as the store, beside it)")
    .option('--json', 'print the result as JSON'),
).action(async (opts: InstallationOptions & JsonOption) => {
  const done = await compactEvents(resolveConfig(opts)).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
  if (opts.json) say(JSON.stringify(done));
  else for (const line of compactLines(done)) say(line);
});

// ---- The appliance: install, service control, upgrade and rollback, backup and restore, doctor ----

interface ConfigDirOption {
  configDir?: string;
}

function configDirOption(cmd: Command): Command {
  return cmd.option('--config-dir <dir>', `folder holding the installation's pp.json and install.json (PP_CONFIG_DIR, default ${DEFAULT_CONFIG_DIR})`);
}

function installed(opts: ConfigDirOption): Installation {
  return loadInstallation(opts.configDir ?? process.env.PP_CONFIG_DIR ?? DEFAULT_CONFIG_DIR);
}

const say = (line: string): void => void process.stdout.write(line + '\n');
const progress = (line: string) => process.stderr.write(`  ${line}\n`);

program
  .command('install')
  .description('install this release: files, config, TLS, databases, owner account, service; running it again changes nothing')
  .option('-y, --yes', 'do not ask anything: take defaults for every value no flag gives')
  .option('--prefix <dir>', `where releases live (default ${DEFAULT_PREFIX})`)
  .option('--data-dir <dir>', `data folder (default ${DEFAULT_DATA_DIR})`)
  .option('--config-dir <dir>', `config folder (default ${DEFAULT_CONFIG_DIR})`)
  .option('--bin-dir <dir>', `where to link ppctl, or "none" (default ${DEFAULT_BIN_DIR})`)
  .option('--host <addr>', 'listen address (default 0.0.0.0)')
  .option('--port <n>', 'port of both API surfaces (default 8080)')
  .option('--base-url <url>', 'public URL of this server (default http(s)://HOSTNAME:PORT)')
  .option('--tls <mode>', 'self-signed | off | CERT,KEY (PEM files) (default off)')
  .option('--admin-email <email>', "owner's email address")
  .option('--admin-password-file <file>', "file holding the owner's password")
  .option('--org-name <name>', 'name of the first organization (default "My organization")')
  .option('--project-name <name>', 'name of the first project (default "My project")')
  .option('--timezone <tz>', 'IANA time zone of the first project (default UTC)')
  .option('--signup-mode <mode>', 'closed (invitations only) | legacy (anyone may register) (default closed)')
  .option('--systemd', 'run as the systemd unit pp.service (default when systemd is running)')
  .option('--no-systemd', 'run as a supervised background process with a pid file')
  .option('--user <name>', 'account the server runs as (default pp when root, created if missing)')
  .addOption(new Option('--unit-dir <dir>', 'systemd unit folder').default(undefined).hideHelp())
  .option('--json', 'print the outcome as JSON (prompts still need a terminal; combine with --yes)')
  .action(async (flags: InstallFlags & JsonOption) => {
    const options = await resolveInstallOptions(flags, Boolean(process.stdin.isTTY) && !flags.yes && !flags.json);
    const done = await withInstallLock(options.prefix, 'install', () => install(options, progress));
    report(flags, { ...done, config_dir: options.configDir }, () => {
      const lines = done.notes.map((note) => `note: ${note}`);
      if (done.changes.length === 0) return [...lines, `pp ${done.version} is already installed and running at ${done.url}; nothing changed.`];
      lines.push(`pp ${done.version} is installed and running at ${done.url}`);
      if (done.owner) lines.push(`  owner: ${done.owner.email}  organization id: ${done.owner.organization_id}  project id: ${done.owner.project_id}`);
      lines.push(`  manage it with: ppctl status | logs | doctor | backup (config in ${options.configDir})`);
      return lines;
    });
  });

/** Starts the installation's service and waits until it is ready, or fails with its last log lines. */
async function startReady(inst: Installation): Promise<{ version: string; started?: boolean }> {
  const health = await startService(inst);
  if (!health.ok) fail(`the server did not become ready: ${health.error}\n${(await recentLogs(inst, 20)).join('\n')}`);
  return health;
}

jsonOption(configDirOption(program.command('start').description('start the server and wait until it is ready'))).action(async (opts: ConfigDirOption & JsonOption) => {
  const inst = installed(opts);
  const health = await startReady(inst);
  const url = inst.config.base_url;
  report(opts, { started: Boolean(health.started), version: health.version, url }, () => [
    health.started ? `started; pp ${health.version} is ready at ${url}` : `already running; pp ${health.version} at ${url}`,
  ]);
});

jsonOption(configDirOption(program.command('stop').description('stop the server gracefully'))).action(async (opts: ConfigDirOption & JsonOption) => {
  const stopped = await stopService(installed(opts));
  report(opts, { stopped }, () => [stopped ? 'stopped' : 'not running']);
});

jsonOption(configDirOption(program.command('restart').description('stop, then start, and wait until ready'))).action(async (opts: ConfigDirOption & JsonOption) => {
  const inst = installed(opts);
  await stopService(inst);
  const health = await startReady(inst);
  report(opts, { version: health.version, url: inst.config.base_url }, () => [`restarted; pp ${health.version} is ready at ${inst.config.base_url}`]);
});

installationOptions(program.command('status').description('is the server running and ready; exit 0 ready, 3 stopped, 1 running but not ready'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const { inst, config } = installationOrServer(opts);
    const status = inst ? await installationStatus(inst) : await serverView(config);
    if (opts.json) say(JSON.stringify(status, null, 2));
    else process.stdout.write(formatStatus(status));
    process.exitCode = status.ready ? 0 : status.running ? 1 : 3;
  });

installationOptions(program.command('logs').description('recent server output (the journal under systemd, the log file of a supervised server, or the last lines a running checkout server kept)'))
  .option('-n, --lines <n>', 'how many lines', '100')
  .option('-f, --follow', 'keep printing new lines')
  .option('--json', "print the server's JSON lines as they are (default: time, level, message and request id)")
  .action(async (opts: InstallationOptions & JsonOption & { lines: string; follow?: boolean }) => {
    const { inst, config } = installationOrServer(opts);
    const print = opts.json ? say : (line: string) => say(readableLogLine(line));
    if (!inst) return serverLogs(config, Number(opts.lines), Boolean(opts.follow), print);
    if (opts.follow) return followLogs(inst, Number(opts.lines), opts.json ? (text) => void process.stdout.write(text) : readableLines(say));
    for (const line of await recentLogs(inst, Number(opts.lines))) print(line);
  });

/** A checkout's server logs to its terminal; while it runs it also keeps its last lines for this. */
async function serverLogs(config: Config, lines: number, follow: boolean, print: (line: string) => void): Promise<void> {
  const first = await askRunningServer<RecentLines>(config, 'logs.recent', { lines });
  if (!first)
    fail(`no server is running on ${path.resolve(config.data_dir)}; a server started with npm start or ppctl serve keeps its last log lines in memory, and ppctl logs shows them while it runs`);
  for (const line of first.lines) print(line);
  let last = first.last;
  while (follow) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await askRunningServer<RecentLines>(config, 'logs.recent', { lines: 1000, after: last }).catch(() => undefined);
    if (!next) return void say('(the server stopped)');
    for (const line of next.lines) print(line);
    last = next.last;
  }
}

configDirOption(program.command('supervise', { hidden: true }).description('run the server under the supervisor in the foreground (what start detaches)')).action(async (opts: ConfigDirOption) => {
  process.exit(await supervise(installed(opts)));
});

installationOptions(program.command('migrate').description("apply this release's pending database migrations (the server must be stopped)"))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const applied = await migrateData(resolveConfig(opts));
    if (opts.json) say(JSON.stringify({ applied }));
    else say(applied.length ? `applied ${applied.join(', ')}` : 'nothing to migrate');
  });

jsonOption(configDirOption(program.command('upgrade <bundle>').description('upgrade to the release in BUNDLE (checked against SHA256SUMS beside it); rolls back by itself on failure')))
  .option('--sums <file>', 'SHA256SUMS listing the bundle (default: beside it)')
  .action(async (bundle: string, opts: ConfigDirOption & JsonOption & { sums?: string }) => {
    const inst = installed(opts);
    const done = await withInstallLock(inst.record.prefix, 'upgrade', () => upgrade(inst, { bundle, sums: opts.sums }, progress));
    report(opts, done, () =>
      done.outcome === 'already-current'
        ? [`pp ${done.to} is already installed; nothing to do`]
        : [`upgraded pp ${done.from} -> ${done.to}${done.migrations.length ? ` (migrations: ${done.migrations.join(', ')})` : ''}`, `  backup taken before the upgrade: ${done.backup}`],
    );
  });

jsonOption(configDirOption(program.command('rollback').description('return to the release before the last upgrade (restoring the pre-upgrade backup when the schema changed)')))
  .option('-y, --yes', 'accept losing data written since the upgrade when the backup must be restored')
  .action(async (opts: ConfigDirOption & JsonOption & { yes?: boolean }) => {
    const inst = installed(opts);
    const done = await withInstallLock(inst.record.prefix, 'rollback', () => rollback(inst, { yes: Boolean(opts.yes) }, progress));
    report(opts, done, () => [`rolled back pp ${done.from} -> ${done.to}${done.restored ? `; data restored from ${done.restored}` : '; data kept'}`]);
  });

installationOptions(program.command('backup').description('consistent snapshot of both databases, or of SQLite and the ClickHouse tables (the server may keep running), with a manifest and checksums'))
  .option('--out <file>', 'backup file (default DATA_DIR/backups/pp-backup-VERSION-TIME.tar)')
  .option('--json', 'print the manifest as JSON')
  .action(async (opts: InstallationOptions & { out?: string; json?: boolean }) => {
    const config = resolveConfig(opts);
    const result = await createBackup(config, { out: opts.out, configFile: config.config_file });
    if (opts.json) return say(JSON.stringify({ file: result.file, manifest: result.manifest }, null, 2));
    say(`backup written to ${result.file}`);
    say(
      `  ${result.manifest.counts.events} events, ${result.manifest.counts.projects} projects, ${result.manifest.counts.users} users; pp ${result.manifest.pp_version}, taken ${result.via === 'socket' ? 'from the running server' : 'with the server stopped'}`,
    );
    if (result.manifest.clickhouse) say(`  events copied from ClickHouse database ${result.manifest.clickhouse.database} (${result.manifest.clickhouse.tables.length} tables)`);
  });

jsonOption(installationOptions(program.command('restore <file>').description('verify a backup and replace the databases with it')))
  .option('--stop', 'stop the running server first, and start it again afterwards')
  .action(async (file: string, opts: InstallationOptions & JsonOption & { stop?: boolean }) => {
    const config = resolveConfig(opts);
    const inst = config.config_file && isInstalled(path.dirname(config.config_file)) ? loadInstallation(path.dirname(config.config_file)) : undefined;
    const running = await runningServerStatus(config);
    if (running && !opts.stop)
      fail(`pp is running on ${config.data_dir} (pid ${running.pid}); restoring would pull the data from under it. Run again with --stop to stop it, restore and start it again.`);
    if (running && !inst) fail(`pp is running on ${config.data_dir} (pid ${running.pid}) outside an installation; stop it first`);
    if (inst && running) await stopService(inst);
    const result = await restoreBackup(config, file, { configFile: inst?.configFile });
    if (inst) chownTree(config.data_dir, lookupUser(inst.record.user)!);
    const lines = [`restored ${path.basename(file)}: pp ${result.manifest.pp_version} data of ${result.manifest.taken_at}, ${result.manifest.counts.events} events`];
    if (result.manifest.clickhouse) lines.push(`  ClickHouse: ${result.manifest.clickhouse.tables.length} tables put back into database ${config.clickhouse.database}`);
    if (result.secretRestored) lines.push(`  the server secret in ${inst?.configFile} was set to the one the backup was made with`);
    let restarted: string | null = null;
    if (inst && running) {
      const health = await startService(inst);
      if (!health.ok) fail(`restored, but the server did not become ready: ${health.error}`);
      restarted = health.version;
      lines.push(`started again; pp ${health.version} is ready`);
    }
    report(opts, { file, manifest: result.manifest, secret_restored: result.secretRestored, restarted_version: restarted }, () => lines);
  });

installationOptions(program.command('doctor').description('check config, permissions, disk, port, databases, migrations, license and clock; exit 1 on any failure'))
  .option('--json', 'print JSON')
  .action(async (opts: InstallationOptions & { json?: boolean }) => {
    const { inst, config } = installationOrServer(opts);
    const checks = inst ? await runDoctor(inst) : await runCheckoutDoctor(config);
    if (opts.json) say(JSON.stringify(checks, null, 2));
    else process.stdout.write(formatDoctor(checks));
    if (checks.some((c) => c.level === 'fail')) process.exitCode = 1;
  });

jsonOption(configDirOption(program.command('support-bundle').description('collect versions, redacted config, status, doctor output and recent logs into one file for support')))
  .option('--out <file>', 'output file (default ./pp-support-HOST-TIME.tar.gz)')
  .action(async (opts: ConfigDirOption & JsonOption & { out?: string }) => {
    const file = await createSupportBundle(installed(opts), opts.out ?? defaultSupportBundleName());
    report(opts, { file }, () => [`support bundle written to ${file} (secrets redacted; check it before sending)`]);
  });

/** The commands, for a test that reads every help text in one process instead of starting one per command. */
export { program };

// Run as the command (directly, through a link or the bundle's launcher), not when imported.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  program.parseAsync(process.argv).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof AdminCommandError) fail(err.message);
    fail(err instanceof Error ? err.message : String(err));
  });
}
