// The server's log file when no journal takes its output: DATA_DIR/logs/pp.log, rotated by size at
// line ends (pp.log.1 … pp.log.N), and reading its last lines for `ppctl logs` and support bundles.

import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

export const LOG_MAX_BYTES = 10 * 1024 * 1024;
export const LOG_KEEP = 5;

export class LogFile {
  private fd: number;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly maxBytes = LOG_MAX_BYTES,
    private readonly keep = LOG_KEEP,
  ) {
    this.fd = openSync(file, 'a', 0o640);
    this.size = fstatSync(this.fd).size;
  }

  write(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    writeSync(this.fd, buf);
    this.size += buf.length;
    // Rotate only after a complete line, so no line is split across two files.
    if (this.size >= this.maxBytes && buf[buf.length - 1] === 0x0a) this.rotate();
  }

  /** One JSON line in the server's log format, for the supervisor's own messages. */
  line(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
    const levels = { info: 30, warn: 40, error: 50 };
    this.write(JSON.stringify({ level: levels[level], time: new Date().toISOString(), component: 'supervisor', ...fields, msg }) + '\n');
  }

  close(): void {
    closeSync(this.fd);
  }

  private rotate(): void {
    closeSync(this.fd);
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) if (existsSync(`${this.file}.${i}`)) renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
    renameSync(this.file, `${this.file}.1`);
    this.fd = openSync(this.file, 'a', 0o640);
    this.size = 0;
  }
}

/** The last `lines` lines of a file (reading only its end), empty when it does not exist. */
export function tailFile(file: string, lines: number): string[] {
  if (!existsSync(file) || lines <= 0) return [];
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    let start = size;
    let text = '';
    const step = 64 * 1024;
    while (start > 0) {
      const from = Math.max(0, start - step);
      const buf = Buffer.alloc(start - from);
      readSync(fd, buf, 0, buf.length, from);
      text = buf.toString('utf8') + text;
      start = from;
      if (text.split('\n').length > lines + 1) break;
    }
    const all = text.split('\n');
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines);
  } finally {
    closeSync(fd);
  }
}
