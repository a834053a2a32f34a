// What an ingest request says about its client for the web fields: the User-Agent header and the
// address express resolves (through the proxies `trust_proxy` names). Neither is stored.

import type { Request } from 'express';
import type { ClientHints } from '../web/eventProps.js';

export function clientHints(req: Request): ClientHints {
  return { userAgent: req.get('user-agent') ?? null, address: req.ip ?? null };
}
