// Opaque pagination cursors: a position signed together with the scope it belongs to (project and
// every parameter that shapes the list), so a cursor replayed against another scope is refused.
// Callers decide what the scope and the position are; this module only signs and checks.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from './services.js';
import { deriveKey } from '../ground/secretKeys.js';
import { ValidationError } from '../ground/errors.js';

const VERSION = 'c1';

/** Signs `position` for use only with exactly this `scope` (compared by canonical JSON). */
export function encodeCursor(services: Pick<Services, 'secret'>, scope: unknown, position: unknown): string {
  const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
  return `${VERSION}.${payload}.${sign(services.secret, scope, payload)}`;
}

/**
 * The position of a cursor made by encodeCursor for the same scope. Anything else (tampered, from
 * another project or another query scope, another server secret) is 422 `validation_failed`.
 */
export function decodeCursor<T = unknown>(services: Pick<Services, 'secret'>, scope: unknown, token: string, field = 'cursor'): T {
  const refuse = () => new ValidationError(`${field} does not belong to this query; start again without it`, field);
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) throw refuse();
  const [, payload, mac] = parts as [string, string, string];
  const expected = Buffer.from(sign(services.secret, scope, payload), 'base64url');
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
  } catch {
    throw refuse();
  }
}

function sign(secret: Buffer, scope: unknown, payload: string): string {
  return createHmac('sha256', deriveKey(secret, 'cursor')).update(canonicalJson(scope)).update('\n').update(payload).digest('base64url');
}

/** JSON with object keys sorted at every level, so equal scopes sign equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
