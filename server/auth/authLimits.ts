// The budgets of the authentication group (HTTP contract, Limits): sign-in, registration, password
// reset and invitation accept share one per-address budget, and the operations that name an email
// also spend from a per-email budget; refresh, bootstrap and logout have a separate per-address budget.

import type { Request, RequestHandler } from 'express';
import type { Services } from '../http/services.js';

const address = (req: Request) => req.ip ?? 'unknown';

/** Spends from the sign-in group's per-address budget; runs before validation so bad requests count. */
export function authIpLimit(services: Services): RequestHandler {
  return (req, _res, next) => {
    services.limiter.take('auth-ip', address(req), { perMinute: services.config.rate_limit.auth_ip_per_minute });
    next();
  };
}

/** Spends from the per-email budget of the sign-in group. */
export function spendEmailBudget(services: Services, email: string): void {
  services.limiter.take('auth-email', email.trim().toLowerCase(), { perMinute: services.config.rate_limit.auth_email_per_minute });
}

export function refreshIpLimit(services: Services): RequestHandler {
  return (req, _res, next) => {
    services.limiter.take('auth-refresh-ip', address(req), { perMinute: services.config.rate_limit.refresh_ip_per_minute });
    next();
  };
}
