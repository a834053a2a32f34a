// Tar archives (through the system's tar, with gzip done in-process by zlib so no gzip binary is
// needed), and SHA256SUMS files in the format `sha256sum -c` reads (digests by sha256File in
// server/admin/snapshot.ts).

import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, openSync, readSync, closeSync, fstatSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Writable, type Readable, type Transform } from 'node:stream';

/** SHA256SUMS: file name → hex digest. */
export function readChecksums(file: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m) sums.set(path.basename(m[2]!), m[1]!);
  }
  return sums;
}

/** Adds or replaces one entry, keeping the others (several builds may share an output folder). */
export function writeChecksum(sumsFile: string, name: string, digest: string): void {
  const sums = existsSync(sumsFile) ? readChecksums(sumsFile) : new Map<string, string>();
  sums.set(name, digest);
  const lines = [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([n, d]) => `${d}  ${n}`);
  writeFileSync(sumsFile, lines.join('\n') + '\n');
}

/** Runs tar; `input` is a chain of streams piped into it (file, then gunzip), `output` takes its stdout. */
function runTar(args: string[], io: { input?: [Readable, ...Transform[]]; output?: Writable } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: [io.input ? 'pipe' : 'ignore', io.output ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    // Handled at once (never an unhandled rejection) and judged once tar has exited: tar stops
    // reading at the end-of-archive blocks, so a closed input after a clean exit is no error.
    const input = io.input
      ? pipeline([...io.input, child.stdin!]).then(
          () => undefined,
          (err: Error) => err,
        )
      : Promise.resolve(undefined);
    const output = io.output
      ? pipeline(child.stdout!, io.output).then(
          () => undefined,
          (err: Error) => err,
        )
      : Promise.resolve(undefined);
    child.on('error', (err) => reject(new Error(`cannot run tar: ${err.message}`)));
    child.on('close', (code) => {
      void Promise.all([input, output]).then(([inputError, outputError]) => {
        // A broken source (missing file, corrupt gzip) explains tar's failure better than tar can.
        const sourceError = inputError && !['EPIPE', 'ERR_STREAM_PREMATURE_CLOSE'].includes((inputError as NodeJS.ErrnoException).code ?? '') ? inputError : undefined;
        if (code !== 0) reject(new Error(`tar ${args[0]} failed (exit ${code}): ${sourceError?.message || stderr.trim() || outputError?.message || ''}`));
        else if (outputError) reject(outputError);
        else resolve();
      });
    });
  });
}

// Owner and order fixed so the archive does not depend on who built it or the file system's order.
const PORTABLE = ['--owner=0', '--group=0', '--numeric-owner', '--sort=name'];

export async function createTarGz(baseDir: string, entry: string, outFile: string, level = 6): Promise<void> {
  const gzip = createGzip({ level });
  await Promise.all([pipeline(gzip, createWriteStream(outFile, { mode: 0o644 })), runTar(['-c', '-C', baseDir, ...PORTABLE, '-f', '-', entry], { output: gzip })]);
}

export async function extractTarGz(file: string, destDir: string): Promise<void> {
  await runTar(['-x', '-C', destDir, '--no-same-owner', '-f', '-'], { input: [createReadStream(file), createGunzip()] });
}

/** One member of a .tar.gz, by wildcard; tar stops at the first match, so a member near the start is cheap. */
export async function readTarGzMember(file: string, pattern: string): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  try {
    await runTar(['-x', '-O', '--wildcards', '--occurrence=1', '-f', '-', pattern], { input: [createReadStream(file), createGunzip()], output: sink });
  } catch {
    return undefined;
  }
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

/** An uncompressed archive of some entries of a folder (backups: the database files compress poorly and are large). */
export async function createTar(baseDir: string, entries: string[], outFile: string): Promise<void> {
  await runTar(['-c', '-C', baseDir, ...PORTABLE, '-f', outFile, ...entries]);
}

export async function extractTar(file: string, destDir: string): Promise<void> {
  await runTar(['-x', '-C', destDir, '--no-same-owner', '-f', file]);
}

/** The names in an archive, without extracting it. */
export async function listTar(file: string): Promise<string[]> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  await runTar(['-t', '-f', file], { output: sink });
  return Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
}

/** The size a .gz file unpacks to, from its trailer (exact below 4 GiB, which a release is). */
export function gzipUnpackedSize(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(4);
    readSync(fd, buf, 0, 4, size - 4);
    return buf.readUInt32LE(0);
  } finally {
    closeSync(fd);
  }
}
