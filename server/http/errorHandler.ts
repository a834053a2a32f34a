// The one place that writes error responses: every failure becomes {"error": {code, message, details}}.
// Unknown errors are logged with the request id and answered 500 `internal` without their message.

import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, BadRequestError, NotFoundError, PayloadTooLargeError, StorageFullError } from '../ground/errors.js';
import { isStorageFull } from '../store/storageFull.js';
import type { Logger } from '../ground/logger.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Maps body-parser failures (which carry `type`) onto our errors. */
function fromBodyParser(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status } = err as { type?: unknown; status?: unknown };
  // Corrupt gzip, deflate or brotli bodies come from zlib with a 4xx status and no type.
  if (type === undefined && typeof status === 'number' && status >= 400 && status < 500) return new BadRequestError('request body could not be decompressed');
  switch (type) {
    case 'entity.parse.failed':
      return new BadRequestError('request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeError(BODY_LIMIT_BYTES);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new BadRequestError('unsupported request body encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new BadRequestError('request body could not be read');
    default:
      return undefined;
  }
}

/** A full disk is the operator's to fix, not a bug: 503 `storage_full`, logged with the cause. */
function fromStorage(err: unknown, log: Logger, reqId: unknown): AppError | undefined {
  if (!isStorageFull(err)) return undefined;
  log.error({ req_id: reqId, err }, 'the disk of the data folder is full; a request was refused');
  return new StorageFullError();
}

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new NotFoundError('no such route'));
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof AppError ? err : (fromBodyParser(err) ?? fromStorage(err, log, req.id));
    if (res.headersSent) {
      log.warn({ req_id: req.id, err: known ? known.code : String(err) }, 'error after response started');
      res.destroy();
      return;
    }
    if (!known) {
      log.error({ req_id: req.id, err }, 'unhandled error');
      res.status(500).json({ error: { code: 'internal', message: 'internal error', details: { request_id: req.id } } });
      return;
    }
    for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
    res.status(known.status).json({ error: { code: known.code, message: known.message, details: known.details } });
  };
}
