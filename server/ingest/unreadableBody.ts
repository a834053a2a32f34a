// Turns a body the parser could not decompress (corrupt gzip, deflate or brotli data, which
// body-parser reports without an error type) into 400 `validation_failed` instead of a 500, so
// no byte sequence a client sends to the ingestion surface is answered as a server fault.

import type { ErrorRequestHandler } from 'express';
import { AppError, BadRequestError } from '../http/errors.js';

export function unreadableBody(): ErrorRequestHandler {
  return (err, _req, _res, next) => {
    const e = err as { status?: unknown; type?: unknown } | null;
    const clientFault = typeof e?.status === 'number' && e.status >= 400 && e.status < 500;
    if (!(err instanceof AppError) && clientFault && e?.type === undefined) {
      next(new BadRequestError('request body could not be decompressed'));
      return;
    }
    next(err);
  };
}
