// Gives every request an id (echoed in X-Request-Id) and logs one line when it finishes,
// with credentials redacted by the logger and secret query parameters masked in every URL.

import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { redactHeaders, redactUrl, type Logger } from '../ground/logger.js';

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && CLIENT_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          req_id: req.id,
          req: { method: req.method, url: redactUrl(req.originalUrl), headers: redactHeaders(req.headers), ip: req.ip },
          res: { status: res.statusCode, headers: redactHeaders(res.getHeaders()) },
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
