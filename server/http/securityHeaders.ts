// Headers every response carries, and the envelope for requests Node refuses before express sees
// them (headers over its limit).

import type { RequestHandler } from 'express';
import { maxHeaderSize, type Server } from 'node:http';
import type { Socket } from 'node:net';

const HSTS = 'max-age=31536000';

/**
 * `nosniff` everywhere; HSTS on requests that came over https (browsers ignore it on a connection
 * with certificate errors, so a self-signed install can still be reached); API answers are private
 * and may carry tokens, so they are never stored unless a route says otherwise.
 */
export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
    if (req.path.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

function rawJsonAnswer(status: number, reason: string, code: string, message: string): string {
  const body = JSON.stringify({ error: { code, message, details: {} } });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** A half-written response on the socket cannot be followed by another. */
function answerable(socket: Socket): boolean {
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return socket.writable && !pending?.headersSent;
}

/** Answers the parse failures Node catches itself (oversized headers, malformed requests) in the error envelope. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!answerable(socket)) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      socket.end(rawJsonAnswer(431, 'Request Header Fields Too Large', 'headers_too_large', `request headers are larger than the ${maxHeaderSize / 1024} KiB the server accepts`));
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end(rawJsonAnswer(408, 'Request Timeout', 'request_timeout', 'the request was not received in time'));
    } else if (err.code?.startsWith('HPE_')) {
      socket.end(rawJsonAnswer(400, 'Bad Request', 'validation_failed', 'malformed HTTP request'));
    } else {
      socket.destroy();
    }
  });
}
