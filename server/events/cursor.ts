// Opaque cursors of the events lists: a keyset position signed (HMAC-SHA256 under the server's
// cursor key) together with the scope it was issued for. The callers decide what scope and
// position are; a cursor shown with any other scope, altered, or unreadable is 422.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';
import { deriveKey } from '../auth/secretKeys.js';
import { ValidationError } from '../http/errors.js';

const FORMAT = 'e1';

export function encodeCursor(services: Pick<Services, 'secret'>, scope: unknown, position: unknown): string {
  const body = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
  return `${FORMAT}.${body}.${mac(services.secret, scope, body).toString('base64url')}`;
}

/** The position signed into `token`, if it was issued for exactly this scope. */
export function decodeCursor(services: Pick<Services, 'secret'>, scope: unknown, token: string): unknown {
  const refused = new ValidationError('cursor is not valid for this query; it belongs to other filters or another project, or was altered', 'cursor');
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== FORMAT) throw refused;
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = mac(services.secret, scope, parts[1]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
  try {
    return JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw refused;
  }
}

function mac(secret: Buffer, scope: unknown, body: string): Buffer {
  return createHmac('sha256', deriveKey(secret, 'cursor')).update(canonical(scope)).update('\n').update(body).digest();
}

/** JSON with keys sorted at every level and undefined members left out, so equal scopes sign alike. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
