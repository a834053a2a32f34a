// Cookie-authenticated operations (refresh, bootstrap, logout) refuse a present Origin outside the
// allowlist (configured CORS origins plus the base URL): a cross-site page must not spend the cookie.
// Requests without Origin (same-origin navigations, non-browser clients) pass. The refusal names the
// address the console should be opened at, so a person who reached pp by another name learns which.

import type { RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { allowedOrigins } from '../ground/config.js';
import { ForbiddenError } from '../ground/errors.js';

export function requireAllowedOrigin(services: Services): RequestHandler {
  const allowed = allowedOrigins(services.config);
  const home = new URL(services.config.base_url).origin;
  return (req, _res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined && !allowed.has(origin)) throw new ForbiddenError('this origin may not use the session cookie', 'forbidden', { allowed_origin: home });
    next();
  };
}
