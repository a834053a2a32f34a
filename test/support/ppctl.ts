// Runs the compiled ppctl as a separate process, the way an operator does.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from '../../server/ground/packageRoot.js';

export const PPCTL = path.join(packageRoot(), 'dist', 'bin', 'ppctl.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runPpctl(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [PPCTL, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(input ?? '');
  return outputOf(child);
}

/** A child's exit code and everything it wrote, once it has closed. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  firstLine: Record<string, unknown>;
  stdout: string[];
  exited: Promise<number | null>;
}

/** Starts `ppctl serve` and resolves once its first log line (the listening URL) arrives. */
export function spawnServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [PPCTL, 'serve', '--port', '0', ...args], { env: { ...process.env, PP_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let first: Record<string, unknown> | undefined;
    lines.on('line', (line) => {
      stdout.push(line);
      if (first) return;
      try {
        first = JSON.parse(line) as Record<string, unknown>;
      } catch {
        reject(new Error(`first line is not JSON: ${line}`));
        return;
      }
      resolve({ child, url: String(first.url), firstLine: first, stdout, exited });
    });
    void exited.then((code) => {
      if (!first) reject(new Error(`ppctl serve exited ${code} before listening: ${stderr}`));
    });
  });
}
