// The refresh cookie `pp_rt`: httpOnly, scoped to /api/v1/auth, SameSite=Strict, Secure when the base
// URL is https. Written by hand so its attributes are exactly these and nothing else.

import type { Request, Response } from 'express';
import type { Config } from '../ground/config.js';
import { AppError } from '../ground/errors.js';
import { REFRESH_TOKEN_TTL_MS } from './refreshTokens.js';

export const REFRESH_COOKIE = 'pp_rt';
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

function serialize(config: Config, value: string, maxAgeSeconds: number): string {
  const parts = [`${REFRESH_COOKIE}=${value}`, `Max-Age=${maxAgeSeconds}`, `Path=${REFRESH_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict'];
  if (new URL(config.base_url).protocol === 'https:') parts.push('Secure');
  return parts.join('; ');
}

export function refreshCookieHeader(config: Config, value: string): string {
  return serialize(config, value, Math.floor(REFRESH_TOKEN_TTL_MS / 1000));
}

export function clearedCookieHeader(config: Config): string {
  return serialize(config, '', 0);
}

export function setRefreshCookie(res: Response, config: Config, value: string): void {
  res.setHeader('Set-Cookie', refreshCookieHeader(config, value));
}

export function clearRefreshCookie(res: Response, config: Config): void {
  res.setHeader('Set-Cookie', clearedCookieHeader(config));
}

/** The `pp_rt` value from the Cookie header (the token alphabet is base64url, so no decoding). */
export function readRefreshCookie(req: Request): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = pair.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/** 401 `unauthorized` that also clears the cookie: an invalid, expired, ended or reused refresh token. */
export class RefreshRejectedError extends AppError {
  constructor(config: Config) {
    super(401, 'unauthorized', 'authentication required', {}, { 'Set-Cookie': clearedCookieHeader(config) });
  }
}
