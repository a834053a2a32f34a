// Operations a local administrator runs through ppctl. The same function serves both paths: over
// the admin socket while a server holds the data files, or directly when none is running.

import type { Services } from '../http/services.js';
import { appliedMeta } from '../store/migrate.js';
import { appliedEvents } from '../engine/duckdb/migrations.js';
import { appliedOnClickHouse } from '../engine/clickhouse/migrations.js';
import { LicenseRefusedError } from '../access/licenseManager.js';
import { takeSnapshot } from './snapshot.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { checkDatabases } from './databaseChecks.js';
import { statementsOf } from '../engine/statements.js';
import { listOutbox } from '../mail/outbox.js';
import { listSmsOutbox } from '../sms/smsOutbox.js';
import { approveReview, listPendingReviews, rejectReview } from '../auth/signup/trialReview.js';
import { passwordProblem } from '../ground/passwords.js';
import { resetLinkForOperator, setPasswordByOperator } from '../auth/passwordResets.js';
import { removeMfa } from '../accounts/mfa.js';
import { generatePassword } from '../accounts/demoAccount.js';
import { findUserByEmail } from '../accounts/users.js';
import { getProject } from '../accounts/projects.js';
import { importLegacyKeys } from '../keys/ingestKeys.js';
import { AppError } from '../ground/errors.js';
import { exportStart, exportStatus, importCancel, importStart, importStatus, TransferCommandError } from '../transfer/transferCommands.js';

export type AdminCommand = (services: Services, args: Record<string, unknown>) => Promise<unknown>;

/** A refusal meant for the operator: printed as is, exit code 1. */
export class AdminCommandError extends Error {}

const registry = new Map<string, AdminCommand>();

export function registerAdminCommand(name: string, command: AdminCommand): void {
  if (registry.has(name)) throw new Error(`admin command ${name} registered twice`);
  registry.set(name, command);
}

export function adminCommand(name: string): AdminCommand | undefined {
  return registry.get(name);
}

registerAdminCommand('migrations', async (services) => ({
  sqlite: appliedMeta(services.meta),
  ...(services.events.kind === 'clickhouse' ? { clickhouse: await appliedOnClickHouse(services.config.clickhouse) } : { duckdb: await appliedEvents(services.events) }),
}));

registerAdminCommand('status', async (services) => ({
  version: services.version,
  data_dir: services.config.data_dir,
  pid: process.pid,
  uptime_s: Math.round(process.uptime()),
  // Where it listens, which a command started from another shell may not know (PP_PORT, --port).
  listen: { host: services.config.host, port: services.config.port, tls: Boolean(services.config.tls_cert), base_url: services.config.base_url },
}));

registerAdminCommand('license.apply', async (services, args) => {
  if (typeof args.token !== 'string' || args.token.trim() === '') throw new AdminCommandError('the license file is empty');
  try {
    return await services.license.apply(args.token);
  } catch (err) {
    if (err instanceof LicenseRefusedError) throw new AdminCommandError(`license refused (${err.check}): ${err.message}`);
    throw err;
  }
});

registerAdminCommand('license.show', async (services) => services.license.report());

registerAdminCommand('license.remove', async (services) => services.license.remove());
registerAdminCommand('mail.outbox', async (services) => listOutbox(services));
registerAdminCommand('sms.outbox', async (services) => listSmsOutbox(services));

// The review queue of held cloud trials.
registerAdminCommand('review.list', async (services) => listPendingReviews(services));

for (const [name, decide] of [
  ['review.approve', approveReview],
  ['review.reject', rejectReview],
] as const) {
  registerAdminCommand(name, async (services, args) => {
    const orgId = Number(args.org_id);
    if (!Number.isSafeInteger(orgId)) throw new AdminCommandError(`organization ${String(args.org_id)} does not exist`);
    const note = typeof args.note === 'string' && args.note.trim() !== '' ? args.note.trim() : undefined;
    try {
      return decide(services, orgId, note);
    } catch (err) {
      if (err instanceof AppError) throw new AdminCommandError(err.message);
      throw err;
    }
  });
}

