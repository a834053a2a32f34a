// Shared pieces of the account tests: settings that lift the sign-in budgets (the rate-limit test
// checks the real ones), HTTP registration, cookie reading and TOTP codes at the server's clock.

import { authenticator } from 'otplib';
import type { TestServer } from '../support/testServer.js';
import { refreshCookieFrom, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';

export const ROOMY_LIMITS = {
  'rate_limit.auth_ip_per_minute': 100_000,
  'rate_limit.auth_email_per_minute': 100_000,
  'rate_limit.refresh_ip_per_minute': 100_000,
};

export interface Registered {
  email: string;
  password: string;
  token: string;
  cookie: string;
  body: any;
}

export async function register(server: TestServer, body: Record<string, unknown> = {}): Promise<Registered> {
  const email = (body.email as string | undefined) ?? uniqueEmail('reg');
  const password = (body.password as string | undefined) ?? TEST_PASSWORD;
  const res = await server.request('POST', '/api/v1/auth/register', { body: { email, password, ...body } });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return { email, password, token: res.body.access_token, cookie: refreshCookieFrom(res.headers)!, body: res.body };
}

/** POST to a cookie-authenticated auth route the way a browser does. */
export function withCookie(server: TestServer, path: string, cookie: string | undefined, options: { body?: unknown; origin?: string } = {}) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (options.origin) headers.origin = options.origin;
  return server.request('POST', path, { body: options.body, headers });
}

/** The TOTP code an authenticator app shows at `offsetSteps` steps from the server's current time. */
export function totpAt(server: TestServer, secret: string, offsetSteps = 0): string {
  return authenticator.clone({ epoch: server.clock.now().getTime() + offsetSteps * 30_000 }).generate(secret);
}

/** Enables MFA for the bearer of `token` over HTTP; returns the secret and the recovery codes. */
export async function enableMfaOverHttp(server: TestServer, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await server.request('POST', '/api/v1/me/mfa/setup', { token });
  if (setup.status !== 200) throw new Error(`mfa setup: ${setup.status} ${setup.text}`);
  const enable = await server.request('POST', '/api/v1/me/mfa/enable', { token, body: { code: totpAt(server, setup.body.secret) } });
  if (enable.status !== 200) throw new Error(`mfa enable: ${enable.status} ${enable.text}`);
  return { secret: setup.body.secret, recoveryCodes: enable.body.recovery_codes };
}
