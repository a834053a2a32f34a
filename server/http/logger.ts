// pino JSON-lines logger with credentials redacted: Authorization, Cookie and Set-Cookie headers,
// and the `key` and `token` query parameters wherever a URL is logged.

import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

const REDACTED = '[redacted]';
const SECRET_PARAMS = new Set(['key', 'token', 'code', 'state']);

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-pp-picker-token"]',
          'res.headers["set-cookie"]',
          'headers.authorization',
          'headers.cookie',
        ],
        censor: REDACTED,
      },
    },
    // Synchronous by default so log lines and anything else on stdout keep their order.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Replaces the values of secret-bearing query parameters in a URL path with a marker. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase())) {
      params.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}