registerAdminCommand('admin.reset-password', async (services, args) => {
  const email = typeof args.email === 'string' ? args.email : '';
  const given = typeof args.password === 'string' ? args.password : undefined;
  const password = given ?? generatePassword();
  const problem = passwordProblem(password);
  if (problem) throw new AdminCommandError(`the password ${problem}`);
  if (!(await setPasswordByOperator(services, email, password))) throw new AdminCommandError(`no account with email ${email}`);
  const mfaRemoved = args.disable_mfa === true ? removeMfa(services, findUserByEmail(services.meta, email)!.id) : false;
  return { email: email.trim().toLowerCase(), generated_password: given === undefined ? password : null, mfa_removed: mfaRemoved };
});

registerAdminCommand('admin.reset-link', async (services, args) => {
  const email = typeof args.email === 'string' ? args.email : '';
  const issued = resetLinkForOperator(services, email);
  if (!issued) throw new AdminCommandError(`no account with email ${email}`);
  return issued;
});

registerAdminCommand('keys.import-legacy', async (services, args) => {
  const projectId = Number(args.project_id);
  if (!Number.isSafeInteger(projectId) || !getProject(services.meta, projectId)) throw new AdminCommandError(`project ${String(args.project_id)} does not exist`);
  const values = Array.isArray(args.values) ? args.values.map(String) : [];
  if (values.length === 0) throw new AdminCommandError('no key values given (one pp_wk_ value per line)');
  const domains = Array.isArray(args.domains) ? args.domains.map(String) : [];
  try {
    return importLegacyKeys(services, projectId, values, { name: typeof args.name === 'string' ? args.name : undefined, domains });
  } catch (err) {
    if (err instanceof AppError) throw new AdminCommandError(err.message);
    throw err;
  }
});

// Installer operations: a consistent backup taken by the process that holds the files, the
// integrity checks of `ppctl doctor`, and the sizes `ppctl status` shows.
registerAdminCommand('backup', async (services, args) => {
  if (typeof args.dir !== 'string') throw new AdminCommandError('backup needs the folder to write the snapshot to');
  return takeSnapshot(services, args.dir);
});

registerAdminCommand('logs.recent', async (services, args) => {
  const lines = Number(args.lines ?? 100);
  const after = args.after === undefined ? undefined : Number(args.after);
  return services.recentLogs.since(after, Number.isInteger(lines) && lines > 0 ? lines : 100);
});

registerAdminCommand('ingest.retry', async (services) => ingestWriter(services).retrySetAside());

registerAdminCommand('doctor.databases', async (services) => checkDatabases(services.meta, services.events.kind === 'duckdb' ? (sql) => services.events.read(sql) : undefined));

/** A list as an engine answers it: DuckDB's list value (`items`) or ClickHouse's array. */
const keyList = (v: unknown): unknown[] => (Array.isArray(v) ? v : (v as { items: unknown[] }).items);

registerAdminCommand('data.stats', async (services) => {
  const count = (table: string) => (services.meta.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const { events } = await services.events.size();
  // How far the per-day rollups trail the stored events, and which property keys they hold: after
  // an upgrade or a restore they are folded in the background.
  const status = statementsOf(services.events).admin.rollupStatusSql();
  const [rollup] = await services.events.read(status.sql, status.params);
  return {
    events,
    users: count('users'),
    organizations: count('organizations'),
    projects: count('projects'),
    rollup: { behind_events: Number(rollup!.behind), property_keys: keyList(rollup!.keys).map(String) },
    ingest: ingestWriter(services).journalState(),
  };
});

// Imports and exports (ppctl import, ppctl export): started here, followed by polling their status.
for (const [name, run] of [
  ['import.start', importStart],
  ['import.status', importStatus],
  ['import.cancel', importCancel],
  ['export.start', exportStart],
  ['export.status', exportStatus],
] as const) {
  registerAdminCommand(name, async (services, args) => {
    try {
      return run(services, args);
    } catch (err) {
      if (err instanceof TransferCommandError) throw new AdminCommandError(err.message);
      throw err;
    }
  });
}
