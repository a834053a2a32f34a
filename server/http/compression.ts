// Compressed answers: which encoding a request accepts (brotli before gzip), and the API's JSON
// answers compressed on the libuv pool when they are large enough to gain. Streams (the live event
// stream) write without res.json and pass untouched; the console's files are compressed at build.

import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { RequestHandler, Response } from 'express';

export type Encoding = 'br' | 'gzip';

/** Answers smaller than this go out as they are: compressing them saves less than its headers cost. */
export const MIN_COMPRESS_BYTES = 1024;

/** The best encoding `header` (an Accept-Encoding value) accepts, or null; `q=0` refuses one. */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim().toLowerCase() === 'q') weight = Number(v?.trim());
    }
    q.set(name.trim().toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (e: Encoding): number => q.get(e) ?? q.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Fast settings: an answer is compressed once per request, unlike a console file. */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipAsync(body, { level: 6 });
}

/** Sends `body` compressed when the request accepts it and it is large enough; as it is otherwise. */
function sendJson(res: Response, body: Buffer, encoding: Encoding | null): void {
  res.vary('Accept-Encoding');
  if (!res.get('Content-Type')) res.type('application/json; charset=utf-8');
  if (encoding === null || body.length < MIN_COMPRESS_BYTES) {
    res.setHeader('Content-Length', body.length);
    res.end(body);
    return;
  }
  compress(body, encoding).then(
    (packed) => {
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', packed.length);
      res.end(packed);
    },
    () => res.end(body),
  );
}

/** Replaces res.json for the routes below it with a compressing one. */
export function compressJson(): RequestHandler {
  return (req, res, next) => {
    const encoding = acceptedEncoding(req.get('Accept-Encoding'));
    res.json = (value: unknown) => {
      const body = Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');
      sendJson(res, body, encoding);
      return res;
    };
    next();
  };
}
