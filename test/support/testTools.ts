// The programs the suite needs beyond npm's packages (Debian's chromium for the browser tests,
// clickhouse-server and zookeeper for the ClickHouse engine's tests), and
// their installation with apt-get when one is missing, so `npm install && npm test` passes by itself
// on a fresh Debian machine. Nothing is installed when every tool is present.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './chromium.js';

export interface TestTool {
  /** What the tests look for. */
  path: string;
  /** The Debian package that provides it. */
  debianPackage: string;
  /** Set when the path was chosen by the environment: then it is the operator's to provide. */
  pinnedBy?: string;
}

export const CLICKHOUSE_SERVER = '/usr/sbin/clickhouse-server';
export const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';

/** What the ClickHouse tests (test/support/clickhouseCluster.ts) and the bench need; the client's package brings the command-line client for looking by hand. */
export const CLICKHOUSE_TOOLS: TestTool[] = [
  { path: CLICKHOUSE_SERVER, debianPackage: 'clickhouse-server' },
  { path: '/usr/bin/clickhouse-client', debianPackage: 'clickhouse-client' },
  { path: ZOOKEEPER_JAR, debianPackage: 'zookeeper' },
];

export const TEST_TOOLS: TestTool[] = [{ path: CHROMIUM_PATH, debianPackage: 'chromium', pinnedBy: process.env.PP_CHROMIUM_PATH ? 'PP_CHROMIUM_PATH' : undefined }, ...CLICKHOUSE_TOOLS];

/** How the missing packages get installed: directly as root, through sudo without a password, or not at all. */
export function installPlan(packages: string[], isRoot: boolean, canSudo: boolean): string[][] | string {
  if (packages.length === 0) return [];
  const apt = (args: string[]): string[] => (isRoot ? ['apt-get', ...args] : ['sudo', '-n', 'apt-get', ...args]);
  if (!isRoot && !canSudo) return `the tests need ${packages.join(', ')}: run \`sudo apt-get install ${packages.join(' ')}\` once, then npm test again`;
  return [apt(['update', '-qq']), apt(['install', '-y', '-qq', ...packages])];
}

function succeeds(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/**
 * Installs what is missing; returns null when every tool is there afterwards, else why not. A path
 * set through the environment is never installed over: it names the operator's own build.
 */
export function ensureTestTools(tools: TestTool[] = TEST_TOOLS): string | null {
  const missing = tools.filter((t) => !existsSync(t.path));
  const pinned = missing.find((t) => t.pinnedBy);
  if (pinned) return `${pinned.pinnedBy} names ${pinned.path}, which does not exist`;
  if (missing.length === 0) return null;
  if (!succeeds('apt-get', ['--version'])) return `the tests need ${missing.map((t) => t.path).join(', ')}, and this machine has no apt-get to install it`;
  const isRoot = process.getuid?.() === 0;
  const plan = installPlan([...new Set(missing.map((t) => t.debianPackage))], isRoot, !isRoot && succeeds('sudo', ['-n', 'true']));
  if (typeof plan === 'string') return plan;
  process.stdout.write(`# installing ${missing.map((t) => t.debianPackage).join(', ')} with apt-get for the tests\n`);
  for (const [cmd, ...args] of plan) {
    const run = spawnSync(cmd!, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0) return `\`${[cmd, ...args].join(' ')}\` failed (exit ${run.status ?? run.signal})`;
  }
  const still = tools.filter((t) => !existsSync(t.path));
  return still.length === 0 ? null : `after installing, ${still.map((t) => t.path).join(', ')} is still missing`;
}
