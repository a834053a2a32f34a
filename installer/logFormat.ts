// `ppctl logs` for people: a JSON log line of the server as one readable line (time, level, message,
// request id, and for a request its method, path, status and duration). Lines that are not the
// server's JSON (a journal's own notes, a crash trace) pass as they are.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields already shown by the line's fixed parts, or too noisy for a person (headers). */
const SHOWN = new Set(['time', 'level', 'msg', 'req_id', 'req', 'res', 'ms', 'pid', 'hostname']);

function levelName(level: unknown): string {
  if (typeof level === 'number') return LEVELS[level] ?? String(level);
  return typeof level === 'string' ? level.toUpperCase() : '?';
}

/** A value of an extra field, short: strings as they are, the rest as JSON. */
function brief(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function readableLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return line;
  const parts = [typeof entry.time === 'string' ? entry.time : typeof entry.time === 'number' ? new Date(entry.time).toISOString() : '-', levelName(entry.level).padEnd(5)];
  parts.push(typeof entry.msg === 'string' ? entry.msg : '');
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { status?: number } | undefined;
  if (req?.method && req.url) parts.push(`${req.method} ${req.url}${res?.status ? ` ${res.status}` : ''}${typeof entry.ms === 'number' ? ` ${entry.ms} ms` : ''}`);
  for (const [k, v] of Object.entries(entry)) if (!SHOWN.has(k) && v !== undefined) parts.push(`${k}=${brief(v)}`);
  if (typeof entry.req_id === 'string') parts.push(`[${entry.req_id}]`);
  return parts.filter((p) => p !== '').join('  ');
}

/** A sink for text as it arrives (any chunking) that hands `print` one readable line at a time. */
export function readableLines(print: (line: string) => void): (text: string) => void {
  let pending = '';
  return (text) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line) print(readableLogLine(line));
  };
}
