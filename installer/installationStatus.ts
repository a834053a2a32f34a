// `ppctl status`: the service manager's view, the server's own answer (version, pid, readiness)
// and the size of the data, as one object for --json and as lines for a person.

import path from 'node:path';
import { JOURNAL_DIR } from '../server/ingest/journal.js';
import { currentVersion, listReleases, type Installation } from './installation.js';
import { checkHealth, localUrl } from './health.js';
import { askRunningServer, runningServerStatus } from './runningServer.js';
import { serviceState } from './serviceManager.js';

export interface InstallationStatus {
  version: string | null;
  manager: 'systemd' | 'process';
  /** A server holds the data folder (its admin socket answers). */
  running: boolean;
  /** It answers GET /api/v1/health?ready=1. */
  ready: boolean;
  running_version: string | null;
  manager_pid: number | null;
  server_pid: number | null;
  uptime_s: number | null;
  url: string;
  base_url: string;
  config_dir: string;
  data_dir: string;
  prefix: string;
  releases: string[];
  last_upgrade: Installation['record']['last_upgrade'];
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

export async function installationStatus(inst: Installation): Promise<InstallationStatus> {
  const [state, server] = await Promise.all([serviceState(inst), runningServerStatus(inst.config)]);
  const health = server ? await checkHealth(inst.config) : undefined;
  const data = server ? await askRunningServer<InstallationStatus['data']>(inst.config, 'data.stats', {}, 10_000).catch(() => null) : null;
  return {
    version: currentVersion(inst.record.prefix) ?? null,
    manager: state.manager,
    running: Boolean(server),
    ready: Boolean(health?.ok),
    running_version: server?.version ?? null,
    manager_pid: state.pid,
    server_pid: server?.pid ?? null,
    uptime_s: server?.uptime_s ?? null,
    url: localUrl(inst.config),
    base_url: inst.config.base_url,
    config_dir: inst.configDir,
    data_dir: inst.config.data_dir,
    prefix: inst.record.prefix,
    releases: listReleases(inst.record.prefix),
    last_upgrade: inst.record.last_upgrade,
    data: data ?? null,
    error: health && !health.ok ? health.error : null,
  };
}

export function formatStatus(s: InstallationStatus): string {
  const manager = s.manager === 'systemd' ? 'systemd pp.service' : `supervised process${s.manager_pid ? `, supervisor pid ${s.manager_pid}` : ''}`;
  const head = !s.running
    ? `pp ${s.version} is not running (${manager})`
    : s.ready
      ? `pp ${s.running_version} is running and ready at ${s.url} (${manager}, server pid ${s.server_pid}, up ${s.uptime_s} s)`
      : `pp ${s.running_version} is running but not ready at ${s.url}: ${s.error}`;
  const lines = [head, `  base URL:  ${s.base_url}`, `  releases:  ${s.releases.map((r) => (r === s.version ? `${r} (current)` : r)).join(', ')} in ${s.prefix}`];
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
    const aside = n > 0 ? `; ${n} batch${n === 1 ? '' : 'es'} set aside in ${path.join(s.data_dir, JOURNAL_DIR)} (see docs/ingestion.md)` : '';
    lines.push(`  ingest:    ${ingest.backlog_events} events waiting to be loaded${aside}`);
  }
  lines.push(`  config:    ${s.config_dir}`);
  if (s.last_upgrade) lines.push(`  upgraded:  ${s.last_upgrade.from} -> ${s.last_upgrade.to} at ${s.last_upgrade.at} (ppctl rollback returns)`);
  return lines.join('\n') + '\n';
}
