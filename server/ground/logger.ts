// pino JSON-lines logger with credentials redacted: Authorization, Cookie, Set-Cookie and the payment
// callback's PP-Signature headers, the query string of a Referer (reset, invitation and unsubscribe
// links carry tokens there), secret query parameters (`key`, `token`, `code`, `state`, `*_token`, …,
// so the `?token=` of /email/unsubscribe too) and share-link tokens in a `/shared/<token>` path,
// wherever a URL is logged.

import { pino, type Logger, type DestinationStream } from 'pino';
import type { RecentLogLines } from './recentLogLines.js';

export type { Logger };

const REDACTED = '[redacted]';
const SECRET_PARAMS = new Set(['key', 'token', 'code', 'state', 'password', 'secret', 'credential', 'mfa_code']);
const SECRET_SUFFIX = /[_-](token|key|secret|code)$/i;
/** Share-link tokens travel in the path, of the API (/api/v1/shared/…) and of the console page (/shared/…). */
const SHARED_PATH = /(\/shared\/)[^/?#&]+/gi;
/** Headers that carry a URL of ours or of a page in front of us. */
const URL_HEADERS = ['location', 'content-location', 'x-original-url', 'x-forwarded-uri', 'x-rewrite-url'];

/**
 * What a quiet terminal (a demo start's) shows: the line saying where the server listens, warnings
 * and errors; the other lines (migrations, requests, background work) go to the recent lines alone,
 * which `ppctl logs` shows.
 */
function shownWhenQuiet(line: string): boolean {
  // pino writes `{"level":NN,` first (no base fields), so the level is read without parsing the line.
  const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0);
  return level >= 40 || line.includes('"msg":"listening"');
}

/** With `recent`, every line written is also kept there (see recentLogLines.ts); with `quiet`, the terminal shows only where the server listens, warnings and errors. */
export function createLogger(level: string, destination?: DestinationStream, recent?: RecentLogLines, quiet = false): Logger {
  // Synchronous by default so log lines and anything else on stdout keep their order.
  const out = destination ?? pino.destination({ dest: 1, sync: true });
  const dest: DestinationStream =
    recent || quiet
      ? {
          write: (line: string) => {
            recent?.push(line);
            if (!quiet || shownWhenQuiet(line)) out.write(line);
          },
        }
      : out;
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
          'req.headers["pp-signature"]',
          'res.headers["set-cookie"]',
          'headers.authorization',
          'headers.cookie',
        ],
        censor: REDACTED,
      },
    },
    dest,
  );
}

/** Replaces share-link tokens and the values of secret-bearing query parameters in a URL path with a marker. */
export function redactUrl(logged: string): string {
  const url = redactSharedPath(logged);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase()) || SECRET_SUFFIX.test(name)) {
      params.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

function redactSharedPath(url: string): string {
  return url.replace(SHARED_PATH, `$1${REDACTED}`);
}

/** A Referer without its query string: the page's own parameters are no business of the log. */
function redactReferer(value: string): string {
  const page = redactSharedPath(value);
  const q = page.search(/[?#]/);
  return q < 0 ? page : `${page.slice(0, q)}?${REDACTED}`;
}

/** A copy of request or response headers fit for the log (credential headers are left to pino's redact paths). */
export function redactHeaders<H extends Record<string, unknown>>(headers: H): H {
  const out: Record<string, unknown> = { ...headers };
  if (typeof out.referer === 'string') out.referer = redactReferer(out.referer);
  for (const name of URL_HEADERS) if (typeof out[name] === 'string') out[name] = redactUrl(out[name] as string);
  return out as H;
}
