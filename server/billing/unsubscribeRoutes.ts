// HTTP for the marketing-email opt-out by emailed token (cloud edition): read the state, unsubscribe
// (also as a mail client's one-click form post), subscribe again. No sign-in; the token is the
// credential, and each client address has a budget so the routes cannot be hammered.

import type { RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import type { Services } from '../http/services.js';
import { maskEmail } from '../ground/masks.js';
import { optIn, optOut, preferenceOfToken } from './unsubscribe.js';
import { RESUBSCRIBE_PATH, UNSUBSCRIBE_PATH, unsubscribeOpenApi } from './unsubscribeOpenApi.js';
import { other } from '../access/access.js';

/** The sign-in group's per-address budget size, spent from a bucket of its own. */
function addressLimit(services: Services): RequestHandler {
  return (req, _res, next) => {
    services.limiter.take('email-unsubscribe-ip', req.ip ?? 'unknown', { perMinute: services.config.rate_limit.auth_ip_per_minute });
    next();
  };
}

export const unsubscribeDomain: Domain = {
  name: 'email-unsubscribe',
  openapi: unsubscribeOpenApi,
  mount(routes, services) {
    const open = other('email_token', [addressLimit(services)], { cloudOnly: true });

    routes.get(UNSUBSCRIBE_PATH, open, (req, res) => {
      const preference = preferenceOfToken(services, req.valid.query.token as string);
      res.json({ subscribed: preference.optedOutAt === null, email_masked: maskEmail(preference.email) });
    });

    routes.post(UNSUBSCRIBE_PATH, open, (req, res) => {
      const token = (req.body.token as string | undefined) ?? (req.valid.query.token as string | undefined);
      const preference = preferenceOfToken(services, token);
      optOut(services, preference.userId);
      res.json({ unsubscribed: true, email_masked: maskEmail(preference.email) });
    });

    routes.post(RESUBSCRIBE_PATH, open, (req, res) => {
      const preference = preferenceOfToken(services, req.body.token as string);
      optIn(services, preference.userId);
      res.json({ subscribed: true, email_masked: maskEmail(preference.email) });
    });
  },
};
