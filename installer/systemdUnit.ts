// The systemd unit `pp.service`: runs `ppctl serve` from the current release as the service user,
// restarts it on failure, and stops it gracefully with SIGTERM. Logs go to the journal.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { currentLink, SERVICE_NAME } from './installation.js';

export const SYSTEMD_UNIT_DIR = '/etc/systemd/system';

/** True when systemd is the running init system (its runtime folder exists), as sd_booted() checks. */
export function systemdRunning(): boolean {
  return existsSync('/run/systemd/system');
}

export function unitFile(unitDir = SYSTEMD_UNIT_DIR): string {
  return path.join(unitDir, SERVICE_NAME);
}

export interface UnitInput {
  prefix: string;
  configFile: string;
  dataDir: string;
  user: string;
  port: number;
}

export function systemdUnit(input: UnitInput): string {
  const ppctl = path.join(currentLink(input.prefix), 'ppctl');
  const lines = [
    '# pp product analytics, written by `ppctl install`; `ppctl install` and `ppctl upgrade` keep it current.',
    '[Unit]',
    'Description=pp product analytics',
    'After=network.target',
    '',
    '[Service]',
    'Type=simple',
    `User=${input.user}`,
    `Group=${input.user}`,
    `ExecStart=${ppctl} serve --config ${input.configFile}`,
    `WorkingDirectory=${input.dataDir}`,
    'Environment=NODE_ENV=production',
    'Restart=on-failure',
    'RestartSec=2',
    // The server finishes in-flight requests and checkpoints DuckDB on SIGTERM (up to ~10 s).
    'KillSignal=SIGTERM',
    'TimeoutStopSec=60',
    'LimitNOFILE=65536',
    'NoNewPrivileges=true',
    'ProtectSystem=full',
    'ProtectHome=true',
    'PrivateTmp=true',
    `ReadWritePaths=${input.dataDir}`,
  ];
  // A port below 1024 needs the one capability that allows it, and no other.
  if (input.port > 0 && input.port < 1024 && input.user !== 'root') lines.push('AmbientCapabilities=CAP_NET_BIND_SERVICE', 'CapabilityBoundingSet=CAP_NET_BIND_SERVICE');
  lines.push('', '[Install]', 'WantedBy=multi-user.target', '');
  return lines.join('\n');
}
