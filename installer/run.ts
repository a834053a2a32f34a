// Runs an external program and collects its output; the one place the installer spawns helpers
// (tar aside), so error messages name the command and carry its last lines of stderr.

import { spawn, type SpawnOptions } from 'node:child_process';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env' | 'uid' | 'gid'> {
  input?: string;
  /** Copy the program's output through to ours as it arrives (long builds). */
  echo?: (chunk: string) => void;
}

export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, uid: options.uid, gid: options.gid, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      options.echo?.(c.toString());
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      options.echo?.(c.toString());
    });
    child.on('error', (err) => reject(new Error(`cannot run ${command}: ${err.message}`)));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (options.input !== undefined) {
      // A program may exit without reading its input; that is its answer, not our error.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.input);
    }
  });
}

/** Like run, but a non-zero exit throws with the command and the tail of its error output. */
export async function runChecked(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (${result.signal ?? `exit ${result.code}`}):\n${tail}`);
  }
  return result;
}
