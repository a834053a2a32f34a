// `ppctl status`: the service manager's view, the server's own answer (version, pid, readiness)
// and the size of the data, as one object for --json and as lines for a person.

import path from 'node:path';
import { JOURNAL_DIR } from '../server/ingest/journal.js';
import { currentVersion, listReleases, type Installation } from './installation.js';
import { checkHealth, localUrl } from './health.js';
import { askRunningServer, reachable, runningServerStatus } from './runningServer.js';
import type { Config } from '../server/ground/config.js';
import { serviceState } from './serviceManager.js';

/** What the server holding a data folder says about itself: all a checkout's `npm start` server has. */
export interface ServerView {
  /** A server holds the data folder (its admin socket answers). */
  running: boolean;
  /** It answers GET /api/v1/health?ready=1. */
  ready: boolean;
  running_version: string | null;
  server_pid: number | null;
  uptime_s: number | null;
  url: string;
  base_url: string;
  data_dir: string;
  data: {
    events: number;
    users: number;
    organizations: number;
    projects: number;
    /** Events stored but not folded into the per-day rollups yet, and the property keys they hold. */
    rollup?: { behind_events: number; property_keys: string[] };
    /** Events answered and journaled but not loaded yet, and batches the loader had to set aside. */
    ingest?: { backlog_events: number; set_aside_batches: number };
  } | null;
  error: string | null;
}

export interface InstallationStatus extends ServerView {
  version: string | null;
  manager: 'systemd' | 'process';
  manager_pid: number | null;
  config_dir: string;
  prefix: string;
  releases: string[];
  last_upgrade: Installation['record']['last_upgrade'];
}

export async function serverView(config: Config): Promise<ServerView> {
  const server = await runningServerStatus(config);
  const reach = reachable(config, server);
  const health = server ? await checkHealth(reach) : undefined;
  const data = server ? await askRunningServer<ServerView['data']>(config, 'data.stats', {}, 10_000).catch(() => null) : null;
  return {
    running: Boolean(server),
    ready: Boolean(health?.ok),
    running_version: server?.version ?? null,
    server_pid: server?.pid ?? null,
    uptime_s: server?.uptime_s ?? null,
    url: localUrl(reach),
    base_url: reach.base_url,
    data_dir: path.resolve(config.data_dir),
    data: data ?? null,
    error: health && !health.ok ? health.error : null,
  };
}

export async function installationStatus(inst: Installation): Promise<InstallationStatus> {
  const [state, view] = await Promise.all([serviceState(inst), serverView(inst.config)]);
  return {
    version: currentVersion(inst.record.prefix) ?? null,
    manager: state.manager,
    manager_pid: state.pid,
    config_dir: inst.configDir,
    prefix: inst.record.prefix,
    releases: listReleases(inst.record.prefix),
    last_upgrade: inst.record.last_upgrade,
    ...view,
  };
}

/** For a person: an installation's status, or (a checkout's server) the server's alone. */
export function formatStatus(s: InstallationStatus | ServerView): string {
  const inst = 'manager' in s ? s : undefined;
  const manager = !inst
    ? 'no service: a server started by npm start or ppctl serve'
    : inst.manager === 'systemd'
      ? 'systemd pp.service'
      : `supervised process${inst.manager_pid ? `, supervisor pid ${inst.manager_pid}` : ''}`;
  const head = !s.running
    ? inst
      ? `pp ${inst.version} is not running (${manager})`
      : `no pp server is running on ${s.data_dir}`
    : s.ready
      ? `pp ${s.running_version} is running and ready at ${s.url} (${manager}, server pid ${s.server_pid}, up ${s.uptime_s} s)`
      : `pp ${s.running_version} is running but not ready at ${s.url}: ${s.error}`;
  const lines = [head, `  base URL:  ${s.base_url}`];
  if (inst) lines.push(`  releases:  ${inst.releases.map((r) => (r === inst.version ? `${r} (current)` : r)).join(', ')} in ${inst.prefix}`);
  if (s.data) lines.push(`  data:      ${s.data.events} events, ${s.data.projects} projects, ${s.data.users} users in ${s.data_dir}`);
  else lines.push(`  data:      ${s.data_dir}`);
  const rollup = s.data?.rollup;
  if (rollup) {
    const progress = rollup.behind_events > 0 ? `folding, ${rollup.behind_events} events to go` : 'up to date';
    lines.push(`  rollups:   ${progress}; property keys: ${rollup.property_keys.length > 0 ? rollup.property_keys.join(', ') : 'none'}`);
  }
  const ingest = s.data?.ingest;
  if (ingest) {
    const n = ingest.set_aside_batches;
    const aside = n > 0 ? `; ${n} batch${n === 1 ? '' : 'es'} set aside in ${path.join(s.data_dir, JOURNAL_DIR)} (ppctl ingest retry loads them again; see docs/ingestion.md)` : '';
    lines.push(`  ingest:    ${ingest.backlog_events} events waiting to be loaded${aside}`);
  }
  if (inst) lines.push(`  config:    ${inst.config_dir}`);
  if (inst?.last_upgrade) lines.push(`  upgraded:  ${inst.last_upgrade.from} -> ${inst.last_upgrade.to} at ${inst.last_upgrade.at} (ppctl rollback returns)`);
  return lines.join('\n') + '\n';
}
